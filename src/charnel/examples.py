"""Running examples: every example of a game, every card against its abilities' examples, and
the example blocks of any file a user writes (`charnel examples run PATH...`)."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from charnel import example_language, run_keys
from charnel.diagnostics import Origin, Problem, Problems
from charnel.engine import outcomes
from charnel.records import Example, GameRecords, Outcome


@contextmanager
def no_cycle_collection() -> Iterator[None]:
    """Pause the cyclic garbage collector: with a large card pool loaded, its passes over the
    loaded records cost far more than the example runs themselves (runs make no cycles)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def run_all(
    records: GameRecords,
    tick: Callable[[], None] | None = None,
    kept: dict | None = None,
    identities: list[str] | None = None,
) -> list[Outcome]:
    """Run each example once, then verify each card; returns every outcome.

    `kept`: runs kept from an earlier build (see `charnel.run_keys`): the examples' by key,
    the cards' by each card's key under what every card's verification reads beside it. An
    example or card whose key is there is not run again. The dict is updated to hold this
    build's runs (and only those), ready to be kept for the next. `identities`: the cards'
    (`Verified.identities`), when the checks made them already.
    """
    game = records.game
    keys = run_keys.RunKeys(records) if kept is not None else None
    found = {"examples": _runs(kept, "examples"),
             "cards": _runs(kept, "cards") if keys and kept.get("read") == keys.cards_read
             else {}}
    fresh: dict[str, dict[str, list[tuple]]] = {"examples": {}, "cards": {}}

    def run(kind: str, key: str | None, make: Callable[[], list[Outcome]]) -> list[Outcome]:
        if key is None:
            return make()
        runs = found[kind].get(key)
        if runs is None:
            made = make()
            fresh[kind][key] = [run_keys.plain(o) for o in made]
            return made
        fresh[kind][key] = runs
        return [run_keys.from_plain(o) for o in runs]

    made = []
    with no_cycle_collection():
        for example in records.examples:
            made.extend(run("examples", keys.example(example) if keys else None,
                            lambda e=example: [outcomes.run_example(game, e, records)]))
            if tick:
                tick()
        if not keys:
            identities = [None] * len(records.cards)
        elif identities is None:
            identities = run_keys.card_identities(records)
        for card, key in zip(records.cards, identities, strict=True):
            made.extend(run("cards", key, lambda c=card: outcomes.verify_card(game, c, records)))
            if tick:
                tick()
    if kept is not None:
        kept.clear()
        # in the order run: the store sorts what it writes whole (`kept.Layered`)
        kept.update(examples=fresh["examples"], read=keys.cards_read, cards=fresh["cards"])
    return made


def _runs(kept: dict | None, kind: str) -> dict:
    runs = kept.get(kind) if kept is not None else None
    return runs if isinstance(runs, dict) else {}


def steps(records: GameRecords) -> int:
    """How many ticks `run_all` makes: for a progress bar."""
    return len(records.examples) + len(records.cards)


def run_examples(examples: list[Example], records: GameRecords) -> list[Outcome]:
    with no_cycle_collection():
        return [outcomes.run_example(records.game, example, records) for example in examples]


def read_files(paths: list[Path], root: Path, problems: Problems) -> list[Example]:
    """Example blocks from Markdown and YAML files, in the order given."""
    found: list[Example] = []
    for path in paths:
        shown = _shown(path, root)
        if path.is_dir():
            problems.add(Origin(shown), "is a folder; give Markdown or YAML files")
            continue
        found.extend(example_language.read_file(path, shown, problems))
    return found


def _shown(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


@dataclass
class Summary:
    runs: int = 0
    passed: int = 0
    broken: list[Outcome] = field(default_factory=list)
    failed: list[Outcome] = field(default_factory=list)

    @classmethod
    def of(cls, outcomes: list[Outcome]) -> Summary:
        s = cls(runs=len(outcomes))
        for o in outcomes:
            if o.passed:
                s.passed += 1
            elif o.broken:
                s.broken.append(o)
            else:
                s.failed.append(o)
        return s

    @property
    def ok(self) -> bool:
        return not self.broken and not self.failed

    def line(self) -> str:
        text = f"{self.passed}/{self.runs} example runs pass"
        if self.failed:
            text += f", {len(self.failed)} fail"
        if self.broken:
            text += f", {len(self.broken)} malformed"
        return text


def add_broken(outcomes: list[Outcome], problems: Problems) -> bool:
    """Add each example the engine could not read to `problems` (bad input, like any other;
    an example that fails is not); True when there was one."""
    broken = [o for o in outcomes if o.broken]
    for problem in map(as_problem, broken):
        problems.add(problem.origin, problem.message, problem.detail)
    return bool(broken)


def as_problem(outcome: Outcome) -> Problem:
    """A failing or malformed example as `path:line:col: message`, with the diff below."""
    origin = outcome.origin or Origin("<example>")
    who = f" for card {outcome.card}" if outcome.card else ""
    if outcome.broken:
        return Problem(origin, f"example '{outcome.example}'{who}: {outcome.message}")
    detail = "\n".join(["expected (-) vs actual (+):", *outcome.diff]) if outcome.diff else ""
    return Problem(origin, f"example '{outcome.example}'{who} fails: {outcome.message}", detail)
