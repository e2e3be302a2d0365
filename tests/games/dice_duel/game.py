"""What the core asks of Dice Duel: its card fields and its engine."""

from __future__ import annotations

from typing import Literal

from charnel.fields import REQUIRED, CardField, Search
from charnel.game import Game
from charnel.records import TextPart

FIELDS = (
    CardField("might", int, "What the champion adds to each blow.", REQUIRED,
              rules={"ge": 0, "le": 9}, numbers=True,
              search=Search(("m", "might"), "Might (compares).", "m>=2"), checklist=2),
    CardField("clan", Literal["ember", "frost"], "The champion's clan.", REQUIRED,
              facet="clan", index=True, search=Search(("clan",), "Clan.", "clan:ember"),
              checklist=1),
)

MIGHT_SENTENCE = "Each blow of this champion adds its might"


class DiceDuel(Game):
    id = "dice-duel"
    fields = FIELDS
    search_examples = ("clan:ember m>=2", "o:blow", "s:embers")

    def text_parts(self, card, text) -> list[TextPart]:
        """A champion's text encodes one sentence, what its might does to each blow, which
        the engine runs (engine.DuelEngine.abilities); any other sentence stays text."""
        said = list(text.other)
        ran = [{"might": card.might} for s in said if s == MIGHT_SENTENCE]
        return [TextPart("text", said, ran)] if said else []

    def engine(self, records):
        from .engine import DuelEngine

        return DuelEngine()
