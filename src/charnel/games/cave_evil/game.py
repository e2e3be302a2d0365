"""The Cave Evil game plugin: what the core asks of a game."""

from __future__ import annotations

from typing import Any

from charnel.game import Game

from . import cards
from .cards import FIELDS, CaveEvilCard


class CaveEvil(Game):
    id = "cave-evil"
    fields = FIELDS
    card_model = CaveEvilCard  # the model FIELDS derive, as cards.py names it

    search_examples = cards.SEARCH_EXAMPLES

    def search_fields(self):
        from charnel.query import with_examples

        fields = super().search_fields()
        return with_examples({"deck": fields["s"], **fields, **cards.SEARCH_FIELDS},
                             self.search_examples)

    def card_checks(self, records):
        return lambda card: cards.card_problems(card, card.set_code)

    def check(self, records, problems) -> None:
        cards.check_decks(records.cards, problems)

    def text_parts(self, card, text):
        from .ability_text import text_parts

        return text_parts(card, text)

    def unrun_reason(self, card):
        return card.text_only  # why the engine leaves the rest of its text unrun

    # --- the rules engine (engine/) ------------------------------------------------------------

    def engine(self, records):
        from .engine.odds_fact import odds_of
        from .engine.pieces import pool_of
        from .engine.runner import CaveEvilEngine

        return CaveEvilEngine(pool_of(records), odds=odds_of)

    def draw_card(self, card):
        from .card_face import draw_card

        return draw_card(card)

    def aid_figures(self):
        from .cards import ATTRIBUTE_NAMES, ATTRIBUTES
        from .drawing import draw_ring

        ring = draw_ring(list(zip(ATTRIBUTES, ATTRIBUTE_NAMES, strict=True)))
        return [("The attribute ring", ring)]

    def draw_state(self, state):
        from .drawing import draw_state

        return draw_state(state)

    def fight_odds(self, records, attacker: str, defender: str, modes: list[str]) -> dict[str, Any]:
        from .engine.fight import FightError
        from .odds_report import fight_odds

        try:
            return fight_odds(records.cards, attacker, defender, modes)
        except FightError as exc:
            raise ValueError(str(exc)) from None

    def fight_lines(self, records, lines, modes) -> dict[str, Any]:
        from .engine.fight import FightError
        from .odds_lines import compare

        try:
            return compare(records.cards, lines, modes)
        except FightError as exc:
            raise ValueError(str(exc)) from None

    def fight_flip(self, records, attacker, defender, modes, threshold) -> dict[str, Any]:
        from .engine.fight import FightError
        from .odds_lines import flip

        try:
            return flip(records.cards, attacker, defender, modes, threshold)
        except FightError as exc:
            raise ValueError(str(exc)) from None

    def site_pages(self, records) -> list:
        from . import calculator, deck_pages

        return calculator.site_pages(records.cards) + deck_pages.site_pages(
            records.cards, records.info.group
        )

    def site_answers(self):
        from . import calculator

        return calculator.site_answers()

    def card_links(self, card):
        from .calculator import card_links

        return card_links(card)

    def extra_tables(self, base):
        from . import deck_pages

        return [deck_pages.table(base)]

    def extra_rows(self, records):
        from . import deck_pages

        return {"deck_composition": deck_pages.rows(records.cards)}
