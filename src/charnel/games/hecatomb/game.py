"""The Hecatomb game plugin: what the core asks of a game."""

from __future__ import annotations

from typing import Any

from charnel.games.base import Game
from charnel.games.hecatomb import cards, drawing, search
from charnel.games.hecatomb.cards import HecatombCard, HecatombCardColumns


class Hecatomb(Game):
    id = "hecatomb"
    card_model = HecatombCard
    card_columns = HecatombCardColumns
    full_text = ("subtype", "conditional_text")

    def card_row(self, card: HecatombCard) -> dict[str, Any]:
        return {
            "doom": card.doom,
            "combat": card.combat,
            "strength": card.strength,
            "subtype": card.subtype,
            "triggers": ",".join(card.triggers) if card.triggers else None,
            "conditional_doom": card.conditional.doom if card.conditional else None,
            "conditional_text": card.conditional.text if card.conditional else None,
            "conditional_effects": cards.conditional_effects(card),
        }

    def search_fields(self):
        return search.FIELDS

    def check(self, records, problems) -> None:
        cards.check(records, problems)

    def text_parts(self, card, text):
        return cards.text_parts(card, text)

    # --- the rules engine (charnel.games.hecatomb.engine) and pictures ---------------------

    def engine(self, records):
        from charnel.games.hecatomb.engine import HecatombEngine

        return HecatombEngine(records)

    def draw_card(self, card):
        return drawing.draw_card(card)

    def draw_state(self, state):
        return drawing.draw_state(state)
