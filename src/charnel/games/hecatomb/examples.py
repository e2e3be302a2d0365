"""The Hecatomb side of the example runner: examples and card verification as `Outcome`s.

The engine context (keyword book, card pool, verification cache) is built once per loaded
`GameRecords` and kept on it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from charnel import example_language as language
from charnel.games.base import Outcome
from charnel.games.hecatomb.engine import runner, verify
from charnel.keywords import KeywordBook
from charnel.records import CardBase, Example, GameRecords


@dataclass
class Context:
    book: KeywordBook
    pool: dict[str, Any]
    memo: dict[tuple, runner.RunResult] = field(default_factory=dict)
    by_keyword: dict[str, list] = field(default_factory=dict)


def context(records: GameRecords) -> Context:
    ctx = records.__dict__.get("_hecatomb_engine")
    if ctx is None:
        book = KeywordBook(records.keywords, records.info)
        ctx = Context(book, {c.slug: c for c in records.cards})
        records.__dict__["_hecatomb_engine"] = ctx
    return ctx


def _outcome(example: Example, result: runner.RunResult, card: str | None = None) -> Outcome:
    return Outcome(
        example.id,
        result.passed,
        result.message,
        list(result.diff),
        card,
        origin=None if result.passed else example.doc.at(result.path, key=result.key),
        broken=result.broken,
    )


def run_example(example: Example, records: GameRecords) -> Outcome:
    ctx = context(records)
    try:
        body = verify.bind(example, records, ctx.book)
    except language.LanguageError as exc:
        return _outcome(
            example, runner.RunResult(False, exc.message, path=exc.path, broken=True, key=exc.key)
        )
    return _outcome(example, runner.run(body, ctx.book, ctx.pool))


def example_states(example: Example, records: GameRecords) -> tuple[dict, dict] | None:
    ctx = context(records)
    try:
        body = verify.bind(example, records, ctx.book)
    except language.LanguageError:
        return None
    return runner.states_of(body, ctx.book, ctx.pool)


def verify_card(card: CardBase, records: GameRecords) -> list[Outcome]:
    """Run each of the card's keywords' examples with the card's minion as the subject."""
    return [outcome for _, outcome in keyword_runs(card, records)]


def keyword_runs(card: CardBase, records: GameRecords) -> list[tuple[str, Outcome]]:
    """(keyword text, outcome) for each run of the card's keywords' examples; a keyword with
    no run is verified by nothing."""
    ctx = context(records)
    runs = []
    for entry in card.keywords:
        try:
            use = ctx.book.decode(entry)
        except ValueError:
            continue  # reported by the checks already
        examples = ctx.by_keyword.get(use.keyword)
        if examples is None:
            examples = ctx.by_keyword[use.keyword] = verify.keyword_examples(
                records, use.keyword, ctx.book
            )
        for example, subject in examples:
            if not verify.applies(example, subject, use.params):
                continue
            runs.append((use.text, _card_run(ctx, example, subject, card, entry, use)))
    return runs


def _card_run(ctx: Context, example: Example, subject, card: CardBase, entry, use) -> Outcome:
    carried = verify.CARRIED_EFFECTS.get(use.keyword)
    key = (
        id(example),
        repr(entry),
        *verify.stats_read(example, card),
        repr(card.effects) if carried else None,
    )
    result = ctx.memo.get(key)
    if result is None:
        try:
            body = verify.substituted(example, subject, card, entry, use.params)
            result = runner.run(body, ctx.book, ctx.pool)
        except language.LanguageError as exc:
            result = runner.RunResult(False, exc.message, path=exc.path, broken=True, key=exc.key)
        ctx.memo[key] = result
    outcome = _outcome(example, result, card.slug)
    if not result.passed:
        outcome.message = f"with {card.name} as the {use.text} minion: {result.message}"
    return outcome
