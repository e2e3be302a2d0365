"""The compiled card pool for other tools, read from build/<game>.db.

JSON is shaped like the card-data dumps people already use: one object per card with its
keywords, rulings and examples nested, under the game, its sets and the build's coverage figure.
JSON Lines (`jsonl`) is the same card objects, one a line and nothing else, for tools that
stream records (jq, DuckDB, pandas).
CSV is one row per card with exactly the columns `charnel import csv` reads back, so an
export imported into an empty project gives the same cards.

Columns named `effects` or ending in `_effects` hold JSON text in the database; the JSON
export nests them as data and the CSV export keeps them as JSON text.
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path
from typing import Any

from charnel import registry
from charnel.fields import ordinal, reading_order
from charnel.game import Game
from charnel.spreadsheet import guard

FORMATS = ("json", "jsonl", "csv")
# columns the importer derives itself, or that only make sense inside the database
NOT_IN_CSV = {"text_html", "path", "keywords", "executable"}  # and a cost's value
NOT_IN_JSON = {"text_html", "path", "keywords"}


def export(database: Path, fmt: str) -> str:
    """The card pool of a compiled database as JSON or CSV text."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown export format '{fmt}' (use {', '.join(FORMATS)})")
    conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    try:
        if fmt == "csv":
            return _csv(conn)
        return _json(conn) if fmt == "json" else _jsonl(conn)
    finally:
        conn.close()


def _is_json(column: str) -> bool:
    return column == "effects" or column.endswith("_effects")


LAST = ("text", "flavor", "effects")


def _game(conn: sqlite3.Connection) -> Game:
    return registry.get(conn.execute("SELECT id FROM games").fetchone()[0])


def _first(game: Game) -> tuple[str, ...]:
    """The columns a reader looks for first: identity, the game's fields declared before its
    cost (a collector number, a clan), the type, the cost as printed."""
    lead, cost = reading_order(game.fields)
    lead_columns = [c.name for f in lead for c in f.stored()]
    return ("id", "name", "set_code", *lead_columns, "type", *([cost.name] if cost else []))


def _card_columns(conn: sqlite3.Connection) -> tuple[list[str], set[str]]:
    """Column names of the cards table in reading order, and the ones declared BOOLEAN."""
    info = conn.execute('PRAGMA table_info("cards")').fetchall()
    names = [r["name"] for r in info]
    first = _first(_game(conn))
    middle = [n for n in names if n not in first + LAST]
    ordered = [n for n in first if n in names] + middle + [n for n in LAST if n in names]
    return ordered, {r["name"] for r in info if r["type"].upper() == "BOOLEAN"}


def _cards(conn: sqlite3.Connection) -> list[sqlite3.Row]:
    # by set, then the number within it when the game has one (a column name it declares)
    number = ordinal(_game(conn).fields)
    within = f"cards.{number.name}, " if number else ""
    return conn.execute(
        "SELECT cards.* FROM cards JOIN sets ON sets.code = cards.set_code "
        f"ORDER BY sets.released, sets.code, {within}cards.id"
    ).fetchall()


def _rulings(conn: sqlite3.Connection) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    rows = conn.execute("SELECT * FROM rulings ORDER BY card_id, rowid").fetchall()
    for r in sorted(rows, key=lambda r: (r["card_id"], int(r["id"].rsplit("-", 1)[1]))):
        out.setdefault(r["card_id"], []).append({
            "date": r["date"], "source": r["source"], "text": r["text"],
            "rules": [n for n in r["rules"].split(",") if n],
        })
    return out


def _examples(conn: sqlite3.Connection) -> dict[str, list[dict[str, Any]]]:
    """Examples written in card files, by card, in the order they were written."""
    out: dict[str, list[dict[str, Any]]] = {}
    rows = conn.execute(
        "SELECT owner, body FROM examples WHERE owner_kind = 'card' ORDER BY owner, line"
    )
    for r in rows:
        body = json.loads(r["body"])
        first = {k: body.pop(k) for k in ("id", "title") if k in body}
        out.setdefault(r["owner"], []).append({**first, **body})
    return out


def _keywords(conn: sqlite3.Connection) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for r in conn.execute("SELECT * FROM card_keywords ORDER BY card_id, position"):
        out.setdefault(r["card_id"], []).append(
            {"keyword": r["keyword"], "params": json.loads(r["params"]), "text": r["text"]}
        )
    return out


def _jsonl(conn: sqlite3.Connection) -> str:
    return "".join(json.dumps(card, ensure_ascii=False) + "\n" for card in _card_objects(conn))


def _card_objects(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """One object per card: its columns, then its keywords, rulings and examples nested."""
    columns, booleans = _card_columns(conn)
    rulings, keywords, examples = _rulings(conn), _keywords(conn), _examples(conn)
    cards = []
    for row in _cards(conn):
        card: dict[str, Any] = {}
        for column in columns:
            if column in NOT_IN_JSON:
                continue
            value = row[column]
            if column in booleans and value is not None:
                value = bool(value)
            elif _is_json(column) and value is not None:
                value = json.loads(value)
            card["set" if column == "set_code" else column] = value
        card["keywords"] = keywords.get(row["id"], [])
        card["rulings"] = rulings.get(row["id"], [])
        card["examples"] = examples.get(row["id"], [])
        cards.append(card)
    return cards


def _json(conn: sqlite3.Connection) -> str:
    game = dict(conn.execute("SELECT * FROM games").fetchone())
    meta = {r["key"]: r["value"] for r in conn.execute("SELECT key, value FROM meta ORDER BY key")}
    sets = [dict(r) for r in conn.execute("SELECT * FROM sets ORDER BY released, code")]
    document = {
        "game": game,
        "meta": {k: meta[k] for k in ("rules_version", "rules_date", "source_hash", "coverage")
                 if k in meta},
        "sets": sets,
        "cards": _card_objects(conn),
    }
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def _csv(conn: sqlite3.Connection) -> str:
    columns, booleans = _card_columns(conn)
    derived = {c.name for f in _game(conn).fields if f.cost for c in f.stored()[1:]}
    kept = [c for c in columns if c not in NOT_IN_CSV | derived]
    header = ["set" if c == "set_code" else c for c in kept] + ["rulings", "examples"]
    rulings, examples = _rulings(conn), _examples(conn)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    for row in _cards(conn):
        cells = []
        for column in kept:
            value = row[column]
            if value is None:
                cells.append("")
            elif column in booleans:
                cells.append("true" if value else "false")
            else:
                cells.append(guard(str(value)))
        for nested in (rulings, examples):
            found = nested.get(row["id"])
            cells.append(json.dumps(found, ensure_ascii=False) if found else "")
        writer.writerow(cells)
    return buffer.getvalue()
