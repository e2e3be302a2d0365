"""The data model of a compiled game database, as SQLModel tables.

Each game gets its own registry, because its `cards` table carries the game's own columns
(derived from its declared card fields) next to the columns every game has. Each table is
registered in `TABLES` with the function that makes its rows (`charnel.rows`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from sqlalchemy import MetaData, UniqueConstraint
from sqlalchemy.orm import registry
from sqlmodel import Field, SQLModel

from charnel import rows
from charnel.game import Game
from charnel.history import tables as history_tables

_Meta = type(SQLModel)


class GameRow(SQLModel):
    id: str = Field(primary_key=True, description="Game identifier, as in rules/<game>/.")
    title: str = Field(description="The game's title.")
    publisher: str = Field(description="Who published the game.")
    published: int = Field(description="Year the game was published.")
    rules_version: str = Field(description="Version of charnel's restatement of the rules.")
    rules_date: str = Field(description="Date that rules version takes effect.")
    rulebook: str = Field(description="The rulebook the rules restate.")
    description: str = Field(description="A sentence about the game.")
    card_pool_note: str = Field(description="Where the card pool comes from.")


class EnumValueRow(SQLModel):
    enum: str = Field(
        primary_key=True, description="Which of the game's lists the value belongs to."
    )
    id: str = Field(primary_key=True, description="The value as cards and keywords write it.")
    name: str = Field(description="Display name.")
    color: str | None = Field(default=None, description="Display colour, if the value has one.")
    symbol: str | None = Field(default=None, description="Printed symbol, if the value has one.")
    position: int = Field(description="Order in the game's list.")


class CardTypeRow(SQLModel):
    id: str = Field(primary_key=True, description="Card type as cards write it.")
    name: str = Field(description="Display name.")
    plural: str = Field(description="Plural display name.")
    position: int = Field(description="Order in the game's list.")


class SetRow(SQLModel):
    code: str = Field(primary_key=True, description="Set code, as in cards/<game>/<set>/.")
    name: str = Field(description="The set's name.")
    released: str = Field(description="Release date (ISO).")
    symbol: str = Field(description="Expansion symbol.")
    description: str = Field(description="About the set.")
    card_count: int = Field(description="Number of cards in the set.")


class CardBaseRow(SQLModel):
    id: str = Field(
        primary_key=True, description="Card slug: its file name; the site page is /cards/<id>/."
    )
    name: str = Field(index=True, description="Card name.")
    set_code: str = Field(
        foreign_key="sets.code", index=True, description="Set the card belongs to."
    )
    type: str = Field(foreign_key="card_types.id", index=True, description="Card type.")
    text: str = Field(description="Main text box, as printed.")
    text_html: str = Field(description="Main text rendered as HTML, keywords and terms linked.")
    flavor: str = Field(description="Flavor text.")
    keywords: str = Field(description="Keyword terms the card carries, as a JSON array of slugs.")
    executable: bool = Field(
        description="True when every part of the card's text is encoded for the engine."
    )
    effects: str = Field(
        description="The card's encoded effects as JSON, in the engine's action language."
    )
    path: str = Field(description="Source file of the card.")


class CardKeywordRow(SQLModel):
    card_id: str = Field(primary_key=True, foreign_key="cards.id", description="The card.")
    position: int = Field(primary_key=True, description="Order on the card.")
    keyword: str = Field(foreign_key="keywords.term", index=True, description="Keyword term slug.")
    params: str = Field(description="Parameters as JSON.")
    text: str = Field(description="The keyword as printed on the card.")


class RulingRow(SQLModel):
    id: str = Field(
        primary_key=True, description="<card>-<n>: the card and the ruling's place on it."
    )
    card_id: str = Field(
        foreign_key="cards.id", index=True, description="The card the ruling is about."
    )
    date: str = Field(index=True, description="Date of the ruling (ISO).")
    source: str = Field(description="Who made the ruling.")
    text: str = Field(description="The ruling.")
    text_html: str = Field(description="The ruling rendered as HTML.")
    rules: str = Field(description="Rule numbers the ruling rests on, comma-separated.")


class TermRow(SQLModel):
    slug: str = Field(
        primary_key=True, description="Term slug; the site page is /glossary/<slug>/."
    )
    term: str = Field(index=True, description="The term.")
    definition: str = Field(description="Definition, in charnel's words.")
    definition_html: str = Field(description="Definition rendered as HTML.")
    lore: bool = Field(description="True for world concepts, which don't apply to game play.")
    keyword: bool = Field(description="True when the term is a keyword ability.")
    rules: str = Field(description="Rule numbers the term points to, comma-separated.")
    aliases: str = Field(description="Other spellings, comma-separated.")
    position: int = Field(description="Order in the glossary.")


class KeywordRow(SQLModel):
    term: str = Field(
        primary_key=True,
        foreign_key="glossary_terms.slug",
        description="The keyword's glossary term.",
    )
    name: str = Field(description="The keyword as printed.")
    syntax: str = Field(description="How the keyword is printed; parameters in braces.")
    params: str = Field(description="Parameter names and types as JSON.")
    stacking: str = Field(
        description="How repeated instances combine: sum, max, union, flag or each."
    )
    applies_to: str = Field(description="What the ability belongs to.")
    card_count: int = Field(description="Number of cards with the keyword.")


class SectionRow(SQLModel):
    number: str = Field(primary_key=True, description="Section number.")
    title: str = Field(description="Section title.")
    slug: str = Field(description="Page name; the site page is /rules/<slug>/.")
    intro: str = Field(description="Text before the first rule.")
    intro_html: str = Field(description="Intro rendered as HTML.")
    path: str = Field(description="Source file of the section.")
    position: int = Field(description="Order in the rules.")


class RuleRow(SQLModel):
    number: str = Field(primary_key=True, description="Rule number: 8, 8.6 or 8.6a.")
    parent: str | None = Field(
        default=None, index=True, description="The rule this one belongs to."
    )
    section: str = Field(
        foreign_key="rule_sections.number", index=True, description="Section number."
    )
    level: int = Field(description="0 section, 1 rule, 2 sub-rule.")
    title: str = Field(description="Heading, for sections and rules.")
    text: str = Field(description="The rule in Markdown.")
    text_html: str = Field(description="The rule rendered as HTML, references linked.")
    pages: str = Field(description="Rulebook pages the rule restates.")
    heading: str = Field(
        default="", description="Rulebook heading the rule restates, where it cites no page."
    )
    ruling: bool = Field(
        default=False, index=True, description="The project's own ruling, not the rulebook's."
    )
    advanced: bool = Field(default=False, description="One of the rulebook's advanced rules.")
    position: int = Field(description="Order in the rules.")
    path: str = Field(description="Source file.")
    line: int = Field(description="Line in the source file.")


class RuleRefRow(SQLModel):
    source_kind: str = Field(
        primary_key=True, description="What cites: rule, term, ruling or example."
    )
    source_id: str = Field(primary_key=True, description="Id of what cites.")
    target_kind: str = Field(primary_key=True, description="What is cited: rule or term.")
    target: str = Field(primary_key=True, index=True, description="Rule number or term slug cited.")


class ExampleRow(SQLModel):
    id: str = Field(primary_key=True, description="Stable example id: URL anchor and test name.")
    title: str = Field(description="What the example shows.")
    owner_kind: str = Field(description="Where it is written: rule, card or term.")
    owner: str = Field(index=True, description="Rule number, card id or term slug.")
    body: str = Field(description="The example in the example language, as JSON.")
    path: str = Field(description="Source file.")
    line: int = Field(description="Line in the source file.")


class ExampleResultRow(SQLModel):
    id: int = Field(primary_key=True, description="Row id.")
    example_id: str = Field(foreign_key="examples.id", index=True, description="The example run.")
    card_id: str | None = Field(
        default=None, index=True, description="The card substituted in, if any."
    )
    passed: bool = Field(description="True when every fact in 'then' held.")
    message: str = Field(description="Why it failed; empty when it passed.")


class MetaRow(SQLModel):
    key: str = Field(primary_key=True, description="Name of the fact.")
    value: str = Field(description="Its value.")


@dataclass(frozen=True)
class Table:
    """A table, and the function that makes its rows (`charnel.rows`)."""

    name: str
    row: type[SQLModel]
    rows: Callable[[rows.Source], list[dict]]


@dataclass(frozen=True)
class Schema:
    metadata: MetaData
    tables: dict[str, type[SQLModel]]  # by table name, in creation order

    def table(self, name: str):
        return self.tables[name].__table__


_ROW_MODELS: dict[str, type[SQLModel]] = {
    "games": GameRow,
    "enum_values": EnumValueRow,
    "card_types": CardTypeRow,
    "sets": SetRow,
    "glossary_terms": TermRow,
    "keywords": KeywordRow,
    "cards": CardBaseRow,
    "card_keywords": CardKeywordRow,
    "rulings": RulingRow,
    "rule_sections": SectionRow,
    "rules": RuleRow,
    "rule_refs": RuleRefRow,
    "examples": ExampleRow,
    "example_results": ExampleResultRow,
    "meta": MetaRow,
    **{name: row for name, row, _ in history_tables.TABLES},
}
# Every game's tables, in creation order (`rows.MADE`'s), each with its rows.
TABLES = tuple(Table(name, _ROW_MODELS[name], made) for name, made in rows.MADE.items())


@cache
def for_game(game: Game) -> Schema:
    base = _Meta(
        f"{game.id.title()}Table", (SQLModel,), {"__module__": __name__}, registry=registry()
    )
    tables: dict[str, type[SQLModel]] = {}
    for table in TABLES:
        attrs: dict = {"__tablename__": table.name, "__module__": __name__}
        bases: tuple = (base, table.row)
        if table.name == "cards":
            # A model's fields run from its last base to its first: the game's card columns
            # go after those every card has, so `id` and `name` lead the table.
            bases = (base, game.card_columns, table.row)
            # a number within a group (a collector number) is one card's in its group
            attrs["__table_args__"] = tuple(
                UniqueConstraint("set_code", f.name) for f in game.fields if f.unique_in_group
            )
        tables[table.name] = _Meta(
            f"{game.id.title()}{table.row.__name__}", bases, attrs, table=True
        )
    for extra in game.extra_tables(base):
        tables[extra.__tablename__] = extra
    return Schema(base.metadata, tables)
