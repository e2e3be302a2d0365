"""The typed records every output reads: one definition, filled by the loader.

Authored YAML is validated straight into these pydantic models (unknown fields are errors);
rules documents are parsed into the dataclasses below. Every record knows its file and line.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from charnel.diagnostics import Origin
from charnel.sources.yamltext import Located

ISO_DATE = r"^\d{4}-\d{2}-\d{2}$"


def _real_date(text: str) -> str:
    datetime.date.fromisoformat(text)  # 2026-13-45 has the shape but is no date
    return text


Date = Annotated[str, Field(pattern=ISO_DATE), AfterValidator(_real_date)]


def _color(text: str) -> str:
    # a colour goes into a style attribute of every page that shows it: nothing but #rrggbb
    if not re.fullmatch(r"#[0-9a-fA-F]{6}", text):
        raise ValueError("a colour is written #rrggbb, six hexadecimal digits")
    return text


Color = Annotated[str, AfterValidator(_color)]
# An id names a page and its folder (/cards/by-clan/<id>/): words joined by single spaces,
# '-' or '_', so never '/', '.', '%', '#' or a leading dot.
Id = Annotated[str, Field(pattern=r"^[A-Za-z0-9]+([ _-][A-Za-z0-9]+)*$")]
RULE_NUMBER = re.compile(r"^\d+(\.\d+)?[a-z]?$")


# What the loader gives a record beside its fields, with the value each has until it does:
# its place in its file, and a card's slug, group and file's content hash. They are slots, not
# pydantic's private attributes: pydantic fills those one by one after validating each record,
# which was half of the cost of validating a card.
_GIVEN = {"_doc": None, "_slug": "", "_set_code": "", "_source_hash": ""}


class Record(BaseModel):
    """A record validated from YAML: strict types, no unknown fields, knows its place."""

    model_config = ConfigDict(extra="forbid", strict=True)
    __slots__ = ("_doc",)  # Located | None

    def __getattr__(self, name: str) -> Any:
        if name in _GIVEN:  # not given yet
            return _GIVEN[name]
        return super().__getattr__(name)

    def __eq__(self, other: object) -> bool:
        same = super().__eq__(other)
        return same if same is not True else _given(self) == _given(other)

    def __copy__(self) -> Record:
        return _give(super().__copy__(), _given(self))

    def __deepcopy__(self, memo: dict | None = None) -> Record:
        return _give(super().__deepcopy__(memo), _given(self))  # the places shared, as read

    def where(self, *path: Any, key: bool = False) -> Origin:
        """Origin of a field (by path inside this record), for messages that point at it."""
        doc = self._doc
        assert doc is not None, "record was not loaded from a file"
        return doc.at(path, key=key)

    @property
    def origin(self) -> Origin:
        return self.where()


def _given(record: object) -> tuple:
    return tuple(getattr(record, name, None) for name in _GIVEN)


def _give(record: Record, given: tuple) -> Record:
    for name, value in zip(_GIVEN, given, strict=True):
        if value is not None:
            object.__setattr__(record, name, value)
    return record


# --- game.yaml -----------------------------------------------------------------------------


class EnumValue(Record):
    id: Id
    name: str
    color: Color | None = None
    symbol: str | None = None
    notes: dict[str, str] = Field(default_factory=dict)  # game-specific facts, e.g. an enemy


class CardType(Record):
    id: Id
    name: str
    plural: str


class CardSet(Record):
    code: str = Field(pattern=r"^[a-z0-9-]+$")
    name: str
    released: Date = ""  # empty for a group with no release of its own (a deck of a boxed game)
    symbol: str = ""
    description: str = ""


class DeckRulesSpec(Record):
    """What makes a deck legal, for games whose players build decks (`charnel deck check`)."""

    min_cards: int | None = Field(default=None, ge=1, le=100_000)
    max_copies: int | None = Field(default=None, ge=1, le=100_000)


class GameInfo(Record):
    id: str = Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")  # a folder name; dark-keep -> dark_keep
    title: str
    publisher: str
    published: int
    rules_version: str
    rules_date: Date
    rulebook: str
    description: str = ""
    card_pool_note: str = ""
    enums: dict[str, list[EnumValue]] = Field(default_factory=dict)
    card_types: list[CardType]
    sets: list[CardSet]  # the game's card groups: the folders under cards/<game>/
    group: str = Field(default="set", pattern=r"^[a-z]+$")  # the game's word for one: "deck"
    numbering_gaps: list[str] = Field(default_factory=list)  # clause numbers left out on purpose
    deck: DeckRulesSpec | None = None
    # this game's pages were at the site's unprefixed URLs (/cards/<slug>/) before the site had
    # a folder per game: those URLs redirect to it (one game of a project may say so)
    unprefixed_urls: bool = False

    def enum_ids(self, name: str) -> list[str]:
        return [v.id for v in self.enums.get(name, [])]


# --- glossary.yaml -------------------------------------------------------------------------


class KeywordSpec(Record):
    syntax: str  # printed form, params in braces: "Shield +{n}", "Ward ({clan})"
    params: dict[str, str] = Field(default_factory=dict)  # name -> int | text | <enum name>
    stacking: Literal["sum", "max", "union", "flag", "each"]  # see STACKING_WORDS
    applies_to: str  # the game's word for what the ability belongs to


# What a second instance of a keyword does, in a reader's words (the site's keyword list).
STACKING_WORDS = {
    "sum": "values add up",
    "max": "the highest value counts",
    "union": "each different value counts",
    "flag": "a second one adds nothing",
    "each": "each one works on its own",
}


class Term(Record):
    term: str
    id: str | None = Field(default=None, pattern=r"^[a-z0-9-]+$")  # for terms that are symbols
    definition: str
    rules: list[str] = Field(default_factory=list)
    see: list[str] = Field(default_factory=list)
    aliases: list[str] = Field(default_factory=list)
    keyword: KeywordSpec | None = None

    @property
    def slug(self) -> str:
        return self.id or slugify(self.term)


class Glossary(Record):
    terms: list[Term]
    lore: list[Term] = Field(default_factory=list)


# --- cards ---------------------------------------------------------------------------------


class Ruling(Record):
    date: Date
    source: str
    text: str
    rules: list[str] = Field(default_factory=list)


class CardBase(Record):
    """Fields every game's cards have; a game's card model adds the fields it declares
    (`charnel.fields`)."""

    name: str = Field(min_length=1)
    type: str
    text: str = ""
    keywords: list[str | dict[str, Any]] = Field(default_factory=list)
    effects: list[dict[str, Any]] = Field(default_factory=list)
    flavor: str = ""
    rulings: list[Ruling] = Field(default_factory=list)
    examples: list[dict[str, Any]] = Field(default_factory=list)

    # its file's name and folder, and the content hash of the file ("" if none): see _GIVEN
    __slots__ = ("_slug", "_set_code", "_source_hash")

    @property
    def slug(self) -> str:
        return self._slug

    @property
    def set_code(self) -> str:
        return self._set_code

    @property
    def source_hash(self) -> str:
        return self._source_hash


@dataclass
class KeywordUse:
    """One keyword on a card, decoded: term id, parameters, and the text it prints as."""

    keyword: str
    params: dict[str, Any]
    text: str


# --- rules documents -----------------------------------------------------------------------


@dataclass
class Ref:
    kind: Literal["rule", "term"]
    target: str  # a rule number or a term slug
    origin: Origin


@dataclass
class Clause:
    """A numbered rule: a section ("8"), a rule ("8.6") or a sub-rule ("8.6a")."""

    number: str
    parent: str | None
    level: int
    title: str
    text: str  # Markdown, without the number and the page citation
    pages: str  # rulebook pages restated: "18", "18-19"; "" for pure headings
    section: str
    order: int
    origin: Origin
    refs: list[Ref] = field(default_factory=list)
    heading: str = ""  # the rulebook heading restated, where the clause cites no page
    ruling: bool = False  # the project's own decision, not the rulebook's text
    advanced: bool = False  # one of the rulebook's optional, advanced rules


@dataclass
class Section:
    number: str
    title: str
    slug: str
    path: str
    intro: str  # Markdown before the first rule
    order: int
    origin: Origin


@dataclass
class Example:
    """An executable example: where it was written and its body in the example language."""

    id: str
    title: str
    owner_kind: Literal["rule", "card", "term", "file"]
    owner: str  # clause number, card slug, term slug, or file path
    body: dict[str, Any]
    source: str  # the YAML as written
    doc: Located
    cites: list[str] = field(default_factory=list)

    @property
    def origin(self) -> Origin:
        return self.doc.origin

    @cached_property
    def variables(self) -> frozenset[str]:
        """The $variables its body uses, found once: verification asks for every card."""
        return frozenset(variables_used(self.body))


VARIABLE = re.compile(r"\$([a-z_][a-z0-9_]*)")  # a card's value in an example: `$might`


def variables_used(value: Any) -> set[str]:
    """The $variables named anywhere in an example body."""
    if isinstance(value, dict):
        return set().union(*(variables_used(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(variables_used(v) for v in value))
    return set(VARIABLE.findall(value)) if isinstance(value, str) else set()


@dataclass
class GameRecords:
    """Everything the loader read for one game: what every output is built from."""

    root: Path
    info: GameInfo
    cards: list[CardBase]
    sections: list[Section]
    clauses: list[Clause]
    glossary: Glossary
    examples: list[Example]
    source_hash: str
    files: list[str]
    # The game these are of (a `charnel.game.Game`), handed along by the loader so that no
    # stage looks it up again; typed loosely because the game is defined over these records.
    game: Any = field(default=None, repr=False, compare=False)

    def clause(self, number: str) -> Clause | None:
        return self._clause_index().get(number)

    def _clause_index(self) -> dict[str, Clause]:
        index = self.__dict__.get("_clauses")
        if index is None:
            index = self.__dict__["_clauses"] = {c.number: c for c in self.clauses}
        return index

    def term(self, slug: str) -> Term | None:
        terms = self.glossary.terms
        index = self.__dict__.get("_terms")
        # built once (verification asks for every card), again if the list was replaced
        if index is None or index[0] is not terms or len(index[1]) != len(terms):
            index = self.__dict__["_terms"] = (terms, {t.slug: t for t in terms})
        return index[1].get(slug)

    @property
    def keywords(self) -> list[Term]:
        return [t for t in self.glossary.terms if t.keyword is not None]


# --- what the stages make of them ---------------------------------------------------------


@dataclass
class Outcome:
    """The result of running one example, possibly for one card substituted into it."""

    example: str
    passed: bool
    message: str = ""  # why it failed, one line
    diff: list[str] = field(default_factory=list)  # expected-vs-actual, unified style
    card: str | None = None
    origin: Origin | None = None  # where in the example the failure is
    broken: bool = False  # the example itself is malformed (not a rules failure)


@dataclass
class TextPart:
    """Printed sentences of one part of a card and the effects that encode them."""

    label: str  # where on the card: "text", a field's name, an ability's printed cost
    sentences: list[str]
    effects: list[dict[str, Any]] = field(default_factory=list)

    @property
    def covered(self) -> bool:
        return len(self.effects) >= len(self.sentences)


_NOT_SLUG = re.compile(r"[^a-z0-9]+")


def slugify(text: str) -> str:
    """A URL-safe name: 'Grave Hound' -> 'grave-hound'."""
    # most names are words of ASCII letters and digits, single spaces between: the same
    # result without the pattern (the run keys slug every card's name on every build)
    words = text.split(" ")
    if text.isascii() and all(words) and "".join(words).isalnum():
        return text.lower().replace(" ", "-")
    return _NOT_SLUG.sub("-", text.lower()).strip("-")
