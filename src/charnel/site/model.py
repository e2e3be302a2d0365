"""The records arranged the way pages read them: indexes from one set of verified records.

Nothing here formats HTML; it only answers "which cards have this keyword", "which section
holds this clause", "what happened when this example ran" and the like, in a fixed order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from charnel.fields import CardField
from charnel.game import Game, SitePage
from charnel.records import CardBase, Clause, Example, KeywordUse, Outcome, Ruling, Section, Term
from charnel.site import urls
from charnel.verify import Verified


@dataclass(frozen=True)
class FacetValue:
    id: str
    name: str
    color: str | None = None


@dataclass(frozen=True)
class Facet:
    """A card field with a fixed list of values: set, type, or a game's field declared a facet."""

    name: str
    label: str
    values: tuple[FacetValue, ...]
    attr: str = ""  # the card's attribute holding the value, when not `name`

    @property
    def is_group(self) -> bool:
        return self.attr == "set_code"

    def value(self, card: CardBase) -> str | None:
        value = getattr(card, self.attr or self.name, None)
        return value if isinstance(value, str) else None

    def values_of(self, card: CardBase) -> tuple[str, ...]:
        """The card's values: one, none, or each of a list field's (a card of two clans is
        listed under both)."""
        value = getattr(card, self.attr or self.name, None)
        if isinstance(value, str):
            return (value,)
        if isinstance(value, (list, tuple)):
            return tuple(v for v in value if isinstance(v, str))
        return ()

    def lookup(self, value_id: str | None) -> FacetValue | None:
        return self._by_id.get(value_id)

    @cached_property
    def _by_id(self) -> dict[str | None, FacetValue]:
        # every card page and list row looks up each facet: a dict, not a scan
        return {v.id: v for v in reversed(self.values)}  # the first of equal ids wins


@dataclass(frozen=True)
class RulingEntry:
    card: CardBase
    index: int  # 1-based place on the card: the anchor is "ruling-<n>"
    ruling: Ruling

    def __repr__(self) -> str:
        # what a rulings page shows of it, every field of the ruling, cheaply (a page's key)
        return repr((self.card.slug, self.card.name, self.index, vars(self.ruling)))


@dataclass
class SiteModel:
    verified: Verified
    outcomes: list[Outcome]
    printed: list[tuple[str, str]] = field(default_factory=list)  # PDF file name, title
    pdfs_pending: bool = False  # the PDFs are being laid out after this build (charnel serve)
    game: Game = field(init=False)
    urls: urls.GameUrls = field(init=False)
    _card_rows: dict[str, dict] = field(init=False, default_factory=dict, repr=False)
    _facet_values: dict[str, list] = field(init=False, default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.game = self.records.game
        self.urls = urls.GameUrls(self.records.info.id)

    @property
    def records(self):
        return self.verified.records

    @property
    def info(self):
        return self.records.info

    @cached_property
    def game_pages(self) -> list[SitePage]:
        return self.game.site_pages(self.records)

    # --- cards ------------------------------------------------------------------------------

    @cached_property
    def cards(self) -> list[CardBase]:
        set_order = {s.code: i for i, s in enumerate(self.info.sets)}
        ordinal = self.ordinal
        order = lambda c: (  # noqa: E731
            set_order.get(c.set_code, 99), getattr(c, ordinal) if ordinal else 0, c.slug
        )
        return _ordered(self.info.id, (set_order, ordinal), self.records.cards, order)

    @cached_property
    def ordinal(self) -> str | None:
        """The game's number within a set (a collector number), if it has one."""
        return next((f.name for f in self.game.fields if f.unique_in_group), None)

    @cached_property
    def cost(self) -> CardField | None:
        """The game's cost field, if its cards have a cost."""
        return next((f for f in self.game.fields if f.cost is not None), None)

    @cached_property
    def shown_apart(self) -> set[str]:
        """Columns a card page shows in their own places: facets, the cost, the ordinal."""
        apart = {f.name for f in self.facets}
        for f in self.game.fields:
            if f.cost is not None or f.unique_in_group:
                apart.update(c.name for c in f.stored())
        return apart

    @cached_property
    def card_by_slug(self) -> dict[str, CardBase]:
        return {c.slug: c for c in self.cards}

    def facet_values(self, card: CardBase) -> list[tuple[Facet, tuple[FacetValue, ...]]]:
        """Each facet with the card's values of it (none, one, or a list field's several): a
        card's page, search filters, alt text and list row all read them, so they are found
        once."""
        found = self._facet_values.get(card.slug)
        if found is None:
            found = self._facet_values[card.slug] = [
                (f, tuple(v for v in map(f.lookup, f.values_of(card)) if v is not None))
                for f in self.facets
            ]
        return found

    def card_row(self, card: CardBase) -> dict:
        """The game's table row of a card: its page, list row and alt text all read it, so it
        is made once per card (and only for the cards rendered)."""
        row = self._card_rows.get(card.slug)
        if row is None:
            row = self._card_rows[card.slug] = self.game.card_row(card)
        return row

    @cached_property
    def number_columns(self) -> list[str]:
        """The game's number columns of card lists, in declaration order (each number column
        of a field stored in several)."""
        return [c.name for f in self.game.fields if f.numbers for c in f.stored() if c.sql is int]

    def keywords_of(self, card: CardBase) -> list[KeywordUse]:
        text = self.verified.card_text.get(card.slug)
        return text.keywords if text else []

    @cached_property
    def facets(self) -> list[Facet]:
        """The card's group (a set, a deck), type, then the game's fields declared facets, in
        declaration order."""
        info = self.info
        facets = [
            Facet(info.group, info.group.capitalize(),
                  tuple(FacetValue(s.code, s.name) for s in info.sets), attr="set_code"),
            Facet("type", "Type", tuple(FacetValue(t.id, t.name) for t in info.card_types)),
        ]
        for f in self.game.fields:
            if f.facet is not None:
                values = info.enums.get(f.facet, [])
                facets.append(
                    Facet(f.name, f.label, tuple(FacetValue(v.id, v.name, v.color) for v in values))
                )
        return facets

    def facet(self, name: str) -> Facet | None:
        return next((f for f in self.facets if f.name == name), None)

    @cached_property
    def colored_facet(self) -> Facet | None:
        """The first enum whose values carry colours: the one cards are coloured by."""
        return next((f for f in self.facets if any(v.color for v in f.values)), None)

    def card_color(self, card: CardBase) -> str | None:
        facet = self.colored_facet
        value = facet.lookup(facet.value(card)) if facet else None
        return value.color if value else None

    # --- rules ------------------------------------------------------------------------------

    @cached_property
    def sections(self) -> list[Section]:
        return sorted(self.records.sections, key=lambda s: s.order)

    @cached_property
    def section_by_number(self) -> dict[str, Section]:
        return {s.number: s for s in self.sections}

    @cached_property
    def clauses_by_section(self) -> dict[str, list[Clause]]:
        out: dict[str, list[Clause]] = {s.number: [] for s in self.sections}
        for clause in sorted(self.records.clauses, key=lambda c: c.order):
            out.setdefault(clause.section, []).append(clause)
        return out

    def clause_url(self, number: str) -> str | None:
        """Direct link to a clause's anchor in its section page; None when there is no clause."""
        clause = self.records.clause(number)
        section = self.section_by_number.get(clause.section) if clause else None
        if section is None:
            return None
        page = self.urls.section(section.slug)
        return page if clause.level == 0 else f"{page}#{number}"

    # --- glossary ---------------------------------------------------------------------------

    @cached_property
    def terms(self) -> list[tuple[Term, bool]]:
        """Every term with whether it is lore, sorted by name."""
        both = [(t, False) for t in self.records.glossary.terms]
        both += [(t, True) for t in self.records.glossary.lore]
        return sorted(both, key=lambda p: (p[0].term.lower(), p[0].slug))

    @cached_property
    def term_by_slug(self) -> dict[str, Term]:
        return {t.slug: t for t, _ in self.terms}

    @cached_property
    def keywords(self) -> list[Term]:
        return sorted(self.records.keywords, key=lambda t: t.term.lower())

    # --- examples ---------------------------------------------------------------------------

    @cached_property
    def examples_by_owner(self) -> dict[tuple[str, str], list[Example]]:
        out: dict[tuple[str, str], list[Example]] = {}
        for example in self.records.examples:
            out.setdefault((example.owner_kind, example.owner), []).append(example)
        return out

    @cached_property
    def example_by_id(self) -> dict[str, Example]:
        return {e.id: e for e in self.records.examples}

    def example_url(self, example_id: str) -> str | None:
        example = self.example_by_id.get(example_id)
        if example is None:
            return None
        if example.owner_kind == "rule":
            base = self.clause_url(example.owner)
            return f"{base.split('#')[0]}#{example.id}" if base else None
        if example.owner_kind == "card" and example.owner in self.card_by_slug:
            return f"{self.urls.card(example.owner)}#{example.id}"
        if example.owner_kind == "term" and example.owner in self.term_by_slug:
            return f"{self.urls.term(example.owner)}#{example.id}"
        return None

    @cached_property
    def outcome_of_example(self) -> dict[str, Outcome]:
        return {o.example: o for o in self.outcomes if o.card is None}

    @cached_property
    def outcomes_by_card(self) -> dict[str, list[Outcome]]:
        out: dict[str, list[Outcome]] = {}
        for outcome in self.outcomes:
            if outcome.card is not None:
                out.setdefault(outcome.card, []).append(outcome)
        # most cards have one run: sorted only where there are more
        return {k: sorted(v, key=lambda o: o.example) if len(v) > 1 else v
                for k, v in out.items()}

    # --- rulings ----------------------------------------------------------------------------

    @cached_property
    def rulings(self) -> list[RulingEntry]:
        """Every ruling, newest first."""
        entries = [
            RulingEntry(card, i, ruling)
            for card in self.cards
            for i, ruling in enumerate(card.rulings, start=1)
        ]
        entries.sort(key=lambda e: (e.card.slug, e.index))
        entries.sort(key=lambda e: e.ruling.date, reverse=True)
        return entries


# game -> what the last build in this process ordered: by what, the cards as loaded, in order,
# and each loaded card's place in the order
_ORDERED: dict[str, tuple[object, list[CardBase], list[CardBase], list[int]]] = {}


def _ordered(game: str, by: object, cards: list[CardBase], order) -> list[CardBase]:
    """`sorted(cards, key=order)`. The loader gives a process that builds again the records of
    unchanged files as they were (`charnel.memo`): when only a few cards are other objects than
    the last build's, each in the place of one with the same sort key, the last order is taken
    with those cards put in it, and only they are read."""
    last = _ORDERED.get(game)
    if last is not None and last[0] == by and len(last[1]) == len(cards):
        _, loaded, ordered, place = last
        changed = [i for i, (card, was) in enumerate(zip(cards, loaded, strict=True))
                   if card is not was]
        if len(changed) * 16 <= len(cards) and all(order(cards[i]) == order(loaded[i])
                                                   for i in changed):
            found = list(ordered)
            for i in changed:
                found[place[i]] = cards[i]
            _ORDERED[game] = (by, list(cards), found, place)
            return found
    indexes = sorted(range(len(cards)), key=lambda i: order(cards[i]))
    place = [0] * len(cards)
    for at, i in enumerate(indexes):
        place[i] = at
    found = [cards[i] for i in indexes]
    _ORDERED[game] = (by, list(cards), found, place)
    return found
