"""The card search language: `clan:ember t:champion m>=2 kw:ward -o:blow (s:embers or s:frosts)`.

Three steps, each small: `tokenize` (text -> tokens with their columns), `parse` (tokens ->
a tree of And/Or/Not/Condition), `compile_query` (tree -> SQL over the `cards` table with named
parameters). User text only ever reaches SQL as a parameter value; SQL fragments come from
`SearchField.expr`, which a game package writes. Every error is a `QueryError` carrying the
1-based column of the bad token, so callers can point at it.
"""

from __future__ import annotations

import difflib
import re
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from charnel.diagnostics import nearest

Kind = Literal["text", "exact", "number", "list", "keyword"]
OPERATORS = (">=", "<=", "!=", ":", "=", "<", ">")
# Bounds that keep every search small (docs/search.md, docs/security.md): the parser and the
# SQL it writes grow with these, and a server answers searches one at a time per worker.
MAX_LENGTH = 1000  # characters
MAX_DEPTH = 20  # nested parentheses and negations
MAX_TERMS = 50  # search terms
MAX_DIGITS = 15  # a number, within SQLite's integers and a JSON reader's exact ones


@dataclass(frozen=True)
class SearchField:
    """One field of the language. `expr` is trusted SQL over `cards`, never user text."""

    expr: str
    kind: Kind
    help: str
    example: str = ""
    text_expr: str | None = None  # number fields: what a non-number such as `x` matches
    show: bool = False  # a column worth showing in result tables
    # Trusted SQL listing every value the field can hold, for closed lists (dooms, sets):
    # a value that can match none of them is a typo, reported with the nearest one.
    choices: str | None = None
    display: str = ""  # the column a result table shows for it, when not `expr` (a cost's text)
    required: bool = False  # a column listings always keep
    ordinal: bool = False  # a number within the card's set: listed right after the set


# The fields every game has. A game's declared fields (`charnel.fields`) add their own, and its
# `search_fields` may replace these.
# Their examples are the game's own (`Game.search_examples`, `with_examples`).
_TYPE = SearchField("type", "text", "Card type (contains).", choices="select id from card_types")
_TEXT = SearchField("text", "text", "Rules text (contains).")
_SET = SearchField("set_code", "exact", "Set code.", show=True, choices="select code from sets")
_KEYWORD = SearchField(
    "keywords", "keyword", "Keyword, by name or as printed with its parameter.",
    choices="select term from keywords",
)
_NAME = SearchField("name", "text", "Card name (contains); bare words and quoted phrases.")
CORE_FIELDS: dict[str, SearchField] = {
    "t": _TYPE,
    "type": _TYPE,
    "o": _TEXT,
    "text": _TEXT,
    "s": _SET,
    "set": _SET,
    "name": _NAME,
}
# The fields of a game whose abilities include keywords (`Game.has_keywords`).
KEYWORD_FIELDS: dict[str, SearchField] = {"kw": _KEYWORD, "keyword": _KEYWORD}


def with_examples(
    fields: Mapping[str, SearchField], queries: tuple[str, ...]
) -> dict[str, SearchField]:
    """The fields, each field without an example given the first term of `queries` that
    searches it (the fields every game has show the game's own values)."""
    used: dict[str, str] = {}
    for query in queries:
        for token in tokenize(query):
            if token.kind == "term":
                used.setdefault(token.field.lower(), token.text)
    names: dict[int, list[str]] = {}
    for name, f in fields.items():
        names.setdefault(id(f), []).append(name)
    out: dict[str, SearchField] = {}
    made: dict[int, SearchField] = {}
    for name, f in fields.items():
        if id(f) not in made:
            example = f.example or next((used[n] for n in names[id(f)] if n in used), "")
            made[id(f)] = replace(f, example=example)
        out[name] = made[id(f)]
    return out


def field_table(fields: Mapping[str, SearchField]) -> list[dict[str, str]]:
    """Each field once, with all its names (the short one first), its kind, help and example:
    the table of a game's fields wherever its search is explained."""
    names: dict[int, list[str]] = {}
    for name, f in fields.items():
        names.setdefault(id(f), []).append(name)
    seen: set[int] = set()
    out = []
    for f in fields.values():
        if id(f) in seen:
            continue
        seen.add(id(f))
        out.append({"names": ", ".join(names[id(f)]), "kind": f.kind, "help": f.help,
                    "example": f.example})
    return out


class QueryError(ValueError):
    """A query that cannot be compiled; `col` is the 1-based column of the bad token."""

    def __init__(self, message: str, col: int, length: int = 1):
        super().__init__(message)
        self.message = message
        self.col = col
        self.length = max(length, 1)

    def render(self, query: str) -> str:
        """The message, the query, and a caret line under the bad token."""
        caret = " " * (self.col - 1) + "^" * self.length
        return f"{self.message} (column {self.col})\n  {query}\n  {caret}"


# --- tokens ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Token:
    kind: Literal["(", ")", "-", "or", "and", "term", "word"]
    col: int
    text: str  # the token as written
    field: str = ""  # term: the field name as written
    op: str = ""  # term: the operator
    value: str = ""  # term: the value, unquoted; word: the word or phrase
    value_col: int = 0


_FIELD = re.compile(r"([A-Za-z_]+)(>=|<=|!=|:|=|<|>)")
_STOP = set(" \t\r\n()")


def tokenize(query: str) -> list[Token]:
    tokens: list[Token] = []
    i, n = 0, len(query)
    while i < n:
        ch = query[i]
        if ch.isspace():
            i += 1
        elif ch in "()":
            tokens.append(Token(ch, i + 1, ch))  # type: ignore[arg-type]
            i += 1
        elif ch == "-" and i + 1 < n and not query[i + 1].isspace() and query[i + 1] != ")":
            tokens.append(Token("-", i + 1, "-"))
            i += 1
        else:
            start = i
            m = _FIELD.match(query, i)
            if m:
                # an empty value is judged after the field name, so a misspelt name
                # (`strenght:`) still gets the nearest field
                bare = m.end() >= n or query[m.end()] in _STOP
                value, end = ("", m.end()) if bare else _value(query, m.end(), field_value=True)
                tokens.append(
                    Token(
                        "term",
                        start + 1,
                        query[start:end],
                        m.group(1),
                        m.group(2),
                        value,
                        m.end() + 1,
                    )
                )
            else:
                value, end = _value(query, i, field_value=False)
                word = query[start:end]
                if word.lower() in ("or", "and") and query[start] != '"':
                    tokens.append(Token(word.lower(), start + 1, word))  # type: ignore[arg-type]
                else:
                    tokens.append(Token("word", start + 1, word, value=value, value_col=start + 1))
            i = end
    return tokens


def _value(query: str, i: int, field_value: bool) -> tuple[str, int]:
    """Read a quoted or bare value at `i`; returns (value, end index)."""
    n = len(query)
    if i < n and query[i] == '"':
        close = query.find('"', i + 1)
        if close < 0:
            raise QueryError("unterminated quote", i + 1, n - i)
        return query[i + 1 : close], close + 1
    start, depth = i, 0
    while i < n:
        ch = query[i]
        if ch == "(" and field_value and i > start:
            depth += 1  # kw:ward(ember): parentheses inside a value belong to it
        elif ch == ")" and depth:
            depth -= 1
        elif ch in _STOP or ch == '"':
            break
        i += 1
    if i == start:
        what = "a value after the operator" if field_value else "a word"
        raise QueryError(f"expected {what}", i + 1)
    return query[start:i], i


# --- tree ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Condition:
    field: str  # canonical: the name as written, lowercased
    op: str
    value: str
    col: int  # where the term starts
    value_col: int
    length: int


@dataclass(frozen=True)
class Not:
    item: Node


@dataclass(frozen=True)
class And:
    items: tuple[Node, ...]


@dataclass(frozen=True)
class Or:
    items: tuple[Node, ...]


Node = Condition | Not | And | Or


def parse(query: str) -> Node:
    if len(query) > MAX_LENGTH:
        raise QueryError(
            f"the query is {len(query)} characters long; at most {MAX_LENGTH} are read",
            MAX_LENGTH + 1,
        )
    tokens = tokenize(query)
    if not tokens:
        raise QueryError("empty query", 1)
    terms = [t for t in tokens if t.kind in ("term", "word")]
    if len(terms) > MAX_TERMS:
        extra = terms[MAX_TERMS]
        raise QueryError(f"more than {MAX_TERMS} search terms", extra.col, len(extra.text))
    parser = _Parser(tokens, len(query))
    node = parser.disjunction()
    if parser.peek() is not None:
        tok = parser.peek()
        raise (
            QueryError("unmatched ')'", tok.col)
            if tok.kind == ")"
            else QueryError(f"unexpected '{tok.text}'", tok.col, len(tok.text))
        )
    return node


@dataclass
class _Parser:
    tokens: list[Token]
    end: int
    pos: int = 0
    depth: int = 0

    def peek(self) -> Token | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> Token:
        tok = self.tokens[self.pos]
        self.pos += 1
        return tok

    def disjunction(self) -> Node:
        items = [self.conjunction()]
        while (tok := self.peek()) is not None and tok.kind == "or":
            self.take()
            items.append(self.conjunction())
        return items[0] if len(items) == 1 else Or(tuple(items))

    def conjunction(self) -> Node:
        items = [self.unary()]
        while (tok := self.peek()) is not None and tok.kind not in ("or", ")"):
            if tok.kind == "and":
                self.take()
            items.append(self.unary())
        return items[0] if len(items) == 1 else And(tuple(items))

    def unary(self) -> Node:
        tok = self.peek()
        if tok is None:
            raise QueryError("the query ends where a search term was expected", self.end + 1)
        if tok.kind in ("-", "(") and self.depth >= MAX_DEPTH:
            raise QueryError(f"more than {MAX_DEPTH} nested '(' and '-'", tok.col)
        if tok.kind == "-":
            self.take()
            self.depth += 1
            node = Not(self.unary())
            self.depth -= 1
            return node
        if tok.kind == "(":
            self.take()
            self.depth += 1
            node = self.disjunction()
            self.depth -= 1
            close = self.peek()
            if close is None or close.kind != ")":
                raise QueryError("'(' is never closed", tok.col)
            self.take()
            return node
        if tok.kind in ("or", "and"):
            raise QueryError(f"'{tok.text}' needs a search term before it", tok.col, len(tok.text))
        if tok.kind == ")":
            raise QueryError("unmatched ')'", tok.col)
        self.take()
        if tok.kind == "word":
            return Condition("name", ":", tok.value, tok.col, tok.value_col, len(tok.text))
        return Condition(
            tok.field.lower(), tok.op, tok.value, tok.col, tok.value_col, len(tok.text)
        )


# --- SQL -------------------------------------------------------------------------------------


@dataclass
class Compiled:
    where: str
    params: dict[str, str | int] = field(default_factory=dict)

    def select(self, columns: list[str], limit: int | None = None) -> str:
        cols = ", ".join(columns)
        sql = f"select {cols} from cards where {self.where} order by name, id"
        return sql if limit is None else f"{sql} limit {int(limit)}"

    def count(self) -> str:
        return f"select count(*) from cards where {self.where}"


Choices = Mapping[SearchField, tuple[str, ...]]


def compile_query(
    query: str, fields: Mapping[str, SearchField], choices: Choices | None = None
) -> Compiled:
    """Parse and compile `query`; raises QueryError pointing at the first bad token.

    `choices` holds the values of closed-list fields (see `load_choices`); a value that can
    match none of them is an error rather than a search that finds nothing.
    """
    compiler = _Compiler(fields, choices or {})
    where = compiler.node(parse(query))
    return Compiled(where, compiler.params)


def choice_queries(fields: Mapping[str, SearchField]) -> dict[SearchField, str]:
    """The closed-list fields and the SQL listing each one's values."""
    return {f: f.choices for f in fields.values() if f.choices}


def load_choices(conn: sqlite3.Connection, fields: Mapping[str, SearchField]) -> Choices:
    """Every closed-list field's values, read from a compiled database. A list the database
    leaves empty is left out: it says nothing about which values exist."""
    choices = {}
    for f, sql in choice_queries(fields).items():
        values = tuple(sorted({str(r[0]) for r in conn.execute(sql) if r[0] not in (None, "")}))
        if values:
            choices[f] = values
    return choices


def result_columns(fields: Mapping[str, SearchField]) -> list[str]:
    """Columns of a search result: identity, then the plain columns the fields mark `show`,
    the ones listings always keep (a cost) first."""
    columns = ["id", "name", "type"]
    for f in sorted(fields.values(), key=lambda f: not f.required):
        column = f.display or f.expr
        if f.show and column not in columns and re.fullmatch(r"[a-z_]+", column):
            columns.append(column)
    return [*columns, "text"]


@dataclass(frozen=True)
class ListingColumn:
    header: str
    sql: str  # trusted: a column name or a field's `expr`
    required: bool  # optional columns are the first left out when a listing is too wide


def listing_columns(fields: Mapping[str, SearchField]) -> list[ListingColumn]:
    """Columns for a compact listing, such as a terminal table: name, the type line as `t:`
    searches it, the columns always kept (a cost), the game's other shown fields, then the set
    and the number within it. Headers are the fields' short names, so they read as the search
    language does."""
    type_line = fields["t"].expr if "t" in fields else "type"
    names: dict[int, list[str]] = {}
    for name, f in fields.items():
        names.setdefault(id(f), []).append(name)
    columns = [ListingColumn("name", "name", True), ListingColumn("type", type_line, True)]
    tail = [ListingColumn("set", "set_code", True)]
    seen = {"name", "type", "set_code"}
    for f in sorted(fields.values(), key=lambda f: not f.required):
        column = f.display or f.expr
        plain = re.fullmatch(r"[a-z_]+", column)
        if not f.show or not plain or column in seen or re.search(rf"\b{column}\b", type_line):
            continue  # shown already, or part of the type line (a kind printed after the type)
        seen.add(column)
        if f.ordinal:
            tail.append(ListingColumn("#", column, True))
            continue
        header = min((n for n in names[id(f)] if len(n) >= 3), key=len, default=column)
        columns.append(ListingColumn(header, column, f.required))
    return columns + tail


_COMPARE = {":": "=", "=": "=", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}


@dataclass
class _Compiler:
    fields: Mapping[str, SearchField]
    choices: Choices
    params: dict[str, str | int] = field(default_factory=dict)

    def param(self, value: str | int) -> str:
        name = f"p{len(self.params)}"
        self.params[name] = value
        return f":{name}"

    def node(self, node: Node) -> str:
        if isinstance(node, And):
            return "(" + " and ".join(self.node(i) for i in node.items) + ")"
        if isinstance(node, Or):
            return "(" + " or ".join(self.node(i) for i in node.items) + ")"
        if isinstance(node, Not):
            # coalesce: a card without the value (NULL) is in the complement, not dropped
            return f"not coalesce({self.node(node.item)}, 0)"
        return self.condition(node)

    def condition(self, c: Condition) -> str:
        f = self.fields.get(c.field)
        if f is None:
            near = difflib.get_close_matches(c.field, list(self.fields), n=1)
            hint = f"; did you mean '{near[0]}'?" if near else ""
            raise QueryError(f"unknown field '{c.field}'{hint}", c.col, len(c.field))
        if not c.value and c.length == len(c.field) + len(c.op):  # nothing after the operator
            raise QueryError("expected a value after the operator", c.value_col)
        if f.kind == "number":
            return self.number(c, f)
        if c.op not in (":", "=", "!="):
            raise QueryError(
                f"'{c.field}' takes ':', '=' or '!=', not '{c.op}'", c.col + len(c.field), len(c.op)
            )
        value = c.value.strip()
        if not value:
            raise QueryError("empty value", c.value_col)
        if f in self.choices:
            self.check_choice(c, f, value)
        sql = getattr(self, f"_{f.kind}")(c, f, value)
        return f"not coalesce({sql}, 0)" if c.op == "!=" else sql

    def check_choice(self, c: Condition, f: SearchField, value: str) -> None:
        """Refuse a value no card can have: not one of an exact field's values, or for a
        contains field, a word found in none of them (the text joins values with spaces)."""
        known = [v.lower() for v in self.choices[f]]
        if f.kind == "keyword":
            self.check_keyword(c, known, value)
            return
        if f.kind == "exact":
            wrong = [value.lower()] if value.lower() not in known else []
        else:
            wrong = [w for w in value.lower().split() if not any(w in v for v in known)]
        if not wrong:
            return
        words = sorted({w for v in known for w in v.split()}) if f.kind != "exact" else known
        near = difflib.get_close_matches(wrong[0], words, n=1, cutoff=0.5)
        hint = f"did you mean '{near[0]}'?" if near else f"one of: {', '.join(known)}"
        raise QueryError(
            f"no card has '{wrong[0]}' in '{c.field}'; {hint}", c.value_col, len(c.value)
        )

    def check_keyword(self, c: Condition, known: list[str], value: str) -> None:
        """A keyword is named by its slug or printed with its parameter after its name
        (`ward(ember)`); a value that starts with no keyword is a typo."""
        squashed = re.sub(r"[^a-z0-9]", "", value.lower())
        if any(squashed.startswith(re.sub(r"[^a-z0-9]", "", k)) for k in known):
            return
        slug = re.sub(r"[^a-z0-9]+", "-", value.lower()).strip("-")
        near = difflib.get_close_matches(slug, known, n=1, cutoff=0.5)
        hint = f"did you mean '{near[0]}'?" if near else f"one of: {', '.join(known)}"
        raise QueryError(f"no keyword is called '{value}'; {hint}", c.value_col, len(c.value))

    def _text(self, c: Condition, f: SearchField, value: str) -> str:
        if c.op in ("=", "!="):  # != negates =, as - negates :
            return f"{f.expr} = {self.param(value)} collate nocase"
        return f"{f.expr} like {self.param('%' + _escape_like(value) + '%')} escape '\\'"

    def _exact(self, c: Condition, f: SearchField, value: str) -> str:
        return f"{f.expr} = {self.param(value)} collate nocase"

    def _list(self, c: Condition, f: SearchField, value: str) -> str:
        pattern = self.param("%," + _escape_like(value) + ",%")
        return f"(',' || {f.expr} || ',') like {pattern} escape '\\'"

    def _keyword(self, c: Condition, f: SearchField, value: str) -> str:
        # by term slug (kw:ward) or as printed without spaces (kw:"ward(ember)", kw:shield+1)
        slug = self.param(re.sub(r"[^a-z0-9]+", "-", value.lower()).strip("-"))
        printed = self.param(re.sub(r"\s+", "", value.lower()))
        # Both ways go through the keyword index: a printed form starts with its keyword's
        # name, so only those keywords' rows are compared (a correlated subquery per card
        # took twice as long on 50,000 cards).
        return (
            f"cards.id in (select card_id from card_keywords where keyword = {slug} "
            "union all select card_id from card_keywords where keyword in "
            f"(select term from keywords where instr({printed}, replace(lower(name), ' ', '')) = 1)"
            f" and replace(lower(text), ' ', '') = {printed})"
        )

    def number(self, c: Condition, f: SearchField) -> str:
        value = c.value.strip()
        if re.fullmatch(r"-?\d+", value):
            if len(value.lstrip("-")) > MAX_DIGITS:
                raise QueryError(
                    f"'{c.field}' takes numbers of at most {MAX_DIGITS} digits",
                    c.value_col,
                    len(c.value),
                )
            return f"{f.expr} {_COMPARE[c.op]} {self.param(int(value))}"
        other = self.fields.get(value.lower())
        if other is not None and other.kind == "number":  # atk>def: one field against another
            return f"{f.expr} {_COMPARE[c.op]} {other.expr}"
        if f.text_expr and c.op in (":", "=", "!=") and value:
            sql = f"{f.text_expr} like {self.param('%' + _escape_like(value) + '%')} escape '\\'"
            return f"not coalesce({sql}, 0)" if c.op == "!=" else sql
        raise QueryError(
            f"'{c.field}' needs a whole number or a number field, not '{value}'",
            c.value_col,
            len(c.value) or 1,
        )


def _escape_like(value: str) -> str:
    return value.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


@dataclass(frozen=True)
class Found:
    """A search's answer: the rows shown, how many cards matched in all, and whether the rows
    are the cards whose names are nearest a name no card has (a misspelling)."""

    compiled: Compiled
    columns: list[str]
    rows: list[tuple]
    total: int
    nearest: bool = False


def find(
    database: Path,
    query: str,
    fields: Mapping[str, SearchField],
    limit: int | None = None,
    columns: list[str] | None = None,
) -> Found:
    """`search`, counting every match, and falling back to the nearest names when a query of
    bare words (a name) finds nothing."""
    columns = columns or result_columns(fields)
    conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        compiled = compile_query(query, fields, load_choices(conn, fields))
        rows = conn.execute(compiled.select(columns, limit), compiled.params).fetchall()
        total = conn.execute(compiled.count(), compiled.params).fetchone()[0]
        name = _name_only(parse(query))
        if total or name is None:
            return Found(compiled, columns, rows, total)
        names = [r[0] for r in conn.execute("select name from cards")]
        near = nearest(name, names)
        if not near:
            return Found(compiled, columns, rows, total)
        marks = ", ".join(f":n{i}" for i in range(len(near)))
        compiled = Compiled(f"name in ({marks})", {f"n{i}": n for i, n in enumerate(near)})
        rows = conn.execute(compiled.select(columns, limit), compiled.params).fetchall()
        return Found(compiled, columns, rows, len(near), nearest=True)
    finally:
        conn.close()


def _name_only(node: Node) -> str | None:
    """The words of a query made of bare words and phrases only (a card name), else None."""
    parts = node.items if isinstance(node, And) else (node,)
    if all(isinstance(p, Condition) and p.field == "name" and p.op == ":" for p in parts):
        return " ".join(p.value for p in parts)  # type: ignore[union-attr]
    return None


def search(
    database: Path,
    query: str,
    fields: Mapping[str, SearchField],
    limit: int | None = None,
    columns: list[str] | None = None,
) -> tuple[Compiled, list[str], list[tuple]]:
    """Run a query against a compiled database, read-only: (compiled, columns, rows).

    `columns` are trusted SQL (column names or fields' expressions); by default the
    `result_columns`."""
    columns = columns or result_columns(fields)
    conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        compiled = compile_query(query, fields, load_choices(conn, fields))
        try:
            rows = conn.execute(compiled.select(columns, limit), compiled.params).fetchall()
        except sqlite3.Error as exc:  # within the bounds above this is not expected
            raise QueryError(f"the search could not run: {exc}", 1, len(query)) from None
    finally:
        conn.close()
    return compiled, columns, rows
