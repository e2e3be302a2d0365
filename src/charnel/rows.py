"""The rows of each table of a game database, one function per table.

Each function is registered under its table's name in `MADE` (`charnel.schema` gives each table
its columns, classes a database updated in place never needs) and returns the table's rows in
primary-key order, so the same sources give a byte-identical file. They read one `Source`:
the verified records, the example outcomes and the game, with what several tables share
(coverage, keyword use) worked out once.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from charnel import __version__, coverage, markdown
from charnel.game import Game
from charnel.history import rows as history_rows
from charnel.records import Outcome
from charnel.sources.rules_md import RULE_REF
from charnel.verify import Verified

Row = dict[str, Any]


def site_links(game: str) -> markdown.Resolver:
    """Links from a game's stored HTML to its pages on the site."""
    from charnel.site.urls import GameUrls

    pages = GameUrls(game)
    return lambda kind, target: (
        pages.clause_permalink(target) if kind == "rule" else pages.term(target)
    )


# Most card and ruling texts are plain sentences: no Markdown syntax, no rule numbers. They
# render to their escaped selves, so markdown-it (most of compile's time) is skipped for them.
# tests/test_compile_html.py holds the shortcut to the full renderer's output.
_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9 ,.;:'\"()+\-/?%=]*(?<! )")


def plain(text: str) -> bool:
    """Whether `text` is a plain sentence: no Markdown syntax, no rule numbers."""
    return bool(_PLAIN.fullmatch(text)) and not RULE_REF.search(text)


def html(
    text: str, resolve: markdown.Resolver = markdown._no_links, *, inline: bool = False
) -> str:
    """Markdown to HTML, as `markdown.render` does it, with a shortcut for plain text."""
    if plain(text):
        escaped = text.replace('"', "&quot;")
        return escaped if inline else f"<p>{escaped}</p>\n"
    return markdown.render(text, resolve, inline=inline)


@dataclass
class Source:
    """What the tables are made from."""

    verified: Verified
    outcomes: list[Outcome]
    game: Game
    known: dict[str, bool] = field(default_factory=dict)  # executable, of unchanged cards
    # Markdown -> stored HTML: `rendered` as the last build made it, `made` this build's
    rendered: dict[str, str] = field(default_factory=dict)
    made: dict[str, str] = field(default_factory=dict)

    @property
    def records(self):
        return self.verified.records

    @cached_property
    def _links(self) -> markdown.Resolver:
        return site_links(self.records.info.id)

    def render(self, text: str) -> str:
        """Authored Markdown as stored HTML, linking to the game's pages on the site. The HTML
        depends on the text and the game alone, so what the last build rendered is reused:
        the rulebook's clauses are rendered again on every build otherwise."""
        if plain(text):  # no links: the site's addresses are not needed
            return html(text)
        found = self.rendered.get(text)
        if not isinstance(found, str):
            found = html(text, self._links)
        self.made[text] = found
        return found

    @cached_property
    def executable(self) -> dict[str, bool]:
        """Card slug -> whether the engine runs all its text; `known` gives some already."""
        records, game, out = self.verified.records, self.game, {}
        for card in records.cards:
            known = self.known.get(card.slug)
            out[card.slug] = known if known is not None else coverage.CardCoverage(
                card.slug, card.name, game.text_parts(card, self.verified.card_text[card.slug])
            ).executable
        return out

    @cached_property
    def keyword_cards(self) -> dict[str, set[str]]:
        """Keyword slug -> the cards carrying it."""
        out: dict[str, set[str]] = {}
        for card in self.records.cards:
            for use in self.verified.card_text[card.slug].keywords:
                out.setdefault(use.keyword, set()).add(card.slug)
        return out

    @cached_property
    def terms(self) -> list[tuple[Any, bool]]:
        """(term, is lore) in glossary order."""
        glossary = self.records.glossary
        return [(t, False) for t in glossary.terms] + [(t, True) for t in glossary.lore]


def games(src: Source) -> list[Row]:
    info = src.records.info
    fields = ("id", "title", "publisher", "published", "rules_version", "rules_date",
              "rulebook", "description", "card_pool_note")
    return [{name: getattr(info, name) for name in fields}]


def enum_values(src: Source) -> list[Row]:
    return [
        {"enum": enum, "id": v.id, "name": v.name, "color": v.color, "symbol": v.symbol,
         "position": i}
        for enum, values in sorted(src.records.info.enums.items())
        for i, v in enumerate(values)
    ]


def card_types(src: Source) -> list[Row]:
    return [
        {"id": t.id, "name": t.name, "plural": t.plural, "position": i}
        for i, t in enumerate(src.records.info.card_types)
    ]


def sets(src: Source) -> list[Row]:
    counts: dict[str, int] = {}
    for card in src.records.cards:
        counts[card.set_code] = counts.get(card.set_code, 0) + 1
    return [
        {"code": s.code, "name": s.name, "released": s.released, "symbol": s.symbol,
         "description": s.description, "card_count": counts.get(s.code, 0)}
        for s in src.records.info.sets
    ]


def glossary_terms(src: Source) -> list[Row]:
    return sorted(
        (
            {"slug": t.slug, "term": t.term, "definition": t.definition,
             "definition_html": src.render(t.definition), "lore": lore,
             "keyword": t.keyword is not None, "rules": ",".join(t.rules),
             "aliases": ",".join(t.aliases), "position": i}
            for i, (t, lore) in enumerate(src.terms)
        ),
        key=lambda r: r["slug"],
    )


def keywords(src: Source) -> list[Row]:
    return sorted(
        (
            {"term": t.slug, "name": t.term, "syntax": t.keyword.syntax,
             "params": json.dumps(t.keyword.params, sort_keys=True),
             "stacking": t.keyword.stacking, "applies_to": t.keyword.applies_to,
             "card_count": len(src.keyword_cards.get(t.slug, ()))}
            for t in src.records.keywords
        ),
        key=lambda r: r["term"],
    )


def cards(src: Source) -> list[Row]:
    return sorted((row for card in src.records.cards for row in card_rows(src, card)),
                  key=lambda r: r["id"])


def card_rows(src: Source, card: Any) -> list[Row]:
    text = src.verified.card_text[card.slug]
    return [{
        "id": card.slug,
        "name": card.name,
        "set_code": card.set_code,
        "type": card.type,
        "text": card.text,
        "text_html": html(card.text, src._links, inline=True),
        "flavor": card.flavor,
        # a JSON array: Datasette facets on it and filters with keywords__arraycontains
        "keywords": json.dumps(sorted({u.keyword for u in text.keywords})),
        "executable": src.executable[card.slug],
        "effects": json.dumps(card.effects, sort_keys=True, ensure_ascii=False),
        "path": card.origin.path,
        **src.game.card_row(card),
    }]


def card_keywords(src: Source) -> list[Row]:
    return sorted((row for card in src.records.cards for row in card_keyword_rows(src, card)),
                  key=lambda r: (r["card_id"], r["position"]))


def card_keyword_rows(src: Source, card: Any) -> list[Row]:
    return [{"card_id": card.slug, "position": i, "keyword": use.keyword,
             "params": json.dumps(use.params, sort_keys=True), "text": use.text}
            for i, use in enumerate(src.verified.card_text[card.slug].keywords)]


def rulings(src: Source) -> list[Row]:
    return sorted((row for card in src.records.cards for row in ruling_rows(src, card)),
                  key=lambda r: r["id"])


def ruling_rows(src: Source, card: Any) -> list[Row]:
    return [{"id": f"{card.slug}-{i}", "card_id": card.slug, "date": r.date,
             "source": r.source, "text": r.text, "text_html": src.render(r.text),
             "rules": ",".join(r.rules)}
            for i, r in enumerate(card.rulings, start=1)]


# The tables with rows of one card each: (its rows, the column naming the card). An edit
# of a card changes its rows there, and the other tables' rows only through what they count.
PER_CARD = {
    "cards": (card_rows, "id"),
    "card_keywords": (card_keyword_rows, "card_id"),
    "rulings": (ruling_rows, "card_id"),
}


# What each table made across cards reads, so that an edit makes it again only when that
# changed (`charnel.database_update`): "pool", the sources that are not cards (the game's
# facts, glossary, rulebook and examples); "outcomes", every example run's outcome; and
# (table, columns...), the columns of the changed cards' rows in a `PER_CARD` table. A table
# not listed (`meta`, which holds the hash of every source, the history's, a game's own) is
# made on every build.
READS: dict[str, tuple] = {
    "games": ("pool",),
    "enum_values": ("pool",),
    "card_types": ("pool",),
    "sets": ("pool", ("cards", "set_code")),  # with as many cards: those added make it whole
    "glossary_terms": ("pool",),
    "keywords": ("pool", ("cards", "keywords")),
    "rule_sections": ("pool",),
    "rules": ("pool",),
    "rule_refs": ("pool", ("rulings", "id", "rules")),
    "examples": ("pool",),
    "example_results": ("outcomes",),
}


def rule_sections(src: Source) -> list[Row]:
    return sorted(
        (
            {"number": s.number, "title": s.title, "slug": s.slug, "intro": s.intro,
             "intro_html": src.render(s.intro), "path": s.path, "position": s.order}
            for s in src.records.sections
        ),
        key=lambda r: r["number"],
    )


def rules(src: Source) -> list[Row]:
    return sorted(
        (
            {"number": c.number, "parent": c.parent, "section": c.section, "level": c.level,
             "title": c.title, "text": c.text, "text_html": src.render(c.text), "pages": c.pages,
             "heading": c.heading, "ruling": c.ruling, "advanced": c.advanced,
             "position": c.order, "path": c.origin.path, "line": c.origin.line}
            for c in src.records.clauses
        ),
        key=lambda r: r["number"],
    )


def rule_refs(src: Source) -> list[Row]:
    """Every citation: of rulings, glossary terms, rules and examples."""
    records = src.records
    refs: set[tuple[str, str, str, str]] = set()  # each once, made rows when sorted
    for card in records.cards:
        for i, ruling in enumerate(card.rulings, start=1):
            refs.update(("ruling", f"{card.slug}-{i}", "rule", n) for n in ruling.rules)
    for t, _ in src.terms:
        refs.update(("term", t.slug, "rule", n) for n in t.rules)
    for c in records.clauses:
        refs.update(("rule", c.number, r.kind, r.target) for r in c.refs)
    for e in records.examples:
        refs.update(("example", e.id, "rule", n) for n in e.cites)
        if e.owner_kind == "rule":
            refs.add(("example", e.id, "rule", e.owner))
    return [_ref(*ref) for ref in sorted(refs)]


def examples(src: Source) -> list[Row]:
    return sorted(
        (
            {"id": e.id, "title": e.title, "owner_kind": e.owner_kind, "owner": e.owner,
             "body": json.dumps(e.body, sort_keys=True, ensure_ascii=False),
             "path": e.origin.path, "line": e.origin.line}
            for e in src.records.examples
        ),
        key=lambda r: r["id"],
    )


def example_results(src: Source) -> list[Row]:
    results = sorted(
        (
            {"example_id": o.example, "card_id": o.card, "passed": o.passed, "message": o.message}
            for o in src.outcomes
        ),
        key=lambda r: (r["card_id"] or "", r["example_id"]),
    )
    return [{"id": i, **r} for i, r in enumerate(results, start=1)]


def meta(src: Source) -> list[Row]:
    records = src.records
    executable, total = sum(src.executable.values()), len(src.executable)
    facts = {
        "game": records.info.id,
        "rules_version": records.info.rules_version,
        "rules_date": records.info.rules_date,
        "source_hash": records.source_hash,
        "charnel_version": __version__,
        "coverage": coverage.figure(executable, total),
        "cards_executable": str(executable),
        "cards_total": str(total),
    }
    return [{"key": k, "value": v} for k, v in sorted(facts.items())]


def _ref(source_kind: str, source_id: str, target_kind: str, target: str) -> dict[str, str]:
    return {
        "source_kind": source_kind,
        "source_id": source_id,
        "target_kind": target_kind,
        "target": target,
    }


# Every table's rows by the table's name, in the database's creation order.
MADE: dict[str, Callable[[Source], list[Row]]] = {
    "games": games,
    "enum_values": enum_values,
    "card_types": card_types,
    "sets": sets,
    "glossary_terms": glossary_terms,
    "keywords": keywords,
    "cards": cards,
    "card_keywords": card_keywords,
    "rulings": rulings,
    "rule_sections": rule_sections,
    "rules": rules,
    "rule_refs": rule_refs,
    "examples": examples,
    "example_results": example_results,
    "meta": meta,
    **history_rows.MADE,
}
