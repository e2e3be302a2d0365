"""Every page of a game's site: which template, with what, at which path.

A page that can be skipped is made by `Pages._page(url, template, make, *inputs)`: its
content is `make(*inputs)` and its key a digest of the same inputs (with the shared key of
what every page depends on), so whatever a page shows comes in through its inputs and cannot
be left out of its key. A rebuild skips the pages whose key is unchanged. The few pages that
list everything (indexes, the home) are rendered every time (`_fixed`).
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import jinja2
from markupsafe import Markup

from charnel import __version__
from charnel.example_view import ExampleView, view
from charnel.query import field_table
from charnel.records import STACKING_WORDS, CardBase, Clause, Example, Section, Term
from charnel.site import cardfile, deck, syntax, urls
from charnel.site.history import HistoryPages
from charnel.site.links import Linker
from charnel.site.model import RulingEntry, SiteModel


@dataclass
class Page:
    url: str
    template: str
    context: dict[str, Any] | Callable[[], dict[str, Any]]  # a callable is made on render
    key: str | None = None  # inputs of a skippable page; None: always render
    prefix: str = ""  # the URL of the folder the page is written under: its game's
    # the page hosts the search box and carries the search's reading (which bundles, which
    # ids hidden) inline, saving the reader a request: rendered once the index is made
    carries_search: bool = False

    def values(self) -> dict[str, Any]:
        return self.context() if callable(self.context) else self.context

    @property
    def path(self) -> str:
        return urls.file_for(self.url[len(self.prefix):])


RULINGS_PER_PAGE = 200


@dataclass
class _Kept:
    """What one build of a game's pages made in this process (`charnel serve --watch`), for
    the next build under the same shared key: a page whose inputs are the same is not keyed
    again, and the card lists are not grouped again while no card's facet values changed."""

    cards: dict[str, tuple[tuple | None, str]] = field(default_factory=dict)  # slug -> inputs, key
    pages: dict[str, tuple[Any, str]] = field(default_factory=dict)  # URL -> inputs, key
    # the card keys in the lists' order, each card's values of each facet, and each facet's
    # {value: the places of its cards}
    groups: tuple[list[str], list[tuple], list[dict[str, list[int]]]] | None = None
    # the cards in the lists' order, and the neighbours found of them
    neighbours: tuple[list[CardBase], dict] | None = None


# (game, cards' URL) -> (shared key, what the last pages made under it kept)
_KEPT: dict[tuple[str, str], tuple[str, _Kept]] = {}


class Pages:
    def __init__(self, model: SiteModel, code_hash: str, env: jinja2.Environment,
                 rows: dict[str, list[str]] | None = None):
        self.model = model
        self.urls = model.urls
        self.env = env
        self.linker = Linker(model)
        self.history = HistoryPages(model, self.linker.html)
        env.filters["link_rules"] = self.history.link_rules
        self.shared_key = self._shared_key(code_hash)
        self.columns = model.number_columns
        self._keys: dict[str, str] = {}
        # what the last build of these pages in this process kept under the same shared key,
        # and what this one keeps for the next
        memory = (model.info.id, self.urls.CARDS)
        last = _KEPT.get(memory)
        self._last = last[1] if last is not None and last[0] == self.shared_key else _Kept()
        self._made = _Kept()
        _KEPT[memory] = (self.shared_key, self._made)
        self.previous_rows = rows or {}  # slug -> [card key, row HTML] from the last build
        self.rows: dict[str, list[str]] = {}
        # (card slug, ruling index) -> the ruling as HTML, from the card pages rendered in this
        # build: the rulings pages and the home page show the same rulings
        self.ruling_html: dict[tuple[str, int], str] = {}

    def _page(self, url: str, template: str, make: Callable[..., dict[str, Any]],
              *inputs: Any) -> Page:
        """A page filled by `make(*inputs)`, keyed by those inputs; `make` reads nothing of
        its own besides what the shared key holds (glossary, clause places, the game's values,
        templates and code)."""
        return Page(url, template, functools.partial(make, *inputs),
                    self._key(url, template, inputs), self.urls.prefix)

    def _key(self, url: str, template: str, inputs: tuple) -> str:
        """The digest of the inputs; the last build's key of the page when its inputs were
        the same (`_same`), which is not digesting them again."""
        same = (template, _same(inputs))
        last = self._last.pages.get(url)
        if last is not None and last[0] == same:
            key = last[1]
        else:
            key = _digest([self.shared_key, url, template, [_identity(i) for i in inputs]])
        self._made.pages[url] = (same, key)
        return key

    def _fixed(self, url: str, template: str, context: dict[str, Any], *,
               carries_search: bool = False) -> Page:
        """A page rendered in every build: one of the few that list everything."""
        return Page(url, template, context, None, self.urls.prefix, carries_search)

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
        """The key of the card's page (see `card`), found before any page is rendered."""
        slug = card.slug
        key = self._keys.get(slug)
        if key is None:
            card, runs, around, errata = self._card_inputs(card)
            # a card of the same identity, results and neighbours under the same shared key
            # as in the last build of this process has the key it had (errata are rare:
            # digested)
            same = (_identity(card), runs, around) if not errata else None
            last = self._last.cards.get(slug)
            if same is not None and last is not None and last[0] == same:
                key = last[1]
            else:
                # `_key` of the same inputs, but for the tuples of plain values (runs,
                # around), which are their own identity
                key = _digest([self.shared_key, self.urls.card(slug), "card.html",
                               [_identity(card), runs, around, _identity(errata)]])
            self._keys[slug] = key
            self._made.cards[slug] = (same, key)
        return key

    def _card_inputs(self, card: CardBase) -> tuple:
        """A card page is made from its card, the results of running it, and the names of the
        cards before and after it in its group (it links them)."""
        runs = self.runs.get(card.slug, ())
        around = self.neighbours[card.slug]
        return card, runs, around, self.history.errata(card)

    @functools.cached_property
    def runs(self) -> dict[str, tuple[tuple[str, bool, str], ...]]:
        """Each card's results (example, passed, message), by slug, in one pass."""
        return {slug: tuple([(o.example, o.passed, o.message) for o in found])
                for slug, found in self.model.outcomes_by_card.items()}

    @functools.cached_property
    def neighbours(self) -> dict[str, tuple[cardfile.Named | None, cardfile.Named | None]]:
        """Each card's previous and next in its group (slug, name), as the lists order them:
        the last build's while every card has the group, slug and name it had in its place
        (only the cards that are other objects than the last build's are read: the loader
        gives the records of unchanged files back as they were)."""
        cards = self.model.cards
        last = self._last.neighbours
        if last is not None and len(last[0]) == len(cards):
            changed = [i for i, (card, was) in enumerate(zip(cards, last[0], strict=True))
                       if card is not was]
            if all(_named(cards[i]) == _named(last[0][i]) for i in changed):
                self._made.neighbours = (list(cards), last[1])
                return last[1]
        found = cardfile.neighbours(cards)
        self._made.neighbours = (list(cards), found)
        return found

    def card(self, card: CardBase) -> Page:
        """A card's page, made from its inputs and keyed by them (`card_key`)."""
        return Page(self.urls.card(card.slug), "card.html",
                    functools.partial(self._card_page, *self._card_inputs(card)),
                    self.card_key(card), self.urls.prefix)

    def _card_page(self, card: CardBase, runs: tuple, around: tuple,
                   errata: list) -> dict[str, Any]:
        m = self.model
        keyword_uses = m.keywords_of(card)
        facts = []
        printed = {u.text: u.keyword for u in keyword_uses}
        type_name, group_name = card.type, card.set_code
        for facet, values in m.facet_values(card):
            for value in values:
                href = self.urls.card_list(facet.name, value.id)
                facts.append((facet.label, value.name, href, value.color, False))
                if facet.name == "type":
                    type_name = value.name
                if facet.name == m.info.group:
                    group_name = value.name
        for name, value in m.card_row(card).items():
            if not _readable(value) or name in m.shown_apart:
                continue
            shown = ("yes" if value else "no") if isinstance(value, bool) else str(value)
            shown = shown.replace(",", ", ") if name.endswith("s") else shown
            if name in m.game.full_text:  # words of the card: its terms and rules link
                shown = Markup(self.linker.card_text(shown, printed))
            # words (a kind, a timing) are searched; facets are search filters instead
            searched = isinstance(value, str) and not value.isdigit()
            facts.append((name.replace("_", " ").capitalize(), shown, None, None, searched))
        # the template unpacks these tuples: a dict's items are looked up as attributes
        # first, each a caught AttributeError, a tenth of the card template's time
        verified = []  # (title, url, passed, message, clauses it cites)
        for example_id, passed, message in runs:
            example = m.example_by_id.get(example_id)
            verified.append((
                example.title if example else example_id,
                m.example_url(example_id),
                passed,
                message,
                [example.owner] if example and example.owner_kind == "rule" else [],
            ))
        own = [_example(m, e) for e in m.examples_by_owner.get(("card", card.slug), [])]
        rulings = [  # (index, ruling, its HTML, (clause, href) of each it cites)
            (i, r, self.linker.html(r.text), [(n, m.clause_url(n)) for n in r.rules])
            for i, r in enumerate(card.rulings, start=1)
        ]
        return {
            "card": card,
            "title": card.name,
            "color": m.card_color(card),
            "text_html": self.linker.card_text(card.text, printed),
            "flavor": card.flavor,
            "facts": facts,
            "keywords": [(u, self.urls.term(u.keyword)) for u in keyword_uses],
            "verified": verified,
            "passed": sum(1 for v in verified if v[2]),
            "examples": own,
            "rulings": rulings,
            "alt": card_alt(m, card),
            "datasette": self.urls.datasette_row(card.slug),
            "description": cardfile.summary(card, type_name),
            "previous": cardfile.link(around[0]),
            "next": cardfile.link(around[1]),
            "group_name": group_name,
            "json": cardfile.JSON_NAME,
            "game_links": [(label, f"{self.urls.prefix}/{path}")
                           for label, path in m.game.card_links(card)],
            "cost": _cost(m, card),
            "cost_label": m.cost.label if m.cost else None, "numbered": m.ordinal is not None,
            "ordinal": getattr(card, m.ordinal) if m.ordinal else None,
            "filters": self.card_filters(card),
            "errata": errata,
        }

    def card_filters(self, card: CardBase) -> list[tuple[str, str]]:
        """Search filters of a card: (filter, value) pairs, in a fixed order."""
        m = self.model
        pairs = [("kind", "card")]
        for facet, values in m.facet_values(card):
            pairs.extend((facet.name, value.name) for value in values)
        for slug in sorted({u.keyword for u in m.keywords_of(card)}):
            term = m.term_by_slug.get(slug)
            pairs.append(("keyword", term.term if term else slug))
        return pairs

    def card_rows(self, cards: list[CardBase]) -> Markup:
        """The card-list rows of `cards`, each rendered once per build and reused by every list."""
        row_of = self.row_of
        return Markup("".join([row_of[card.slug][1] for card in cards]))

    def row_hashes(self, cards: list[CardBase]) -> list[str]:
        """The hash of each card's list row."""
        row_of = self.row_of
        return [row_of[card.slug][2] for card in cards]

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
        cost = m.cost
        html = self.env.get_template("card_row.html").render(
            card=card, url=self.urls.card(card.slug), color=m.card_color(card),
            facet_values=m.facet_values(card), columns=self.columns, numbers=numbers,
            ordinal=getattr(card, m.ordinal) if m.ordinal else None, has_cost=cost is not None,
            cost=_cost(m, card), cost_value=row.get(f"{cost.name}_value") if cost else None,
            cost_label=cost.label if cost else "",
        )
        entry = self.rows[card.slug] = [key, html, hashlib.sha256(html.encode()).hexdigest()[:16]]
        return entry

    def card_lists(self) -> Iterator[Page]:
        m = self.model
        hashes = self.row_hashes(m.cards)  # found once; each list takes those of its cards
        yield self._card_list(self.urls.CARDS, "Cards", Rows(self, m.cards, hashes),
                              f"All {len(m.cards)} cards of {m.info.title}.", None)
        for facet, by_value in zip(m.facets, self._groups[:-1], strict=True):
            for value in facet.values:
                places = by_value.get(value.id, [])
                cards = [m.cards[i] for i in places]
                found = [hashes[i] for i in places]
                yield self._card_list(
                    self.urls.card_list(facet.name, value.id), f"{value.name} cards",
                    Rows(self, cards, found),
                    f"{len(cards)} cards with {facet.label.lower()} {value.name}.", value.color,
                )

    @functools.cached_property
    def cards_by_keyword(self) -> dict[str, list[CardBase]]:
        """The cards whose text has each keyword (term slug), in the lists' order."""
        cards = self.model.cards
        return {slug: [cards[i] for i in places] for slug, places in self._groups[-1].items()}

    @functools.cached_property
    def _groups(self) -> list[dict[str, list[int]]]:
        """Each facet's {value: the places of its cards in the lists' order}, then the same of
        the keywords of the cards' text: the last build's when the cards whose key changed
        since have the values and keywords they had in the same places."""
        m = self.model
        keys = [self._keys.get(card.slug) or self.card_key(card) for card in m.cards]
        last = self._last.groups
        if last is not None and len(last[0]) == len(keys):
            old_keys, values, groups = last
            values = list(values)
            for i, (key, old) in enumerate(zip(keys, old_keys, strict=True)):
                if key != old:
                    values[i] = self._grouped_by(m.cards[i])
                    if values[i] != last[1][i]:
                        break
            else:
                self._made.groups = (keys, values, groups)
                return groups
        values = [self._grouped_by(card) for card in m.cards]
        groups = [{} for _ in range(len(m.facets) + 1)]
        for i, of_card in enumerate(values):
            for by_value, value_ids in zip(groups, of_card, strict=True):
                for value_id in value_ids:
                    by_value.setdefault(value_id, []).append(i)
        self._made.groups = (keys, values, groups)
        return groups

    def _grouped_by(self, card: CardBase) -> tuple[tuple[str, ...], ...]:
        """The card's values of each facet, then the keywords of its text (term slugs)."""
        keywords = tuple(dict.fromkeys([k.keyword for k in self.model.keywords_of(card)]))
        return (*[facet.values_of(card) for facet in self.model.facets], keywords)

    def _card_list(self, url: str, title: str, rows: Rows, lead: str,
                   color: str | None) -> Page:
        """A card list, keyed by its rows: a card edit that leaves every row as it was (a
        flavor text, a ruling) does not render the list again."""
        return self._page(url, "card_list.html", self._card_list_page, title,
                          rows, lead, color, self.columns)

    def _card_list_page(self, title: str, rows: Rows, lead: str, color: str | None,
                        columns: list[str]) -> dict[str, Any]:
        m = self.model
        return {"title": title, "rows": rows.html(), "facets": m.facets, "columns": columns,
                "lead": lead, "nav_facets": m.facets, "color": color,
                "cost_label": m.cost.label if m.cost else None,
                "numbered": m.ordinal is not None}

    def warm(self) -> None:
        """Render each clause's text and each section's intro into the linker's memo: the
        clause permalinks, the sections and the term pages show the same texts, and pages
        rendered in processes forked after this share them (see `parallel.render_all`)."""
        for section in self.model.sections:
            self.linker.html(section.intro)
        for clause in self.model.records.clauses:
            if clause.text:
                self.linker.html(clause.text)

    # --- rules ------------------------------------------------------------------------------

    def rules(self) -> Iterator[Page]:
        m = self.model
        rulings = [c for c in m.records.clauses if c.ruling]
        yield self._fixed(self.urls.RULES, "rules_index.html", {
            "title": "Rules", "printed": m.printed, "pdfs_pending": m.pdfs_pending,
            "releases": [(r.version, self.urls.past_rules(r.version))
                         for r in self.history.history.releases],
            "rulings": len(rulings), "sections": [
                (s, [c for c in m.clauses_by_section.get(s.number, []) if c.level == 1])
                for s in m.sections
            ],
        })
        if rulings:
            yield Page(self.urls.RULE_RULINGS, "rule_rulings.html", functools.partial(
                self._rule_rulings_page, rulings), _digest([self.shared_key, rulings]),
                self.urls.prefix)
        for i, section in enumerate(m.sections):
            prev = m.sections[i - 1] if i else None
            after = m.sections[i + 1] if i + 1 < len(m.sections) else None
            owned = m.clauses_by_section.get(section.number, [])
            runs = self._runs(
                e for c in owned for e in m.examples_by_owner.get(("rule", c.number), [])
            )
            yield self._page(self.urls.section(section.slug), "section.html",
                             self._section_page, section, owned, prev, after, runs)
            for clause in owned:
                yield self._page(self.urls.clause_permalink(clause.number), "clause.html",
                                 self._clause_page, section, clause,
                                 self.history.clause(clause.number))
        for url, template, context, key in self.history.old_numbers(self.shared_key):
            yield Page(url, template, context, key, self.urls.prefix)

    def _runs(self, shown) -> tuple:
        """Examples a page shows, each with how it ran: (example, status, message)."""
        found = self.model.outcome_of_example
        return tuple((e, _status(self.model, e.id), getattr(found.get(e.id), "message", ""))
                     for e in shown)

    def _section_page(self, section, owned, prev, after, runs) -> dict[str, Any]:
        m = self.model
        clauses = [{
            "clause": clause,
            "html": self.linker.html(clause.text) if clause.level else "",
            "examples": [_example(m, e) for e, _, _ in runs
                         if e.owner_kind == "rule" and e.owner == clause.number],
        } for clause in owned]
        return {"title": f"{section.number}. {section.title}", "section": section,
                "intro": self.linker.html(section.intro), "clauses": clauses,
                "prev": prev, "next": after}

    def _rule_rulings_page(self, rulings) -> dict[str, Any]:
        """Every clause that decides what the rulebook leaves open, in rule order."""
        return {"title": "Rulings in the rules", "entries": [
            {"clause": c, "href": self.model.clause_url(c.number),
             "html": self.linker.html(c.text)} for c in rulings
        ]}

    def _clause_page(self, section, clause, history: dict[str, Any]) -> dict[str, Any]:
        return {
            "title": f"Rule {clause.number}",
            "kind": "rule",
            "heading": f"{clause.number} {clause.title}".strip(),
            "target": self.model.clause_url(clause.number),
            "context_title": f"{section.number}. {section.title}",
            "html": self.linker.html(clause.text or section.intro),
            **history,
        }

    # --- glossary and keywords ----------------------------------------------------------------

    def glossary(self) -> Iterator[Page]:
        m = self.model
        yield self._fixed(self.urls.GLOSSARY, "glossary_index.html", {
            "title": "Glossary",
            "terms": [(t, lore, self.linker.html(t.definition, inline=True))
                      for t, lore in m.terms],
        })
        if m.game.has_keywords:
            yield self._fixed(self.urls.KEYWORDS, "keywords.html", {
                "title": "Keywords",
                "keywords": [(t, len(self.cards_by_keyword.get(t.slug, []))) for t in m.keywords],
                "repeats": STACKING_WORDS,
            })
        rule, ability, owned = self._example_places
        examples = m.records.examples
        for term, lore in m.terms:
            # the examples of its clauses, of its ability, and its own, in the records' order
            at = {i for n in term.rules for i in rule.get(n, ())}
            at.update(ability.get(term.slug, ()), owned.get(term.slug, ()))
            shown = [examples[i] for i in sorted(at)]
            clauses = tuple((n, m.records.clause(n)) for n in term.rules)
            cards = Rows(self, self.cards_by_keyword.get(term.slug, []))
            # a term page changes with its term, its clauses and examples, and its cards' rows
            yield self._page(self.urls.term(term.slug), "term.html", self._term_page,
                             term, lore, clauses, self._runs(shown), cards)

    @functools.cached_property
    def _example_places(self) -> tuple[dict[str, list[int]], ...]:
        """Where each example is in the records, by the clause that owns it, the ability it
        shows and the term that owns it: one pass, not one per term."""
        rule: dict[str, list[int]] = {}
        ability: dict[str, list[int]] = {}
        owned: dict[str, list[int]] = {}
        for i, e in enumerate(self.model.records.examples):
            if e.owner_kind == "rule":
                rule.setdefault(e.owner, []).append(i)
            if e.owner_kind == "term":
                owned.setdefault(e.owner, []).append(i)
            shows = e.body.get("ability")
            if isinstance(shows, str):
                ability.setdefault(shows, []).append(i)
        return rule, ability, owned

    def _term_page(self, term: Term, lore: bool, clauses: tuple, runs: tuple,
                   cards: Rows) -> dict:
        m = self.model
        return {
            "title": term.term, "term": term, "lore": lore,
            "definition": self.linker.html(term.definition),
            "clauses": [
                {"number": n, "url": m.clause_url(n), "clause": clause,
                 "html": self.linker.html(clause.text, inline=False) if clause else ""}
                for n, clause in clauses
            ],
            "see": [(s, m.term_by_slug.get(s)) for s in term.see],
            "examples": [
                {"id": e.id, "title": e.title, "url": m.example_url(e.id), "status": status}
                for e, status, _ in runs
            ],
            "cards": cards.html(),
            "card_count": len(cards),
            "facets": m.facets, "columns": self.columns,
            "cost_label": m.cost.label if m.cost else None, "numbered": m.ordinal is not None,
            "filters": [("kind", "term")] + ([("keyword", term.term)] if term.keyword else []),
        }

    # --- rulings ----------------------------------------------------------------------------

    def rulings(self) -> Iterator[Page]:
        """The rulings, newest first, RULINGS_PER_PAGE to a page; each ruling is a heading
        with an anchor, so search finds the ruling itself and not only its page."""
        m = self.model
        chunks = [m.rulings[i:i + RULINGS_PER_PAGE]
                  for i in range(0, len(m.rulings), RULINGS_PER_PAGE)] or [[]]
        pages = [(n, self.urls.rulings_page(n)) for n in range(1, len(chunks) + 1)]
        for number, chunk in enumerate(chunks, start=1):
            yield self._page(self.urls.rulings_page(number), "rulings.html",
                             self._rulings_page, tuple(chunk), number, pages)

    def _rulings_page(self, chunk: tuple, number: int, pages: list) -> dict[str, Any]:
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
            ("cards", len(r.cards), self.urls.CARDS),
            ("rules", len(r.clauses), self.urls.RULES),
            ("glossary terms", len(m.terms), self.urls.GLOSSARY),
            *([("keywords", len(m.keywords), self.urls.KEYWORDS)] if m.game.has_keywords else []),
            ("rulings", len(m.rulings), self.urls.RULINGS),
            ("examples", len(r.examples), self.urls.RULES),
        ]
        newest = [
            {"entry": e, "html": self._ruling_html(e)} for e in m.rulings[:6]
        ]
        return self._fixed(self.urls.HOME, "home.html",
                           {"title": m.info.title, "counts": counts, "newest": newest},
                           carries_search=True)

    def fixed(self) -> Iterator[Page]:
        yield self._fixed(self.urls.ABOUT, "about.html", {"title": "About"})
        # search filters: what a result is, then the card facets in the game's order
        keyword = ["keyword"] if self.model.game.has_keywords else []
        order = " ".join(["kind", *(f.name for f in self.model.facets), *keyword])
        yield self._fixed(self.urls.SEARCH, "search.html",
                          {"title": "Search", "filter_order": order}, carries_search=True)
        yield self._fixed(self.urls.SEARCH + "syntax/", "syntax.html", {
            "title": "The search language",
            "body": syntax.html(syntax.game_document(self.model.game.docs_dir)),
            "fields": field_table(self.model.game.search_fields()),
            "queries": self.model.game.search_examples,
        })
        if deck.has_page(self.model):
            yield self._fixed(self.urls.DECK, "deck.html", {
                "title": "Check a deck", "rules": deck.rules_text(self.model),
                "pool_url": self.urls.DECK_POOL, "script_url": f"{self.urls.ASSETS}deck.js",
                "rulings_url": self.urls.DECK_RULINGS,
            })
        if self.model.game.has_engine:
            # keyed by what it offers: it lists every card, too long to render in every build
            yield self._page(self.urls.JUDGE, "judge.html", self._judge_page, self._starter(),
                             self._pickers())
        url, template, context, key = self.history.changelog(self.shared_key)
        yield Page(url, template, context, key, self.urls.prefix)
        for page in self.model.game_pages:
            yield self._fixed(f"{self.urls.prefix}/{page.path}", page.template,
                              {"title": page.title, **page.context})

    def _judge_page(self, starter: str, pickers: dict[str, list]) -> dict[str, Any]:
        return {"title": "Ask the judge", "run_url": f"{self.urls.JUDGE}run",
                "script_url": f"{self.urls.ASSETS}judge.js", "starter": starter, **pickers}

    def _pickers(self) -> dict[str, list]:
        """What the judge page's pickers insert into a position: the game's cards as examples
        write them (by slug, shown with the name), the parts of a position its engine reads,
        and its actions."""
        engine = self.model.game.engine(self.model.records)
        return {
            "cards": sorted({(c.name, c.slug) for c in self.model.records.cards}),
            "zones": sorted(engine.zones) if engine else [],
            "actions": sorted(engine.actions) if engine else [],
        }

    def _starter(self) -> str:
        """The judge page's example before a reader writes one: the rules' first example
        that passes and is drawn before and after (a position with actions)."""
        passed = {o.example for o in self.model.outcomes if o.card is None and o.passed}
        for example in self.model.records.examples:
            if example.owner_kind == "rule" and example.id in passed and example.body.get("when"):
                return example.source
        return ""


class Rows:
    """The card-list rows of some cards, as a page's input: its key is a hash of the rows'
    own hashes, and the rows are joined only when the page is rendered."""

    def __init__(self, pages: Pages, cards: list[CardBase], hashes: list[str] | None = None):
        self.pages = pages
        self.cards = cards
        self.hashes = hashes  # each row's hash (`Pages.row_hashes`), when found already

    def row_hashes(self) -> list[str]:
        return self.pages.row_hashes(self.cards) if self.hashes is None else self.hashes

    def __repr__(self) -> str:
        return f"Rows({hashlib.sha256(''.join(self.row_hashes()).encode()).hexdigest()})"

    def __len__(self) -> int:
        return len(self.cards)

    def html(self) -> Markup:
        return self.pages.card_rows(self.cards)


_PLAIN = frozenset({str, int, float, bool, type(None)})
# records whose == compares every field, each of a fixed type (no 1 == True), so that equal
# ones have the same repr
_SIMPLE = _PLAIN | {Clause, Section}
_NUMBERS = frozenset({int, float, bool})


def _same(value: Any) -> Any:
    """What a page input is compared by with the last build's (`Pages._key`): equal only when
    its `_identity` has the same repr, and cheaper to make and compare than that repr. The
    rules' records by their fields (by identity first, where a list or tuple compares them);
    an example by its source text, which its body is parsed from; a card by its identity; a
    card list by its rows' hashes; anything else by its repr."""
    kind = type(value)
    if kind in _SIMPLE:
        return value
    if kind is tuple or kind is list:
        kinds = set(map(type, value))
        if _SIMPLE.issuperset(kinds):  # a section's clauses, a page's numbers
            # 1, 1.0 and True are equal and written otherwise: numbers with their types
            return (tuple(map(type, value)), tuple(value)) if kinds & _NUMBERS else tuple(value)
        # rows of strings (the judge page's names and slugs: a row a card), whose equal values
        # have the same repr, compared as they are
        if kinds == {tuple} and {type(v) for row in value for v in row} <= {str}:
            return tuple(value)
        return tuple([_same(v) for v in value])
    if isinstance(value, CardBase):
        return _identity(value)
    if kind is Rows:
        return ("rows", value.row_hashes())
    if kind is RulingEntry:  # what it shows is all in its card's file
        return ("ruling", _identity(value.card), value.index)
    if kind is Example:
        return ("example", value.id, value.title, value.owner_kind, value.owner,
                value.source or repr(value.body))
    if kind is dict:
        return ("dict", tuple(value), _same(tuple(value.values())))
    return ("repr", kind, repr(value))


def _identity(value: Any) -> Any:
    """What a page input is keyed by: a card by the bytes it was loaded from (cheaper than its
    record, and as exact), an example by what it says (its repr names the object holding its
    text, by address), tuples and lists by their items, anything else by its repr."""
    if type(value) in _PLAIN:  # most inputs' items: checked first
        return value
    if isinstance(value, CardBase):
        return ("card", value.slug, value.set_code, value.source_hash or value.model_dump_json())
    if isinstance(value, Example):
        return ("example", value.id, value.title, value.owner_kind, value.owner, value.body)
    if isinstance(value, (tuple, list)):
        return [_identity(v) for v in value]
    return value


def _named(card: CardBase) -> tuple[str, str, str]:
    """What a card's neighbours show of it, and its group, which makes them its neighbours."""
    return card.set_code, card.slug, card.name


def card_alt(model: SiteModel, card: CardBase) -> str:
    """What the drawn card face shows, in words, for readers who cannot see it."""
    parts = [f"Card face of {card.name}"]
    for facet, values in model.facet_values(card):
        if facet.is_group:
            continue
        parts.extend(f"{facet.label.lower()} {value.name}" for value in values)
    cost = _cost(model, card)
    if cost is not None:
        parts.append(f"{model.cost.label.lower()} {cost}")
    for key, value in model.card_row(card).items():
        if key in model.shown_apart or not _readable(value) or isinstance(value, bool):
            continue
        parts.append(f"{key.replace('_', ' ')} {value}")
    if card.text:
        parts.append(f"text: {card.text}")
    return ", ".join(parts)


def _cost(model: SiteModel, card: CardBase) -> Any:
    """The card's cost as printed; None when it has none or the game has no cost."""
    return getattr(card, model.cost.name) if model.cost else None


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
