"""The emit stage for SQLite: verified records -> build/<game>.db.

Tables come from `charnel.schema` (SQLModel); rows are inserted with plain executemany in one
transaction, in primary-key order, so the same sources give a byte-identical file. The file is
written beside the target and renamed into place: a failed build leaves the old one intact.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from sqlalchemy.dialects import sqlite
from sqlalchemy.schema import CreateIndex, CreateTable

from charnel import rows as table_rows
from charnel import schema
from charnel.game import Game
from charnel.records import Outcome
from charnel.rows import html, site_links
from charnel.verify import Verified

__all__ = ["html", "rows", "site_links", "write", "write_rows"]

FTS = {
    # table: (fts columns, ...); the cards table adds the game's `full_text` columns
    "cards": ("name", "text", "flavor"),
    "rules": ("number", "title", "text"),
    "glossary_terms": ("term", "definition"),
    "rulings": ("text",),
}
# Words are matched by their stems (Porter: 'reaps' finds 'reaping'), accents folded; the
# prefix indexes answer the prefix queries Datasette's search makes ('reap' finds 'Reaper',
# see charnel.serve.plugin) without a scan of the term list.
FTS_OPTIONS = "tokenize='porter unicode61 remove_diacritics 2', prefix='2 3 4'"


def fts_columns(table: str, game: Game) -> tuple[str, ...]:
    columns = FTS[table]
    if table == "cards":
        columns = (*columns[:2], *game.full_text, *columns[2:])
    return columns


def rows(verified: Verified, outcomes: Iterable[Outcome]) -> dict[str, list[dict[str, Any]]]:
    """Every row of every table, keyed by table name, each list in primary-key order."""
    game = verified.records.game
    src = table_rows.Source(verified, list(outcomes), game)
    out = {table.name: table.rows(src) for table in schema.TABLES}
    out.update(game.extra_rows(verified.records))
    return out


def write(verified: Verified, outcomes: Iterable[Outcome], target: Path) -> Path:
    """Write the database to `target` atomically; returns the target."""
    game = verified.records.game
    return write_rows(game, rows(verified, outcomes), target)


def write_rows(game: Game, table_rows: dict[str, list[dict]], target: Path) -> Path:
    """Write rows made by `rows` to `target` atomically; returns the target."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    try:
        _write(game, table_rows, tmp)
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)
    return target


def ddl(db_schema: schema.Schema) -> list[str]:
    """CREATE statements for every table and index, in a fixed order.

    SQLAlchemy keeps a table's indexes in a set, so `create_all` emits them in an order that
    changes with the hash seed; naming the order here keeps the file byte-identical.
    """
    dialect = sqlite.dialect()
    statements = []
    for table in db_schema.metadata.sorted_tables:
        statements.append(str(CreateTable(table).compile(dialect=dialect)))
        for index in sorted(table.indexes, key=lambda i: i.name):
            statements.append(str(CreateIndex(index).compile(dialect=dialect)))
    return statements


def _write(game: Game, table_rows: dict[str, list[dict]], path: Path) -> None:
    db_schema = schema.for_game(game)
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode=OFF")
        conn.execute("PRAGMA synchronous=OFF")
        conn.execute("BEGIN")
        for statement in ddl(db_schema):
            conn.execute(statement)
        for name in db_schema.tables:
            data = table_rows.get(name, [])
            if not data:
                continue
            columns = list(db_schema.table(name).columns.keys())
            sql = (
                f'INSERT INTO "{name}" ({", ".join(columns)}) '
                f"VALUES ({', '.join(':' + c for c in columns)})"
            )
            conn.executemany(sql, data)
        for table in FTS:
            cols = ", ".join(fts_columns(table, game))
            conn.execute(
                f'CREATE VIRTUAL TABLE "{table}_fts" '
                f'USING fts5({cols}, content="{table}", {FTS_OPTIONS})'
            )
            conn.execute(
                f'INSERT INTO "{table}_fts" (rowid, {cols}) SELECT rowid, {cols} FROM "{table}"'
            )
            conn.execute(f"INSERT INTO \"{table}_fts\" ({table}_fts) VALUES ('optimize')")
        conn.execute("COMMIT")
        conn.execute("VACUUM")
    finally:
        conn.close()
