"""Examples about building a deck: a deck list, and what checking it against the game's card
pool and deck rules finds (`charnel.decks`), so rules such as "at most three copies of a card"
have examples that run like any other.

    decklist: |
      4 Grave Hound
      36 Ash Hound
    then:
      decklist: {legal: false, cards: 40, reasons: [too-many-copies]}
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from charnel import decks
from charnel import example_language as language
from charnel.diagnostics import Problems
from charnel.engine.errors import ExampleError, reject_unknown
from charnel.engine.result import RunResult

if TYPE_CHECKING:
    from charnel.records import GameRecords

FIELD = "decklist"
FACTS = ("legal", "cards", "reasons")
ALONE = ("given", "when", "choices", "dice")  # a deck is checked before any game begins


def run(body: dict, records: GameRecords | None) -> RunResult:
    for key in ALONE:
        if key in body:
            message = f"an example with a '{FIELD}' checks a deck; it has no '{key}'"
            raise ExampleError((key,), message, key=True)
    text = body[FIELD]
    if not isinstance(text, str):
        raise ExampleError((FIELD,), "a deck list is text: one 'COUNT NAME' a line")
    if records is None:
        raise ExampleError((FIELD,), "this game's engine has no card pool to check a deck against")
    problems = Problems()
    deck = decks.read(text, FIELD, problems)
    if problems:
        first = problems.sorted()[0]
        raise ExampleError((FIELD,), f"line {first.origin.line} of the deck list: {first.message}")
    spec = records.info.deck
    rules = decks.DeckRules(spec.min_cards, spec.max_copies) if spec else decks.DeckRules()
    decks.check(deck, [(c.name, c.slug) for c in records.cards], rules, problems)
    then = body.get("then") or {}
    reject_unknown(then, (FIELD,), ("then",), "fact")
    expected = then.get(FIELD) or {}
    if not isinstance(expected, dict):
        raise ExampleError(("then", FIELD), "a mapping of deck facts: legal, cards, reasons")
    reject_unknown(expected, FACTS, ("then", FIELD), "deck fact")
    actual = {"legal": deck.legal, "cards": deck.cards, "reasons": deck.reasons}
    mismatches = [
        (f"{FIELD}.{fact}", value, actual[fact])
        for fact, value in expected.items()
        if (sorted(value) if fact == "reasons" and isinstance(value, list) else value)
        != (sorted(actual[fact]) if fact == "reasons" else actual[fact])
    ]
    if mismatches:
        noun = "fact differs" if len(mismatches) == 1 else "facts differ"
        return RunResult(
            False,
            f"{len(mismatches)} {noun} from what checking the deck found",
            diff=language.diff_lines(mismatches),
            path=("then",),
        )
    return RunResult(True)
