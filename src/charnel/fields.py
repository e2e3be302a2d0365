"""A game's card fields: one declaration per field, from which everything else is derived.

Every card has a name, a type, a group (the folder `cards/<game>/<group>/`), printed text,
flavor, rulings and examples (`charnel.records.CardBase`). Anything else a game's cards carry is
a `CardField` in the game's `fields`: from it come the card model card files validate against,
the field's columns in the `cards` table and their values, Datasette's and the site's facets,
the site's number columns, the cost curves, printed checklist columns and the field's names in
the search language. Nothing else in the core names a game's field.
"""

from __future__ import annotations

import json
import re
import types
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import AfterValidator, BaseModel, create_model
from pydantic import Field as ModelField

if TYPE_CHECKING:
    from sqlmodel import SQLModel

REQUIRED: Any = ...  # a field a card must write


@dataclass(frozen=True)
class Column:
    """A column of the `cards` table that a field fills (for fields stored in more than one)."""

    name: str
    sql: type  # int, str or bool
    description: str
    value: Callable[[Any], Any]  # from the field's value (never None: columns of an absent
    # field's value are NULL)
    index: bool = False
    search: Search | None = None  # its own names in the search language (one resource of a cost)


@dataclass(frozen=True)
class Cost:
    """How a cost is written and compared: as printed, and the number that compares.

    The field's column holds the cost as printed (a record, such as a cost in several
    resources, as JSON); `<name>_value` holds `value(cost)`, which the search language compares
    (`cost<=2`) and the cost curves count. A printed cost must match `pattern` when one is
    given; one containing `variable` (an amount the player chooses, such as X) is counted apart
    and found by `cost:x`.
    """

    value: Callable[[Any], int]
    pattern: str = ""  # what a printed cost looks like (a regular expression, matched whole)
    message: str = ""  # why a cost that does not match is wrong
    variable: str = ""  # a letter that stands for an amount the player chooses; "" for none
    value_description: str = ""  # of the `<name>_value` column


@dataclass(frozen=True)
class Search:
    """A field's names in the card search language (`charnel.query`), and its help."""

    names: tuple[str, ...]  # the short name first: ("cn", "number")
    help: str
    example: str = ""
    show: bool = True  # a column of search results and listings


@dataclass(frozen=True)
class CardField:
    """One field a game's cards carry beyond the common ones, and all charnel does with it."""

    name: str  # as card files write it; its column's name too
    type: Any  # the annotation card files are validated against: int, str, Literal[...], a model
    description: str
    default: Any = None  # REQUIRED for a field every card writes
    rules: dict[str, Any] = field(default_factory=dict)  # pydantic constraints: ge, max_length
    index: bool = False  # an index on its column
    facet: str | None = None  # the list in game.yaml's `enums:` its values come from
    numbers: bool = False  # a number column of the site's card lists (sortable)
    unique_in_group: bool = False  # no two cards of one group share a value (a collector number)
    cost: Cost | None = None
    search: Search | None = None
    checklist: int | None = None  # its place among the printed checklists' columns (1, 2 ...)
    columns: tuple[Column, ...] | None = None  # None: one column, named and typed like the field
    label: str = ""  # what pages and messages call it; "" for its name, capitalised

    def __post_init__(self) -> None:
        if not self.label:
            object.__setattr__(self, "label", self.name.replace("_", " ").capitalize())

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    @property
    def many_valued_facet(self) -> bool:
        """A facet whose card holds a list of its values: stored as a JSON array, so Datasette
        facets on each value."""
        return self.facet is not None and get_origin(_bare(self.type)) is list

    def stored(self) -> tuple[Column, ...]:
        """The columns of the `cards` table this field fills."""
        return self._stored

    @cached_property
    def _stored(self) -> tuple[Column, ...]:  # made once: every card's row asks for it
        if self.columns is not None:
            return self.columns
        stored = _json_value if self.many_valued_facet else _stored_value
        own = Column(self.name, _sql_type(self.type), self.description, stored, self.index)
        if self.cost is None:
            return (own,)
        described = self.cost.value_description or f"{self.description} The part that compares."
        value = Column(f"{self.name}_value", int, described, self.cost.value, index=True)
        return (own, value)

    def row(self, value: Any) -> dict[str, Any]:
        return {c.name: None if value is None else c.value(value) for c in self.stored()}


def reading_order(fields: Sequence[CardField]) -> tuple[list[CardField], CardField | None]:
    """The fields a reader looks for right after a card's name: those declared before the
    cost (a collector number, a clan), which come before the type; and the cost, after it."""
    lead = []
    for f in fields:
        if f.cost is not None:
            return lead, f
        lead.append(f)
    return [], None


def ordinal(fields: Sequence[CardField]) -> CardField | None:
    """The game's number within a group (a collector number), if its cards have one."""
    return next((f for f in fields if f.unique_in_group), None)


# --- derived: the card model, the columns, the rows ---------------------------------------


def card_model(name: str, base: type[BaseModel], fields: Sequence[CardField]) -> type[BaseModel]:
    """The model a game's card files validate against: the common fields and the game's."""
    own: dict[str, Any] = {}
    for f in fields:
        annotation = f.type
        if f.cost is not None and f.cost.pattern:
            annotation = Annotated[annotation, AfterValidator(_cost_check(f.cost))]
        if not f.required and not _allows_none(f.type) and f.default is None:
            annotation = annotation | None
        own[f.name] = (annotation, ModelField(f.default, description=f.description, **f.rules))
    return create_model(name, __base__=base, __module__=base.__module__, **own)


def card_columns(name: str, fields: Sequence[CardField]) -> type[SQLModel]:
    """The game's columns of the `cards` table, as a SQLModel mixin."""
    # here, not at the top: a build that updates its database in place never makes the
    # schema's classes, and SQLModel with SQLAlchemy is a quarter of a second to import
    from sqlmodel import Field as ColumnField
    from sqlmodel import SQLModel

    annotations: dict[str, Any] = {}
    attrs: dict[str, Any] = {"__module__": __name__}
    for f in fields:
        nullable = not f.required and (f.default is None or _allows_none(f.type))
        for column in f.stored():
            nullable_column = nullable or column.name != f.name
            annotations[column.name] = column.sql | None if nullable_column else column.sql
            options: dict[str, Any] = {"description": column.description}
            if column.index:
                options["index"] = True
            if nullable_column:
                options["default"] = None
            attrs[column.name] = ColumnField(**options)
    attrs["__annotations__"] = annotations
    return type(SQLModel)(name, (SQLModel,), attrs)


def card_row(fields: Sequence[CardField], card: BaseModel) -> dict[str, Any]:
    """A card's values for the game's columns."""
    row: dict[str, Any] = {}
    for f in fields:
        row.update(f.row(getattr(card, f.name)))
    return row


def search_clashes(fields: Sequence[CardField], common: Sequence[str]) -> list[str]:
    """Search names that two fields claim (two declared fields, or a declared field and one of
    the fields every game has), in declaration order: the later would silently take the name."""
    seen = set(common)
    clashes = []
    searched = [f.search for f in fields] + [c.search for f in fields for c in f.stored()]
    for search in searched:
        for name in search.names if search is not None else ():
            if name in seen:
                clashes.append(name)
            seen.add(name)
    return clashes


def duplicates(fields: Sequence[CardField], common: Sequence[str]) -> list[str]:
    """Names declared twice (or declaring a common field again), in declaration order."""
    seen = set(common)
    twice = []
    for f in fields:
        for name in (f.name, *(c.name for c in f.stored() if c.name != f.name)):
            if name in seen:
                twice.append(name)
            seen.add(name)
    return twice


def _cost_check(cost: Cost) -> Callable[[Any], Any]:
    pattern = re.compile(cost.pattern)

    def check(value: Any) -> Any:
        if value is not None and not pattern.fullmatch(str(value)):
            raise ValueError(cost.message)
        return value

    return check


def _json_value(value: Any) -> str:
    return json.dumps(list(value or ()), ensure_ascii=False)


def _stored_value(value: Any) -> Any:
    """A value as its column holds it: lists of words comma-separated, anything else as JSON."""
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return ",".join(value)
    if isinstance(value, BaseModel):
        return json.dumps(value.model_dump(mode="json"), sort_keys=True, ensure_ascii=False)
    if isinstance(value, (list, dict)):
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    return value


def _allows_none(annotation: Any) -> bool:
    return annotation is None or (
        get_origin(annotation) in (Union, types.UnionType) and type(None) in get_args(annotation)
    )


def _sql_type(annotation: Any) -> type:
    """The column type of a field: its own for int, bool and str (and Literals of them)."""
    options = [a for a in _flatten(annotation) if a is not type(None)]
    for kind in (bool, int):
        if options and all(a is kind for a in options):
            return kind
    return str


def _flatten(annotation: Any) -> list[Any]:
    origin = get_origin(annotation)
    if origin in (Union, types.UnionType):
        return [t for a in get_args(annotation) for t in _flatten(a)]
    if origin is Literal:
        return [type(a) for a in get_args(annotation)]
    if origin is Annotated:
        return _flatten(get_args(annotation)[0])
    return [annotation]


# --- derived: the search language ---------------------------------------------------------

_NAME = re.compile(r"[a-z][a-z0-9_]*")


def search_fields(fields: Sequence[CardField]) -> dict[str, Any]:
    """Each declared field's entries in the search language, by every name it is searched by.

    A cost compares its value and finds its variable as text; a facet is an exact value from
    its list; a number compares; a list of words matches one of them; anything else contains.
    """
    from charnel.query import SearchField

    out: dict[str, SearchField] = {}
    for f in fields:
        if f.search is None:
            continue
        s = f.search
        assert _NAME.fullmatch(f.name) and (f.facet is None or _NAME.fullmatch(f.facet))
        if f.cost is not None:
            entry = SearchField(f"{f.name}_value", "number", s.help, s.example,
                                text_expr=f.name, show=s.show, display=f.name, required=True)
        elif f.facet is not None:  # one value from the list, or a list of them
            choices = f"select id from enum_values where enum = '{f.facet}'"
            if f.many_valued_facet:  # the JSON array read as the words a list field matches
                entry = SearchField(f"(select group_concat(value) from json_each({f.name}))",
                                    "list", s.help, s.example, show=s.show, display=f.name,
                                    choices=choices)
            else:
                entry = SearchField(f.name, "exact", s.help, s.example, show=s.show,
                                    choices=choices)
        else:
            kind = "number" if _sql_type(f.type) in (int, bool) else "text"  # a flag is 1 or 0
            if kind == "text" and get_origin(_bare(f.type)) is list:
                kind = "list"
            entry = SearchField(f.name, kind, s.help, s.example, show=s.show,
                                ordinal=f.unique_in_group)
        for name in s.names:
            out[name] = entry
    for f in fields:  # columns searched on their own: one part of a record
        for column in f.stored():
            if column.search is not None:
                kind = "number" if column.sql in (int, bool) else "text"
                entry = SearchField(column.name, kind, column.search.help, column.search.example,
                                    show=column.search.show)
                for name in column.search.names:
                    out[name] = entry
    return out


def _bare(annotation: Any) -> Any:
    """The annotation without `| None`."""
    if get_origin(annotation) in (Union, types.UnionType):
        options = [a for a in get_args(annotation) if a is not type(None)]
        return options[0] if len(options) == 1 else annotation
    return annotation
