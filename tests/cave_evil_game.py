"""A Cave Evil game for the odds tests, registered through CHARNEL_GAMES: the card model and
the `charnel odds` hook, nothing else, until the game's own package class carries both."""

from __future__ import annotations

from charnel.games.base import Game
from charnel.games.cave_evil.cards import CaveEvilCard
from charnel.games.cave_evil.odds_report import fight_odds


class OddsOnly(Game):
    id = "cave-evil"
    card_model = CaveEvilCard

    def fight_odds(self, records, attacker, defender, modes):
        return fight_odds(records.cards, attacker, defender, modes)


game = OddsOnly()
