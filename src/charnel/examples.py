"""Running examples: every example of a game, and every card against its keywords' examples."""

from __future__ import annotations

from collections.abc import Callable

from charnel import games
from charnel.games.base import Outcome
from charnel.records import GameRecords


def run_all(records: GameRecords, tick: Callable[[], None] | None = None) -> list[Outcome]:
    """Run each example once, then verify each card; returns every outcome."""
    game = games.get(records.info.id)
    outcomes = []
    for example in records.examples:
        outcomes.append(game.run_example(example, records))
        if tick:
            tick()
    for card in records.cards:
        outcomes.extend(game.verify_card(card, records))
        if tick:
            tick()
    return outcomes
