"""What each conjuration deck holds, as pages and as a table of the database.

A Conjure draws from the top of a deck until a card that is not an event (rule 7.3), so the
chance that it meets at least one event is the chance that the first card is one, events /
cards, and the number of events it meets before the first other card, drawing without
replacement from a full deck, is events / (others + 1).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from sqlmodel import Field, SQLModel

from charnel.game import SitePage

from .cards import CONJURATION, RESOURCES, SIZES

KINDS = ("creature", "item", "spell", "event")
PAGE = "decks/"


@dataclass(frozen=True)
class Composition:
    deck: str
    cards: list[Any]  # the deck's cards, by kind then name

    @property
    def size(self) -> int:
        return sum(c.copies for c in self.cards)

    def copies(self, kind: str) -> int:
        return sum(c.copies for c in self.cards if c.type == kind)

    def distinct(self, kind: str) -> int:
        return sum(1 for c in self.cards if c.type == kind)

    @property
    def event_chance(self) -> Fraction:
        return Fraction(self.copies("event"), self.size) if self.size else Fraction(0)

    @property
    def expected_events(self) -> Fraction:
        events = self.copies("event")
        return Fraction(events, self.size - events + 1) if self.size else Fraction(0)

    def by_size(self) -> list[tuple[str, int]]:
        sizes: dict[str, int] = {}
        for c in self.cards:
            if c.size:
                sizes[c.size] = sizes.get(c.size, 0) + c.copies
        return sorted(sizes.items(), key=lambda kv: SIZES.index(kv[0]))

    def by_resource(self) -> list[tuple[str, int]]:
        """Copies whose cost asks for each resource."""
        return [(r, sum(c.copies for c in self.cards if c.cost and getattr(c.cost, r)))
                for r in RESOURCES]


def compositions(cards: Iterable[Any]) -> list[Composition]:
    cards = list(cards)
    return [
        Composition(deck, sorted((c for c in cards if c.set_code == deck),
                                 key=lambda c: (KINDS.index(c.type) if c.type in KINDS else 9,
                                                c.name)))
        for deck in CONJURATION
    ]


def percent(value: Fraction) -> str:
    return f"{float(value) * 100:.1f}%"


def _context(comp: Composition) -> dict[str, Any]:
    return {
        "deck": comp.deck,
        "size": comp.size,
        "kinds": [(k, comp.distinct(k), comp.copies(k)) for k in KINDS],
        "sizes": comp.by_size(),
        "resources": comp.by_resource(),
        "event_chance": percent(comp.event_chance),
        "event_fraction": f"{comp.copies('event')}/{comp.size}",
        "expected_events": f"{float(comp.expected_events):.3f}",
        "rows": [
            {"name": c.name, "slug": c.slug, "kind": c.type, "copies": c.copies,
             "size": c.size or "", "cost": str(c.cost) if c.cost else ""}
            for c in comp.cards
        ],
    }


def site_pages(cards: Iterable[Any], group: str) -> list[SitePage]:
    """The decks' page and one per deck; `group` names the card lists by deck."""
    comps = compositions(cards)
    pages = [SitePage(PAGE, "decks.html", "Conjuration decks",
                      {"decks": [_context(c) for c in comps]}, nav="Decks")]
    for comp in comps:
        pages.append(SitePage(f"{PAGE}{comp.deck}/", "deck_composition.html",
                              f"The {comp.deck.capitalize()} deck",
                              {**_context(comp), "group": group}))
    return pages


def table(base: type[SQLModel]) -> type[SQLModel]:
    class DeckComposition(base, table=True):  # type: ignore[misc, valid-type, call-arg]
        """Each conjuration deck's cards by kind, and the chance of an event on a Conjure."""

        __tablename__ = "deck_composition"
        deck: str = Field(primary_key=True, description="The conjuration deck.")
        cards: int = Field(description="Distinct cards in it.")
        copies: int = Field(description="Cards in it, copies counted: 70.")
        creatures: int = Field(description="Creature cards, copies counted.")
        items: int = Field(description="Item cards, copies counted.")
        spells: int = Field(description="Spell cards, copies counted.")
        events: int = Field(description="Event cards, copies counted.")
        event_chance: float = Field(
            description="Events / copies: the chance a Conjure meets at least one event.")
        expected_events: float = Field(
            description="Events / (other cards + 1): the events a Conjure meets on average.")

    return DeckComposition


def rows(cards: Iterable[Any]) -> list[dict[str, Any]]:
    return [
        {"deck": c.deck, "cards": len(c.cards), "copies": c.size,
         "creatures": c.copies("creature"), "items": c.copies("item"),
         "spells": c.copies("spell"), "events": c.copies("event"),
         "event_chance": float(c.event_chance), "expected_events": float(c.expected_events)}
        for c in compositions(cards)
    ]
