"""Every page of the site: which template, with what, at which path.

Card and ruling pages (the many) carry a key of what they are made from, so a rebuild skips
the ones whose inputs did not change. The other pages are few and always rendered.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import jinja2
from markupsafe import Markup

from charnel import __version__
from charnel.example_view import ExampleView, view
from charnel.records import CardBase, Example, Term
from charnel.site import deck, syntax, urls
from charnel.site.links import Linker
from charnel.site.model import SiteModel


@dataclass
class Page:
    url: str
    template: str
    context: dict[str, Any] | Callable[[], dict[str, Any]]  # a callable is made on render
    key: str | None = None  # inputs of a skippable page; None: always render

    def values(self) -> dict[str, Any]:
        return self.context() if callable(self.context) else self.context

    @property
    def path(self) -> str:
        return urls.file_for(self.url)


RULINGS_PER_PAGE = 200


class Pages:
    def __init__(self, model: SiteModel, code_hash: str, env: jinja2.Environment,
                 rows: dict[str, list[str]] | None = None):
        self.model = model
        self.env = env
        self.linker = Linker(model)
        self.shared_key = self._shared_key(code_hash)
        self.columns = model.number_columns
        self._keys: dict[str, str] = {}
        self.previous_rows = rows or {}  # slug -> [card key, row HTML] from the last build
        self.rows: dict[str, list[str]] = {}
        # (card slug, ruling index) -> the ruling as HTML, from the card pages rendered in this
        # build: the rulings pages and the home page show the same rulings
        self.ruling_html: dict[tuple[str, int], str] = {}

    def _shared_key(self, code_hash: str) -> str:
        """What every card page depends on besides its own card: glossary, clause and example
        places, the game's sets and values, the templates and charnel itself."""
        m = self.model
        data = {
            "version": __version__,
            "templates and code": code_hash,
            "info": m.info.model_dump(mode="json"),
            "terms": [(t.model_dump(mode="json"), lore) for t, lore in m.terms],
            "clauses": [(c.number, c.section, c.level) for c in m.records.clauses],
            "sections": [(s.number, s.slug) for s in m.sections],
            "examples": sorted((e.id, e.owner_kind, e.owner, e.title) for e in m.records.examples),
            "outcomes": sorted((o.example, o.passed) for o in m.outcomes if o.card is None),
        }
        return _digest(data)

    # --- cards ------------------------------------------------------------------------------

    def card_key(self, card: CardBase) -> str:
        """Everything a card's page is made from: its record, its example results, and the
        shared key."""
        slug = card.slug
        key = self._keys.get(slug)
        if key is None:
            # the bytes it was loaded from (charnel's code is in the shared key), else the record
            source = (card.source_hash or card.model_dump_json()).encode()
            outcomes = [(o.example, o.passed, o.message) for o in m_outcomes(self.model, card)]
            # repr of str/bool/None tuples is exact and stable, and cheaper than JSON here
            head = repr((self.shared_key, slug, card.set_code, outcomes)).encode()
            key = self._keys[slug] = hashlib.sha256(
                head + b"\0" + source
            ).hexdigest()[:32]
        return key

    def card(self, card: CardBase) -> Page:
        m = self.model
        keyword_uses = m.keywords_of(card)
        facts = []
        for facet, value in m.facet_values(card):
            if value is not None:
                href = urls.card_list(facet.name, value.id)
                facts.append((facet.label, value.name, href, value.color, False))
        for name, value in m.card_row(card).items():
            if not _readable(value) or name in {f.name for f in m.facets}:
                continue
            shown = ("yes" if value else "no") if isinstance(value, bool) else str(value)
            shown = shown.replace(",", ", ") if name.endswith("s") else shown
            # words (a subtype, triggers) are searched; facets are search filters instead
            searched = isinstance(value, str) and not value.isdigit()
            facts.append((name.replace("_", " ").capitalize(), shown, None, None, searched))
        verified = []
        for outcome in m_outcomes(m, card):
            example = m.example_by_id.get(outcome.example)
            verified.append({
                "title": example.title if example else outcome.example,
                "url": m.example_url(outcome.example),
                "passed": outcome.passed,
                "message": outcome.message,
                "cites": [c for c in ([example.owner] if example and example.owner_kind == "rule"
                                      else [])],
            })
        own = [_example(m, e) for e in m.examples_by_owner.get(("card", card.slug), [])]
        rulings = [
            {"index": i, "ruling": r, "html": self.linker.html(r.text),
             "rules": [(n, m.clause_url(n)) for n in r.rules]}
            for i, r in enumerate(card.rulings, start=1)
        ]
        context = {
            "card": card,
            "title": card.name,
            "color": m.card_color(card),
            "text_html": self.linker.card_text(
                card.text, {u.text: u.keyword for u in keyword_uses}
            ),
            "flavor": card.flavor,
            "facts": facts,
            "keywords": [(u, urls.term(u.keyword)) for u in keyword_uses],
            "verified": verified,
            "passed": sum(1 for v in verified if v["passed"]),
            "examples": own,
            "rulings": rulings,
            "alt": card_alt(m, card),
            "datasette": urls.datasette_row(m.info.id, card.slug),
            "filters": self.card_filters(card),
        }
        return Page(urls.card(card.slug), "card.html", context, self.card_key(card))

    def card_filters(self, card: CardBase) -> list[tuple[str, str]]:
        """Search filters of a card: (filter, value) pairs, in a fixed order."""
        m = self.model
        pairs = [("kind", "card")]
        for facet, value in m.facet_values(card):
            if value is not None:
                pairs.append((facet.name, value.name))
        for slug in sorted({u.keyword for u in m.keywords_of(card)}):
            term = m.term_by_slug.get(slug)
            pairs.append(("keyword", term.term if term else slug))
        return pairs

    def card_rows(self, cards: list[CardBase]) -> Markup:
        """The card-list rows of `cards`, each rendered once per build and reused by every list."""
        row_of = self.row_of
        return Markup("".join([row_of[card.slug][1] for card in cards]))

    def rows_key(self, cards: list[CardBase]) -> str:
        """A hash of the rows of `cards`, from each row's own hash: a page listing cards is
        keyed by it without joining its rows."""
        row_of = self.row_of
        return hashlib.sha256(
            "".join([row_of[card.slug][2] for card in cards]).encode()
        ).hexdigest()

    @functools.cached_property
    def row_of(self) -> dict[str, list[str]]:
        """Every card's [key, row, row hash] by slug (after the card pages: theirs come from
        rendering)."""
        return {card.slug: self.row(card) for card in self.model.cards}

    def row(self, card: CardBase) -> list[str]:
        """[card key, list row HTML, hash of the row]: the last build's while the card's key
        is the same."""
        key = self.card_key(card)
        entry = self.rows.get(card.slug) or self.previous_rows.get(card.slug)
        if entry is not None and entry[0] == key and len(entry) == 3:
            self.rows[card.slug] = entry
            return entry
        m = self.model
        row = m.card_row(card)
        numbers = [v if isinstance(v := row.get(c), int) and not isinstance(v, bool) else ""
                   for c in self.columns]
        html = self.env.get_template("card_row.html").render(
            card=card, url=urls.card(card.slug), color=m.card_color(card),
            facet_values=m.facet_values(card), columns=self.columns, numbers=numbers,
        )
        entry = self.rows[card.slug] = [key, html, hashlib.sha256(html.encode()).hexdigest()[:16]]
        return entry

    def card_lists(self) -> Iterator[Page]:
        m = self.model
        yield self._card_list(urls.CARDS, "Cards", m.cards,
                              f"All {len(m.cards)} cards of {m.info.title}.", None)
        for facet in m.facets:
            by_value: dict[str | None, list[CardBase]] = {}
            for card in m.cards:  # one pass per facet, not one per value
                by_value.setdefault(facet.value(card), []).append(card)
            for value in facet.values:
                cards = by_value.get(value.id, [])
                yield self._card_list(
                    urls.card_list(facet.name, value.id), f"{value.name} cards", cards,
                    f"{len(cards)} cards with {facet.label.lower()} {value.name}.", value.color,
                )

    def _card_list(self, url: str, title: str, cards: list[CardBase], lead: str,
                   color: str | None) -> Page:
        """A card list, keyed by its rows: a card edit that leaves every row as it was (a
        flavor text, a ruling) does not render the list again."""
        m = self.model
        key = _digest([self.shared_key, url, title, lead, color, self.columns,
                       self.rows_key(cards)])
        return Page(url, "card_list.html", lambda: {
            "title": title, "rows": self.card_rows(cards), "facets": m.facets,
            "columns": self.columns, "lead": lead, "nav_facets": m.facets, "color": color,
        }, key)

    # --- rules ------------------------------------------------------------------------------

    def rules(self) -> Iterator[Page]:
        m = self.model
        yield Page(urls.RULES, "rules_index.html", {
            "title": "Rules", "printed": m.printed, "sections": [
                (s, [c for c in m.clauses_by_section.get(s.number, []) if c.level == 1])
                for s in m.sections
            ],
        })
        for i, section in enumerate(m.sections):
            prev = m.sections[i - 1] if i else None
            after = m.sections[i + 1] if i + 1 < len(m.sections) else None
            owned = m.clauses_by_section.get(section.number, [])
            shown = [e for c in owned for e in m.examples_by_owner.get(("rule", c.number), [])]
            key = _digest([
                # section and clause reprs (via default=str) hold every field
                self.shared_key, section, owned,
                [(e.id, e.title, e.body, _status(m, e.id),
                  getattr(m.outcome_of_example.get(e.id), "message", "")) for e in shown],
                [(s.number, s.title, s.slug) for s in (prev, after) if s],
            ])
            yield Page(urls.section(section.slug), "section.html",
                       functools.partial(self._section_page, section, owned, prev, after), key)
            for clause in m.clauses_by_section.get(section.number, []):
                key = _digest([self.shared_key, clause.number, clause.title, clause.text,
                               section.title, section.intro])
                yield Page(urls.clause_permalink(clause.number), "redirect.html",
                           functools.partial(self._clause_page, section, clause), key)

    def _section_page(self, section, owned, prev, after) -> dict[str, Any]:
        m = self.model
        clauses = [{
            "clause": clause,
            "html": self.linker.html(clause.text) if clause.level else "",
            "examples": [_example(m, e)
                         for e in m.examples_by_owner.get(("rule", clause.number), [])],
        } for clause in owned]
        return {"title": f"{section.number}. {section.title}", "section": section,
                "intro": self.linker.html(section.intro), "clauses": clauses,
                "prev": prev, "next": after}

    def _clause_page(self, section, clause) -> dict[str, Any]:
        return {
            "title": f"Rule {clause.number}",
            "kind": "rule",
            "heading": f"{clause.number} {clause.title}".strip(),
            "target": self.model.clause_url(clause.number),
            "context_title": f"{section.number}. {section.title}",
            "html": self.linker.html(clause.text or section.intro),
        }

    # --- glossary and keywords ----------------------------------------------------------------

    def glossary(self) -> Iterator[Page]:
        m = self.model
        yield Page(urls.GLOSSARY, "glossary_index.html", {
            "title": "Glossary",
            "terms": [(t, lore, self.linker.html(t.definition, inline=True))
                      for t, lore in m.terms],
        })
        yield Page(urls.KEYWORDS, "keywords.html", {
            "title": "Keywords",
            "keywords": [(t, len(m.cards_by_keyword.get(t.slug, []))) for t in m.keywords],
        })
        for term, lore in m.terms:
            shown = [e for e in m.records.examples
                     if (e.owner_kind == "rule" and e.owner in term.rules)
                     or e.body.get("keyword") == term.slug
                     or (e.owner_kind == "term" and e.owner == term.slug)]
            cards = m.cards_by_keyword.get(term.slug, [])
            key = _digest([
                # a term page changes with its term, its clauses and examples, and its cards' rows
                self.shared_key, term.model_dump(mode="json"), lore,
                [m.records.clause(n) for n in term.rules],
                [(e.id, e.title, _status(m, e.id)) for e in shown],
                self.rows_key(cards),
            ])
            yield Page(urls.term(term.slug), "term.html",
                       functools.partial(self._term_page, term, lore, shown, cards), key)

    def _term_page(self, term: Term, lore: bool, shown: list, cards: list[CardBase]) -> dict:
        m = self.model
        return {
            "title": term.term, "term": term, "lore": lore,
            "definition": self.linker.html(term.definition),
            "clauses": [
                {"number": n, "url": m.clause_url(n), "clause": m.records.clause(n),
                 "html": self.linker.html(m.records.clause(n).text, inline=False)
                 if m.records.clause(n) else ""}
                for n in term.rules
            ],
            "see": [(s, m.term_by_slug.get(s)) for s in term.see],
            "examples": [
                {"id": e.id, "title": e.title, "url": m.example_url(e.id),
                 "status": _status(m, e.id)} for e in shown
            ],
            "cards": self.card_rows(cards),
            "card_count": len(cards),
            "facets": m.facets, "columns": self.columns,
            "filters": [("kind", "term")] + ([("keyword", term.term)] if term.keyword else []),
        }

    # --- rulings ----------------------------------------------------------------------------

    def rulings(self) -> Iterator[Page]:
        """The rulings, newest first, RULINGS_PER_PAGE to a page; each ruling is a heading
        with an anchor, so search finds the ruling itself and not only its page."""
        m = self.model
        chunks = [m.rulings[i:i + RULINGS_PER_PAGE]
                  for i in range(0, len(m.rulings), RULINGS_PER_PAGE)] or [[]]
        pages = [(n, urls.rulings_page(n)) for n in range(1, len(chunks) + 1)]
        for number, chunk in enumerate(chunks, start=1):
            key = _digest([self.shared_key, len(chunks), [
                (e.card.slug, e.card.name, e.index, vars(e.ruling))  # every field, cheaply
                for e in chunk
            ]])
            yield Page(urls.rulings_page(number), "rulings.html",
                       functools.partial(self._rulings_page, chunk, number, pages), key)

    def _rulings_page(self, chunk, number: int, pages) -> dict[str, Any]:
        m = self.model
        entries = [
            {"entry": e, "id": f"{e.card.slug}-{e.index}", "html": self._ruling_html(e),
             "rules": [(n, m.clause_url(n)) for n in e.ruling.rules]}
            for e in chunk
        ]
        return {"title": "Rulings" if number == 1 else f"Rulings, page {number}",
                "entries": entries, "number": number, "pages": pages}

    def _ruling_html(self, entry) -> str:
        found = self.ruling_html.get((entry.card.slug, entry.index))
        return self.linker.html(entry.ruling.text) if found is None else found

    # --- the rest ---------------------------------------------------------------------------

    def home(self) -> Page:
        m = self.model
        r = m.records
        counts = [
            ("cards", len(r.cards), urls.CARDS),
            ("rules", len(r.clauses), urls.RULES),
            ("glossary terms", len(m.terms), urls.GLOSSARY),
            ("keywords", len(m.keywords), urls.KEYWORDS),
            ("rulings", len(m.rulings), urls.RULINGS),
            ("examples", len(r.examples), urls.RULES),
        ]
        newest = [
            {"entry": e, "html": self._ruling_html(e)} for e in m.rulings[:6]
        ]
        return Page(urls.HOME, "home.html", {"title": m.info.title, "counts": counts,
                                             "newest": newest})

    def fixed(self) -> Iterator[Page]:
        yield Page(urls.ABOUT, "about.html", {"title": "About"})
        yield Page(urls.SEARCH, "search.html", {"title": "Search"})
        yield Page(urls.SEARCH + "syntax/", "syntax.html", lambda: {
            "title": "The search language", "body": syntax.html(),
        })
        if deck.has_page(self.model):
            yield Page(urls.DECK, "deck.html", {
                "title": "Check a deck", "rules": deck.rules_text(self.model),
                "pool_url": urls.DECK_POOL, "script_url": f"{urls.ASSETS}deck.js",
            })
        yield Page("/404.html", "404.html", {"title": "Not found"})


def m_outcomes(model: SiteModel, card: CardBase):
    return model.outcomes_by_card.get(card.slug, [])


def card_alt(model: SiteModel, card: CardBase) -> str:
    """What the drawn card face shows, in words, for readers who cannot see it."""
    parts = [f"Card face of {card.name}"]
    for facet, value in model.facet_values(card):
        if facet.name in ("set", "rarity"):
            continue
        if value is not None:
            parts.append(f"{facet.label.lower()} {value.name}")
    if card.cost is not None:
        parts.append(f"cost {card.cost}")
    facet_names = {f.name for f in model.facets}
    for key, value in model.card_row(card).items():
        if key in facet_names or not _readable(value) or isinstance(value, bool):
            continue
        parts.append(f"{key.replace('_', ' ')} {value}")
    if card.text:
        parts.append(f"text: {card.text}")
    return ", ".join(parts)


def _readable(value: Any) -> bool:
    """A card column worth showing a reader: not empty, and not an engine encoding (JSON)."""
    if value is None or value == "":
        return False
    return not (isinstance(value, str) and value[:1] in "[{")


def _example(model: SiteModel, example: Example) -> ExampleView:
    outcome = model.outcome_of_example.get(example.id)
    return view(example, model.game, model.records, outcome)


def _status(model: SiteModel, example_id: str) -> str:
    outcome = model.outcome_of_example.get(example_id)
    return "not run" if outcome is None else ("pass" if outcome.passed else "fail")


def _digest(data: Any) -> str:
    """A key of `data`: records, lists, tuples, dicts and plain values, by their repr (exact
    and stable for all of them, and much cheaper than JSON). Two equal dicts built in another
    order get another key: a needless render at worst, never a stale page."""
    return hashlib.sha256(repr(data).encode("utf-8")).hexdigest()[:32]
