"""The three printed documents as template data, built from the verified records.

Every text comes from the records; nothing here knows which game it prints.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import escape

from markupsafe import Markup

from charnel import markdown
from charnel.example_view import ExampleView, view
from charnel.fields import CardField, ordinal
from charnel.game import Game
from charnel.printing.changes import what_changed
from charnel.printing.layout import AidSection, PrintLayout
from charnel.records import Clause, GameRecords, Outcome, Term, slugify
from charnel.verify import Verified

_HEX_COLOR = re.compile(r"^#[0-9a-fA-F]{3,8}$")
_SENTENCE = re.compile(r"^(.+?[.!?])(?=\s+[A-Z(«\"“]|$)", re.DOTALL)
_PARAM = re.compile(r"\{(\w+)\}")


def resolver(records: GameRecords) -> markdown.Resolver:
    """Rule and term references as links inside the document, or plain text when unknown."""
    terms = {t.slug: t.slug for t in records.glossary.terms}
    for t in records.glossary.terms:
        for alias in t.aliases:
            terms.setdefault(slugify(alias), t.slug)

    def resolve(kind: str, target: str) -> str | None:
        if kind == "rule":
            return f"#r-{target}" if records.clause(target) else None
        slug = terms.get(target)
        return f"#g-{slug}" if slug else None

    return resolve


@dataclass
class PrintClause:
    number: str
    level: int
    title: str
    html: Markup
    cite: str  # "p. 18", or "§ Blows" where the rulebook prints no page
    examples: list[ExampleView] = field(default_factory=list)


@dataclass
class PrintSection:
    number: str
    title: str
    clauses: list[PrintClause]  # the section's own clause first, then its rules in order

    @property
    def rules(self) -> list[PrintClause]:
        return [c for c in self.clauses if c.level == 1]


@dataclass
class GlossaryEntry:
    slug: str
    term: str
    definition: Markup
    rules: list[str]
    see: list[tuple[str, str]]  # (slug, shown) of terms that exist


@dataclass
class KeywordLine:
    slug: str
    syntax: Markup
    summary: Markup
    rule: str | None


def cite(clause) -> str:
    """How a clause names what it restates: its rulebook pages, or else its heading."""
    if clause.pages:
        return f"p. {clause.pages}"
    return f"§ {clause.heading}" if clause.heading else ""


def booklet(verified: Verified, outcomes: list[Outcome], game: Game) -> dict:
    records = verified.records
    resolve = resolver(records)
    examples_of: dict[str, list] = {}
    for example in records.examples:
        if example.owner_kind == "rule":
            examples_of.setdefault(example.owner, []).append(view(example, game, records))
    sections = []
    for section in records.sections:
        clauses = [
            PrintClause(
                c.number, c.level, c.title, Markup(markdown.render(c.text, resolve)), cite(c),
                examples_of.get(c.number, []),
            )
            for c in records.clauses
            if c.section == section.number
        ]
        sections.append(PrintSection(section.number, section.title, clauses))
    rule_runs = {o.example: o.passed for o in outcomes if o.card is None}
    return {
        "info": records.info,
        "sections": sections,
        "glossary": _glossary(records.glossary.terms, records, resolve),
        "lore": _glossary(records.glossary.lore, records, resolve),
        "keywords": keyword_lines(records),
        "examples_total": len(rule_runs),
        "examples_checked": sum(rule_runs.values()),
        "changes": what_changed(records),
    }


def player_aid(
    verified: Verified, parts: list[AidSection], game: Game | None = None,
    layout: PrintLayout | None = None,
) -> dict:
    records = verified.records
    return {
        "info": records.info,
        "figures": [(title, Markup(svg)) for title, svg in game.aid_figures()] if game else [],
        "tables": [_enum_table(records, name) for name in (layout.aid_tables if layout else [])],
        "parts": [(p.title, [_aid_line(c) for c in p.clauses]) for p in parts],
        "keywords": keyword_lines(records),
    }


def _enum_table(records: GameRecords, name: str) -> dict:
    """A list of values with their notes as columns (each note an enum value carries)."""
    values = records.info.enums.get(name, [])
    notes = list(dict.fromkeys(k for v in values for k in v.notes))
    return {
        "title": name.replace("_", " ").capitalize(),
        "columns": [n.replace("_", " ").capitalize() for n in notes],
        "rows": [(v.name, [v.notes.get(n, "") for n in notes]) for v in values],
    }


def checklists(verified: Verified, game: Game, layout: PrintLayout) -> dict[str, dict]:
    """One checklist per set that has cards, by set code: its number within the set (when the
    game has one), name, type, and the fields the game declares checklist columns."""
    records = verified.records
    info = records.info
    types = {t.id: t.name for t in info.card_types}
    shown = sorted((f for f in game.fields if f.checklist is not None), key=lambda f: f.checklist)
    number = ordinal(game.fields)
    out = {}
    for card_set in info.sets:
        cards = sorted(
            (c for c in records.cards if c.set_code == card_set.code),
            key=lambda c: (getattr(c, number.name), c.slug) if number else (c.name, c.slug),
        )
        if not cards:
            continue
        rows = []
        for card in cards:
            rows.append({
                "number": getattr(card, number.name) if number else None,
                "name": card.name,
                "type": types.get(card.type, card.type),
                "fields": [_field_value(info, f, getattr(card, f.name, None)) for f in shown],
                "text": card.text,
            })
        out[card_set.code] = {
            "info": info,
            "set": card_set,
            "number": number.label if number else None,
            "fields": [f.label for f in shown],
            "rows": rows,
        }
    return out


def keyword_lines(records: GameRecords) -> list[KeywordLine]:
    lines = []
    for term in records.keywords:
        syntax = _PARAM.sub(lambda m: f"<i>{m[1]}</i>", escape(term.keyword.syntax))
        lines.append(
            KeywordLine(
                term.slug, Markup(syntax),
                Markup(markdown.render(_first_sentence(term.definition), inline=True)),
                term.rules[0] if term.rules else None,
            )
        )
    return sorted(lines, key=lambda k: k.slug)


def _glossary(terms: list[Term], records: GameRecords, resolve) -> list[GlossaryEntry]:
    entries = []
    for term in sorted(terms, key=lambda t: t.term.casefold()):
        see = [(slugify(s), s) for s in term.see if records.term(slugify(s))]
        entries.append(
            GlossaryEntry(
                term.slug,
                term.term,
                Markup(markdown.render(term.definition, resolve, inline=True)),
                [r for r in term.rules if records.clause(r)], see,
            )
        )
    return entries


def _aid_line(clause: Clause) -> dict:
    # The whole first paragraph: cutting a clause short could change what it says.
    short = clause.text.split("\n\n", 1)[0].strip()
    return {
        "number": clause.number,
        "title": clause.title,
        "html": Markup(markdown.render(short, inline=True)) if short else Markup(""),
    }


def _first_sentence(text: str) -> str:
    text = " ".join(text.split())
    m = _SENTENCE.match(text)
    return m[1] if m else text


def _field_value(info, field: CardField, value) -> dict:
    """A card field for the checklist: a facet's value shows its name (and its colour swatch
    or symbol)."""
    for item in info.enums.get(field.facet, []) if field.facet else []:
        if item.id == value:
            color = item.color if item.color and _HEX_COLOR.match(item.color) else ""
            return {"text": item.name, "color": color, "symbol": item.symbol or ""}
    return {"text": "" if value is None else str(value), "color": "", "symbol": ""}
