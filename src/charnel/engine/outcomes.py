"""Running examples: a game's engine (one per loaded records, kept on them) run by the core
runner, results as `Outcome`s, for each example, each card, and each example's pictures."""

from __future__ import annotations

from typing import TYPE_CHECKING

from charnel import example_language as language
from charnel.engine import runner, verification
from charnel.engine.errors import ExampleError
from charnel.records import CardBase, Example, GameRecords, Outcome

if TYPE_CHECKING:
    from charnel.game import Game

_KEPT = "_charnel_engine"  # where the engine and its runs are kept on the records


def checks(game: Game, records: GameRecords) -> verification.Checks | None:
    kept = records.__dict__.get(_KEPT)
    if kept is None:
        engine = game.engine(records)
        if engine is None:
            return None
        kept = records.__dict__[_KEPT] = verification.Checks(engine)
    return kept


def outcome(example: Example, result: runner.RunResult, card: str | None = None) -> Outcome:
    return Outcome(
        example.id,
        result.passed,
        result.message,
        list(result.diff),
        card,
        origin=None if result.passed else example.doc.at(result.path, key=result.key),
        broken=result.broken,
    )


def _body(checks: verification.Checks, example: Example) -> dict | runner.RunResult:
    try:
        return checks.engine.body(example)
    except (ExampleError, language.LanguageError) as exc:
        return runner.broken(exc)


def run_example(game: Game, example: Example, records: GameRecords) -> Outcome:
    kept = checks(game, records)
    if kept is None:
        return Outcome(example.id, False, f"game '{game.id}' has no rules engine")
    body = _body(kept, example)
    if isinstance(body, runner.RunResult):
        return outcome(example, body)
    return outcome(example, runner.run(body, kept.engine))


def example_states(game: Game, example: Example, records: GameRecords) -> tuple[dict, dict] | None:
    kept = checks(game, records)
    if kept is None:
        return None
    body = _body(kept, example)
    if isinstance(body, runner.RunResult):
        return None
    return runner.states_of(body, kept.engine)


def card_runs(game: Game, card: CardBase, records: GameRecords) -> list[tuple[str, Outcome]]:
    """(ability text, outcome) for each run of the card's abilities' examples."""
    kept = checks(game, records)
    if kept is None:
        return []
    out = []
    for ability, example, result in verification.runs(kept, records, card):
        made = outcome(example, result, card.slug)
        if not result.passed:
            made.message = f"with {card.name} as {ability.role}: {result.message}"
        out.append((ability.text, made))
    return out


def verify_card(game: Game, card: CardBase, records: GameRecords) -> list[Outcome]:
    """Run the examples of each ability the card encodes with the card substituted in."""
    return [made for _, made in card_runs(game, card, records)]
