"""The /data/ downloads: the SQLite file itself, and every table as JSON and as CSV.

Read back from the compiled database, so the downloads are exactly what Datasette serves.
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path


def files(database: Path, game: str) -> dict[str, bytes]:
    """Download files by name: <game>.db, <game>.json, and <table>.csv for every table.

    Every ordinary table (not the full-text shadows) is exported, rows in rowid order. SQLite
    writes the JSON rows itself (json_object): half the cost of building them in Python."""
    conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        names = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND sql NOT LIKE 'CREATE VIRTUAL%' "
            "AND name NOT LIKE '%_fts%' AND name NOT LIKE 'sqlite_%' ORDER BY name"
        )]
        out = {f"{game}.db": database.read_bytes()}
        tables = []
        for name in names:
            cursor = conn.execute(f"SELECT * FROM {_quoted(name)} ORDER BY rowid")
            cols = [d[0] for d in cursor.description]
            buffer = io.StringIO()
            writer = csv.writer(buffer, lineterminator="\n")
            writer.writerow(cols)
            writer.writerows(cursor)
            out[f"{name}.csv"] = buffer.getvalue().encode("utf-8")
            pairs = ",".join(f"{_quoted(c, chr(39))},{_quoted(c)}" for c in cols)  # 'name',"name"
            rows = conn.execute(  # the inner query's order is the order the rows are aggregated
                f"SELECT coalesce(json_group_array(json(o)), '[]') FROM "
                f"(SELECT json_object({pairs}) AS o FROM {_quoted(name)} ORDER BY rowid)"
            ).fetchone()[0]
            tables.append(f"{json.dumps(name)}:{rows}")
        # tables by name, columns in table order: the same bytes Python's json would write
        out[f"{game}.json"] = ("{" + ",".join(tables) + "}").encode("utf-8")
        return out
    finally:
        conn.close()


def _quoted(name: str, quote: str = '"') -> str:
    """An SQL identifier ("name") or, with quote="'", a string literal ('name')."""
    return quote + name.replace(quote, quote * 2) + quote
