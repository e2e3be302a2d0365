"""The card search language's index for a static copy of the site: /<game>/search/fields/.

A server runs a query as SQL (`charnel.query`); a static host has none, so the build evaluates
each field's SQL expression once per card and publishes the values, and the browser
(site_templates/site/fieldsearch.js) parses the query and applies each kind's meaning to them.
Everything the browser knows of the language comes from here, made from the game's declared
fields: their names and aliases, kinds, closed lists of values, and the language's bounds.

    manifest.json      the fields, their kinds and files, the choices, the result columns
    field-<n>.json     one per distinct expression: each card's value, in result order
    keywords.json      each card's keywords: (slug, printed form) pairs
    cards-<n>.json     the result rows (the columns the server's answer has), SHARD cards each

Cards are in the order results are listed (`order by name, id`), so a card is its position and
a query's matches are already sorted. Columns repeat few values (types, sets, numbers), so a
column with fewer distinct values than cards lists them once and gives each card an index.
`tests/browser/test_field_search_browser.py` holds the browser's answers to the server's over
one list of queries (`tests/field_queries.py`).
"""

from __future__ import annotations

import json
import sqlite3
import string
from collections.abc import Mapping
from pathlib import Path

from charnel import query
from charnel.query import SearchField

FOLDER = "search/fields/"
MANIFEST = "manifest.json"
SHARD = 32  # result rows per file: a first page of ten matches seldom needs more than one


def files(database: Path, fields: Mapping[str, SearchField]) -> dict[str, bytes]:
    """The index's files (path in the game's folder -> bytes), read from the compiled
    database of the game whose search fields are `fields`."""
    conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        return _files(conn, fields)
    finally:
        conn.close()


def _files(conn: sqlite3.Connection, fields: Mapping[str, SearchField]) -> dict[str, bytes]:
    order = [r[0] for r in conn.execute("select id from cards order by name, id")]
    out: dict[str, bytes] = {}
    columns: dict[str, str] = {}  # SQL expression -> file name

    # every expression's values from one pass over the cards: a query each cost more in
    # sorting the cards and making rows than in evaluating the expressions
    exprs = list(dict.fromkeys(
        [f.expr for f in fields.values() if f.kind != "keyword"]
        + [f.text_expr for f in fields.values() if f.text_expr]))
    evaluated: dict[str, tuple] = dict.fromkeys(exprs, ())  # no cards: no values
    found = conn.execute(  # noqa: S608 - trusted
        f"select {', '.join(exprs)} from cards order by name, id").fetchall() if exprs else []
    if found:
        evaluated.update(zip(exprs, zip(*found, strict=True), strict=True))

    def values(expr: str) -> list:
        return list(evaluated[expr])

    def column(expr: str) -> str:
        if expr not in columns:
            name = f"field-{len(columns)}.json"
            out[FOLDER + name] = _dump(_encode(values(expr)))
            columns[expr] = name
        return columns[expr]

    choices = query.load_choices(conn, fields)
    entries: list[dict] = []
    made: dict[int, int] = {}
    names: dict[str, int] = {}
    for name, f in fields.items():
        if id(f) not in made:
            made[id(f)] = len(entries)
            entry: dict = {"kind": f.kind}
            if f.kind == "keyword":
                entry["file"] = "keywords.json"
            elif f.kind == "text" and f not in choices and "codes" not in _encode(
                    column_values := values(f.expr)):
                # free text, no two values alike (names, rules text): in blocks, found
                # through the blocks each three letters are in
                entry["blocks"] = _blocked(column_values, f"field-{len(columns)}", out)
                columns[f"\0{f.expr}"] = entry["blocks"]["file"]
                # and whole, for a value of fewer than three letters or found in many blocks
                entry["file"] = column(f.expr)
            else:
                entry["file"] = column(f.expr)
            if f.text_expr:
                entry["text_file"] = column(f.text_expr)
            if f in choices:
                entry["choices"] = list(choices[f])
            entries.append(entry)
        names[name] = made[id(f)]
    if any(e["kind"] == "keyword" for e in entries):
        out[FOLDER + "keywords.json"] = _dump(_keywords(conn, order))
    result = query.result_columns(fields)
    if "text" not in result:
        result.append("text")
    rows = conn.execute(query.Compiled("1").select(result)).fetchall()
    for start in range(0, len(rows), SHARD):
        out[FOLDER + f"cards-{start // SHARD}.json"] = _dump(rows[start : start + SHARD])
    manifest = {
        "cards": len(order),
        "shard": SHARD,
        "columns": result,
        "names": names,
        "fields": entries,
        "operators": list(query.OPERATORS),
        "bounds": {"length": query.MAX_LENGTH, "depth": query.MAX_DEPTH,
                   "terms": query.MAX_TERMS, "digits": query.MAX_DIGITS},
    }
    out[FOLDER + MANIFEST] = _dump(manifest)
    return dict(sorted(out.items()))


def _encode(values: list) -> dict:
    """A column: its distinct values once and an index per card when they repeat, else the
    values themselves."""
    distinct = sorted(set(values),
                      key=lambda v: (v is None, str(type(v)), v if v is not None else 0))
    if len(distinct) * 2 <= len(values):
        at = {v: i for i, v in enumerate(distinct)}
        return {"values": distinct, "codes": [at[v] for v in values]}
    return {"values": values}


BLOCKS = 64  # a free-text field's values are in this many files
GRAM_FILES = 16  # and which of them hold each three letters, in this many
_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


def _blocked(values: list, name: str, out: dict[str, bytes]) -> dict:
    """A free-text column in BLOCKS files of consecutive cards, and for each three letters
    (as `like` and `collate nocase` read them: ASCII letters in lower case), the blocks
    holding a value with them: a value contains a word only where every three letters of the
    word are, so a query fetches those blocks' values, not the column."""
    span = max(1, -(-len(values) // BLOCKS))  # cards per block
    count = -(-len(values) // span)
    found: dict[str, list[int]] = {}  # three letters -> the blocks holding them, in order
    for block in range(count):
        part = values[block * span : (block + 1) * span]
        out[f"{FOLDER}{name}-{block}.json"] = _dump(part)
        # a block's three-letter sets are joined first: a gram met in many of its cards is
        # then looked up once per block, not once per card
        grams: set[str] = set()
        for value in part:
            if value is not None:
                text = str(value).translate(_ASCII_LOWER)
                grams.update([text[i : i + 3] for i in range(len(text) - 2)])
        for gram in grams:
            found.setdefault(gram, []).append(block)
    files: list[dict[str, list[int]]] = [{} for _ in range(GRAM_FILES)]
    for gram in sorted(found):
        files[gram_file(gram)][gram] = found[gram]
    for at, listed in enumerate(files):
        out[f"{FOLDER}{name}-grams-{at}.json"] = _dump(listed)
    return {"file": name, "span": span, "count": count, "grams": GRAM_FILES,
            "nulls": [at for at, value in enumerate(values) if value is None]}


def gram_file(gram: str) -> int:
    """Which file lists the blocks of three letters (fieldsearch.js reckons it the same)."""
    return sum(map(ord, gram)) % GRAM_FILES


def _keywords(conn: sqlite3.Connection, order: list[str]) -> dict:
    """Each card's keywords, as the SQL meaning of `kw:` reads them: its slug, and its printed
    form without spaces when that form starts with the keyword's name (null when it does not,
    as such a form never matches)."""
    pairs: list[tuple[str, str | None]] = []
    at: dict[tuple[str, str | None], int] = {}
    of: dict[str, list[int]] = {card: [] for card in order}
    rows = conn.execute(
        "select ck.card_id, ck.keyword, replace(lower(ck.text), ' ', ''), "
        "instr(replace(lower(ck.text), ' ', ''), replace(lower(k.name), ' ', '')) = 1 "
        "from card_keywords ck left join keywords k on k.term = ck.keyword "
        "order by ck.card_id, ck.rowid"
    )
    for card, slug, printed, starts in rows:
        pair = (slug, printed if starts else None)
        if pair not in at:
            at[pair] = len(pairs)
            pairs.append(pair)
        if card in of and at[pair] not in of[card]:
            of[card].append(at[pair])
    return {"pairs": [list(p) for p in pairs], "cards": [of[card] for card in order]}


def _dump(value) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
