"""Card verification: each ability a card encodes is checked against the examples of the
clauses that define it, with the card substituted in.

An ability's examples are those that name it (`ability: <name>`), and those under one of its
defining clauses (or their sub-rules) that name no other; of these, the game keeps the ones
that exercise the ability (`Engine.subject`) and speak for the card's version of it
(`Engine.applies`). Runs whose `Engine.run_key` is equal are run once.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from charnel import example_language as language
from charnel.engine import runner
from charnel.engine.errors import ExampleError
from charnel.engine.protocol import Ability, Engine
from charnel.records import CardBase, Example, GameRecords


def covers(clause: str, owner: str) -> bool:
    """'8.6' covers '8.6' and its sub-rules '8.6a', '8.6b'."""
    return owner == clause or (owner.startswith(clause) and owner[len(clause) :].isalpha())


@dataclass
class Checks:
    """Per loaded records: each ability's examples and the results of runs made so far."""

    engine: Engine
    examples: dict[str, list[tuple[Example, Any]]] = field(default_factory=dict)
    runs: dict[Hashable, runner.RunResult] = field(default_factory=dict)


def examples_of(
    records: GameRecords, engine: Engine, ability: Ability
) -> list[tuple[Example, Any]]:
    """(example, subject) for each example that checks the ability."""
    out = []
    for example in records.examples:
        named = example.body.get("ability")
        if named is not None and named != ability.name:
            continue
        if named is None and not (
            example.owner_kind == "rule" and any(covers(c, example.owner) for c in ability.clauses)
        ):
            continue
        subject = engine.subject(example, ability)
        if subject is not None:
            out.append((example, subject))
    return out


def runs(
    checks: Checks, records: GameRecords, card: CardBase
) -> list[tuple[Ability, Example, runner.RunResult]]:
    """(ability, example, result) for each run of the card's abilities' examples; an ability
    with no run is verified by nothing."""
    engine = checks.engine
    out = []
    for ability in engine.abilities(card):
        found = checks.examples.get(ability.name)
        if found is None:
            found = checks.examples[ability.name] = examples_of(records, engine, ability)
        for example, subject in found:
            if engine.applies(example, subject, ability):
                out.append((ability, example, _run(checks, example, subject, card, ability)))
    return out


def _run(checks: Checks, example: Example, subject: Any, card: CardBase, ability: Ability):
    engine = checks.engine
    key = (id(example), engine.run_key(example, card, ability))
    result = checks.runs.get(key)
    if result is None:
        try:
            body = engine.substitute(example, subject, card, ability)
            result = runner.run(body, engine)
        except (ExampleError, language.LanguageError) as exc:
            result = runner.broken(exc)
        checks.runs[key] = result
    return result
