"""The Hecatomb game plugin: what the core asks of a game."""

from __future__ import annotations

from charnel.games.base import Game
from charnel.games.hecatomb import cards, drawing, search
from charnel.games.hecatomb.examples import example_states, run_example, verify_card


class Hecatomb(Game):
    id = "hecatomb"
    fields = cards.FIELDS

    def search_fields(self):
        return search.fields(super().search_fields())

    def check(self, records, problems) -> None:
        cards.check(records, problems)

    def text_parts(self, card, text):
        return cards.text_parts(card, text)

    # --- the rules engine (charnel.games.hecatomb.engine) ---------------------------------

    def run_example(self, example, records):
        return run_example(example, records)

    def verify_card(self, card, records):
        return verify_card(card, records)

    def example_states(self, example, records):
        return example_states(example, records)

    def draw_card(self, card):
        return drawing.draw_card(card)

    def draw_state(self, state):
        return drawing.draw_state(state)
