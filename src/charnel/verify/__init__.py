"""The verify stage: every check over loaded records, all problems in one list."""

from __future__ import annotations

from dataclasses import dataclass

from charnel import registry
from charnel.diagnostics import Problems
from charnel.game import Game
from charnel.records import GameRecords
from charnel.verify import keyword_text, references
from charnel.verify.keyword_text import CardText


@dataclass
class Verified:
    """Records that passed every check, with what the checks decoded on the way."""

    records: GameRecords
    card_text: dict[str, CardText]


def verify(records: GameRecords, problems: Problems) -> Verified:
    references.check(records, problems)
    card_text = keyword_text.check(records, problems)
    game = records.game
    _keywords_declared(game, records, problems)
    game.check(records, problems)
    _engine_hook(game, records, problems)
    return Verified(records, card_text)


def _keywords_declared(game: Game, records: GameRecords, problems: Problems) -> None:
    """Keywords are one kind of ability a game may have: one that has none (`has_keywords`)
    encodes its abilities in its own fields, and a keyword written for it is a mistake."""
    if game.has_keywords:
        return
    why = f"game '{game.id}' has no keywords; its abilities are its own card fields"
    for i, term in enumerate(records.glossary.terms):
        if term.keyword is not None:
            problems.add(records.glossary.where("terms", i, "keyword", key=True), why)
    for card in records.cards:
        if card.keywords:
            problems.add(card.where("keywords", key=True), why)


def _engine_hook(game: Game, records: GameRecords, problems: Problems) -> None:
    """Rules with examples need the game's `engine` hook to run them."""
    from charnel.engine import outcomes

    if not records.examples:
        return
    written = type(game).engine is not Game.engine
    # an engine is only made over records that are sound: it reads them as it starts
    if written and (problems or outcomes.checks(game, records) is not None):
        return
    first = records.examples[0].origin
    problems.add(
        registry.class_origin(game),
        f"game '{game.id}' has no 'engine' hook, but its rules have examples to run "
        f"({len(records.examples)}, the first at {first})",
    )
