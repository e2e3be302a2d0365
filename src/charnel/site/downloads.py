"""The /data/ downloads: the SQLite file itself, and every table as JSON and as CSV.

Read back from the compiled database, so the downloads are exactly what Datasette serves.
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path


def tables(database: Path) -> dict[str, tuple[list[str], list[tuple]]]:
    """Every ordinary table (not the full-text shadows), rows in primary-key order."""
    conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        names = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND sql NOT LIKE 'CREATE VIRTUAL%' "
            "AND name NOT LIKE '%_fts%' AND name NOT LIKE 'sqlite_%' ORDER BY name"
        )]
        out = {}
        for name in names:
            cursor = conn.execute(f'SELECT * FROM "{name}" ORDER BY rowid')
            out[name] = ([d[0] for d in cursor.description], cursor.fetchall())
        return out
    finally:
        conn.close()


def files(database: Path, game: str) -> dict[str, bytes]:
    """Download files by name: <game>.db, <game>.json, and <table>.csv for every table."""
    data = tables(database)
    out = {f"{game}.db": database.read_bytes()}
    as_json = {name: [dict(zip(cols, row, strict=True)) for row in rows]
               for name, (cols, rows) in data.items()}
    # tables by name, columns in table order: deterministic without sorting every row's keys
    out[f"{game}.json"] = json.dumps(as_json, ensure_ascii=False, separators=(",", ":")).encode()
    for name, (cols, rows) in data.items():
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(cols)
        writer.writerows(rows)
        out[f"{name}.csv"] = buffer.getvalue().encode("utf-8")
    return out
