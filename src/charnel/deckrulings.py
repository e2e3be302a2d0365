"""Everything the rules say about the cards of one deck list: each card's rulings, keywords,
the glossary terms its text names and its errata, and each clause any of them rests on with
the cards that touch it (the project's own rulings under a clause included).

A "deck" is the list of cards a player brings, in the deck-list format of `charnel.decks`:
a constructed deck where the game has deck rules, otherwise the cards a player takes to the
table (a game without decks to build: its hand, its squads).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from charnel.keywords import KeywordBook
from charnel.markdown import plain
from charnel.records import CardBase, Clause, GameRecords, Ruling, Term


@dataclass
class Erratum:
    version: str  # the release that changed the card
    kind: str  # added, erratum, removed
    functional: bool
    reason: str


@dataclass
class CardEntry:
    card: CardBase
    count: int
    keywords: list[tuple[Term, str]] = field(default_factory=list)  # (term, as printed)
    terms: list[Term] = field(default_factory=list)  # other glossary terms its text names
    rulings: list[Ruling] = field(default_factory=list)
    errata: list[Erratum] = field(default_factory=list)
    clauses: list[str] = field(default_factory=list)  # every clause the above rest on


@dataclass
class ClauseEntry:
    clause: Clause
    cards: list[str]  # names of the deck's cards that touch it
    rulings: list[Clause] = field(default_factory=list)  # the project's rulings under it


@dataclass
class DeckRulings:
    cards: list[CardEntry]
    clauses: list[ClauseEntry]


def collect(records: GameRecords, entries: list[tuple[CardBase, int]]) -> DeckRulings:
    """`entries` are the deck's cards with their counts, in list order."""
    cards = card_entries(records, entries)
    return DeckRulings(cards, touched(records, [(e.card.name, e.clauses) for e in cards]))


def card_entries(records: GameRecords, entries: list[tuple[CardBase, int]]) -> list[CardEntry]:
    """What the rules say about each card: its keywords, terms, rulings, errata and the
    clauses they rest on."""
    from charnel.history import views

    events = views.of(records).card_events  # the releases' changes, for errata
    book = KeywordBook(records.glossary.terms, records.info)
    terms = {t.slug: t for t in records.glossary.terms}
    # each term's names folded too: a pool's cards mostly name none of a term's names, which
    # `in` says sooner than the pattern
    named = [(t, _naming(t), [n.casefold() for n in (t.term, *t.aliases)])
             for t in records.glossary.terms if t.keyword is None]
    cards = []
    for card, count in entries:
        entry = CardEntry(card, count)
        uses, _ = book.read(card.text) if card.text else ([], [])
        for use in uses:
            if use.keyword in terms and all(t.slug != use.keyword for t, _ in entry.keywords):
                entry.keywords.append((terms[use.keyword], use.text))
        folded = card.text.casefold() if card.text else ""
        entry.terms = [t for t, pattern, names in named
                       if any(n in folded for n in names) and pattern.search(card.text)]
        entry.rulings = list(card.rulings)
        entry.errata = [Erratum(e.release.version, e.change.kind, e.change.functional,
                                e.change.reason)
                        for e in events.get(card.slug, []) if e.change.kind == "erratum"]
        rests_on = [n for r in entry.rulings for n in r.rules]
        rests_on += [n for t, _ in entry.keywords for n in t.rules]
        rests_on += [n for t in entry.terms for n in t.rules]
        entry.clauses = [n for n in dict.fromkeys(rests_on) if records.clause(n) is not None]
        cards.append(entry)
    return cards


def touched(records: GameRecords, cards: list[tuple[str, list[str]]]) -> list[ClauseEntry]:
    """The clauses any of `cards` (name, the clauses it rests on) rests on, in rulebook order,
    each with the names of those cards and the project's rulings under it."""
    touching: dict[str, list[str]] = {}
    for name, numbers in cards:
        for number in numbers:
            touching.setdefault(number, []).append(name)
    order = {c.number: i for i, c in enumerate(records.clauses)}
    rulings_under: dict[str, list[Clause]] = {}
    for c in records.clauses:
        if c.ruling:
            rulings_under.setdefault(c.parent, []).append(c)
    return [ClauseEntry(records.clause(number), touching[number], rulings_under.get(number, []))
            for number in sorted(touching, key=order.__getitem__)]


def _naming(term: Term) -> re.Pattern:
    names = [term.term, *term.aliases]
    return re.compile(r"\b(" + "|".join(re.escape(n) for n in names) + r")\b", re.I)


def as_data(found: DeckRulings, urls) -> dict:
    """The rulings as JSON-ready data, each thing with its page on the site (`urls`: the
    game's `GameUrls`)."""
    return {"cards": [card_data(e, urls) for e in found.cards],
            "clauses": [clause_data(c, urls) for c in found.clauses]}


def card_data(e: CardEntry, urls) -> dict:
    return {
        "name": e.card.name, "slug": e.card.slug, "count": e.count,
        "url": urls.card(e.card.slug),
        "keywords": [{"term": t.term, "printed": printed, "url": urls.term(t.slug)}
                     for t, printed in e.keywords],
        "terms": [{"term": t.term, "url": urls.term(t.slug)} for t in e.terms],
        "rulings": [{"date": r.date, "source": r.source, "text": plain(r.text),
                     "rules": r.rules} for r in e.rulings],
        "errata": [vars(x) for x in e.errata],
        "clauses": e.clauses,
    }


def clause_data(c: ClauseEntry, urls) -> dict:
    return {"number": c.clause.number, "title": c.clause.title,
            "text": plain(c.clause.text).replace("**", ""),
            "url": urls.clause_permalink(c.clause.number), "cards": c.cards,
            "rulings": [{"number": r.number, "text": plain(r.text).replace("**", ""),
                         "url": urls.clause_permalink(r.number)} for r in c.rulings]}
