"""The Hecatomb game plugin: what the core asks of a game."""

from __future__ import annotations

from charnel.game import Game

from . import cards, drawing, search


class Hecatomb(Game):
    id = "hecatomb"
    fields = cards.FIELDS
    full_text = ("subtype", "conditional_text")
    has_keywords = True
    search_examples = search.EXAMPLES

    def search_fields(self):
        return search.fields(super().search_fields())

    def card_checks(self, records):
        return cards.card_checks(records)

    def text_parts(self, card, text):
        return cards.text_parts(card, text)

    # --- the rules engine (engine/) and pictures -----------------------------------------------

    def engine(self, records):
        from .engine import HecatombEngine

        return HecatombEngine(records)

    def draw_card(self, card):
        return drawing.draw_card(card)

    def draw_state(self, state):
        return drawing.draw_state(state)
