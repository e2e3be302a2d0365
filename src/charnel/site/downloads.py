"""The /data/ downloads: the SQLite file itself, and every table as JSON and as CSV.

Read back from the compiled database, so the downloads are exactly what Datasette serves.
A rebuild exports again only the tables whose stored rows changed. Each table's digest is
taken from the bytes of the pages that hold its rows (found with SQLite's dbstat table), far
cheaper than exporting it: equal pages hold equal rows. The compile stage is deterministic,
so a table whose rows did not change is stored in the same bytes; a table whose pages moved
only looks changed and is exported again, never the other way round.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from charnel.spreadsheet import guard


@dataclass
class Exported:
    made: dict[str, bytes] = field(default_factory=dict)  # files made in this build, by name
    kept: list[str] = field(default_factory=list)  # the last build's files, still right
    state: dict = field(default_factory=dict)  # table digests and JSON places, for the next build


def export(
    database: Path, game: str, previous: dict | None = None,
    last: Callable[[str], Path | None] = lambda name: None,
) -> Exported:
    """The download files of `database`: <game>.db, <game>.json, and <table>.csv for every
    table. `previous` is the `state` of the last export; `last(name)` is where the last
    export's file `name` still is (None when it is gone). A CSV whose table is unchanged is
    kept instead of made again, and the JSON of an unchanged table is cut from the last JSON.

    Every ordinary table (not the full-text shadows) is exported, rows in rowid order. SQLite
    writes the JSON rows itself (json_object): half the cost of building them in Python."""
    previous = previous or {}
    conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        names = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND sql NOT LIKE 'CREATE VIRTUAL%' "
            "AND name NOT LIKE '%_fts%' AND name NOT LIKE 'sqlite_%' ORDER BY name"
        )]
        data = database.read_bytes()
        digests = _digests(conn, data)
        before = previous.get("tables", {})
        same = {n for n in names if n in digests and before.get(n) == digests[n]}
        out = Exported(made={f"{game}.db": data})
        for name in names:
            file = f"{name}.csv"
            if name in same and last(file) is not None:
                out.kept.append(file)
            else:
                out.made[file] = _csv(conn, name)
        fragments = _json_fragments(conn, names, same, previous, _last_json(game, previous, last))
        places, start = {}, 1
        for name, fragment in fragments:
            places[name] = [start, start + len(fragment)]
            start += len(fragment) + 1
        # tables by name, columns in table order: the same bytes Python's json would write
        whole = b"{" + b",".join(f for _, f in fragments) + b"}"
        out.made[f"{game}.json"] = whole
        out.state = {"tables": digests, "json": places,
                     "json_sha256": hashlib.sha256(whole).hexdigest()}
        return out
    finally:
        conn.close()


def files(database: Path, game: str) -> dict[str, bytes]:
    """Every download file by name, all made afresh."""
    return export(database, game).made


def _last_json(game: str, previous: dict, last: Callable[[str], Path | None]) -> bytes | None:
    """The last export's JSON, if it is still in place and as it was written."""
    path = last(f"{game}.json")
    if path is None or "json_sha256" not in previous:
        return None
    data = path.read_bytes()
    return data if hashlib.sha256(data).hexdigest() == previous["json_sha256"] else None


def _digests(conn: sqlite3.Connection, data: bytes) -> dict[str, str]:
    """A digest of each table's stored rows and columns; {} where SQLite has no dbstat."""
    try:
        stored = conn.execute(
            "SELECT name, pageno, pagetype FROM dbstat ORDER BY name, path"
        ).fetchall()
    except sqlite3.OperationalError:
        return {}
    size = conn.execute("PRAGMA page_size").fetchone()[0]
    tables = conn.execute("SELECT name, sql FROM sqlite_master WHERE type='table'").fetchall()
    digests = {name: hashlib.sha256(sql.encode()) for name, sql in tables}
    # A rowid table keeps its rows in leaf (and overflow) pages; its interior pages hold only
    # rowids and page numbers, which move with the file. A table without rowids keeps rows in
    # its interior pages too, so all of them count.
    keyed = {name for name, sql in tables if "WITHOUT ROWID" in sql.upper()}
    for name, page, kind in stored:
        if name in digests and (kind != "internal" or name in keyed):
            digests[name].update(memoryview(data)[(page - 1) * size : page * size])
    return {name: digest.hexdigest() for name, digest in digests.items()}


def _json_fragments(
    conn: sqlite3.Connection, names: list[str], same: set[str], previous: dict,
    last_json: bytes | None,
) -> list[tuple[str, bytes]]:
    """`"table":[rows]` for each table: cut from the last JSON file where the table is
    unchanged, made by SQLite otherwise."""
    places = previous.get("json", {}) if last_json is not None else {}
    fragments = []
    for name in names:
        if name in same and name in places:
            start, end = places[name]
            fragments.append((name, last_json[start:end]))
            continue
        cols = [d[0] for d in conn.execute(f"SELECT * FROM {_quoted(name)} LIMIT 0").description]
        pairs = ",".join(f"{_quoted(c, chr(39))},{_quoted(c)}" for c in cols)  # 'name',"name"
        rows = conn.execute(  # the inner query's order is the order the rows are aggregated
            f"SELECT coalesce(json_group_array(json(o)), '[]') FROM "
            f"(SELECT json_object({pairs}) AS o FROM {_quoted(name)} ORDER BY rowid)"
        ).fetchone()[0]
        fragments.append((name, f"{json.dumps(name)}:{rows}".encode()))
    return fragments


def _csv(conn: sqlite3.Connection, name: str) -> bytes:
    cursor = conn.execute(f"SELECT * FROM {_quoted(name)} ORDER BY rowid")
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([d[0] for d in cursor.description])
    writer.writerows([guard(v) if isinstance(v, str) else v for v in row] for row in cursor)
    return buffer.getvalue().encode("utf-8")


def _quoted(name: str, quote: str = '"') -> str:
    """An SQL identifier ("name") or, with quote="'", a string literal ('name')."""
    return quote + name.replace(quote, quote * 2) + quote
