"""The emit stage for SQLite: verified records -> build/<game>.db.

Tables come from `charnel.schema` (SQLModel); rows are inserted with plain executemany in one
transaction, in primary-key order, into a database in memory, which is then written whole
beside the target (VACUUM INTO) and renamed into place: a failed build leaves the old one
intact, and the file depends on the content alone, so the same sources give the same bytes
whether the database was made whole or updated from the last build's
(`charnel.database_update`).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from charnel import rows as table_rows
from charnel.game import Game
from charnel.records import Outcome
from charnel.rows import html, site_links
from charnel.verify import Verified

if TYPE_CHECKING:
    from charnel import schema

__all__ = ["html", "rows", "site_links", "write", "write_rows"]

FTS = {
    # table: (fts columns, ...); the cards table adds the game's `full_text` columns
    "cards": ("name", "text", "flavor"),
    "rules": ("number", "title", "text"),
    "glossary_terms": ("term", "definition"),
    "rulings": ("text",),
}
# Words are matched by their stems (Porter: 'walks' finds 'walking'), accents folded; the
# prefix indexes answer the prefix queries Datasette's search makes ('walk' finds 'Walker',
# see charnel.serve.plugin) without a scan of the term list.
FTS_OPTIONS = "tokenize='porter unicode61 remove_diacritics 2', prefix='2 3 4'"
# How much of an index FTS5 holds in memory before writing it out as a segment (its default is
# 1 MB): the cards' index of 50,000 cards fits whole, so it is written once, not as some dozen
# segments merged again and again (0.42 s to index them, 0.26 s). Kept in the index's config,
# so an index made again (`'rebuild'`) is written the same way.
FTS_PENDING_BYTES = 32 * 1024 * 1024


def fts_columns(table: str, game: Game) -> tuple[str, ...]:
    columns = FTS[table]
    if table == "cards":
        columns = (*columns[:2], *game.full_text, *columns[2:])
    return columns


def rows(verified: Verified, outcomes: Iterable[Outcome]) -> dict[str, list[dict[str, Any]]]:
    """Every row of every table, keyed by table name, each list in primary-key order."""
    return source_rows(table_rows.Source(verified, list(outcomes), verified.records.game))


def source_rows(src: table_rows.Source, skip: Iterable[str] = ()) -> dict[str, list[dict]]:
    """Every table's rows (but those in `skip`) from one `Source`."""
    skip = set(skip)
    out = {name: made(src) for name, made in table_rows.MADE.items() if name not in skip}
    out.update(src.game.extra_rows(src.records))
    return out


def write(verified: Verified, outcomes: Iterable[Outcome], target: Path) -> Path:
    """Write the database to `target` atomically; returns the target. (A build writes it
    through `charnel.database_update`, which makes only what changed since the last build.)"""
    game = verified.records.game
    return write_rows(game, rows(verified, outcomes), target)


def write_rows(game: Game, table_rows: dict[str, list[dict]], target: Path) -> Path:
    """Write rows made by `rows` to `target` atomically; returns the target."""
    save(fill(game, table_rows), target)
    return target


def save(conn: sqlite3.Connection, target: Path) -> None:
    """Write the database `conn` holds to `target`, beside it and renamed into place (a failed
    build leaves the old one intact).

    VACUUM INTO writes the file from the database's content alone, so a database built whole
    and one updated from the last build's give the same bytes; the schema's version number is
    set first, since it counts the changes made to the schema, not what the schema is.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    try:
        conn.execute(f"PRAGMA schema_version = {SCHEMA_VERSION}")
        conn.execute("VACUUM INTO ?", (str(tmp),))
        os.replace(tmp, target)
    finally:
        conn.close()
        tmp.unlink(missing_ok=True)


SCHEMA_VERSION = 1


def ddl(db_schema: schema.Schema) -> list[str]:
    """CREATE statements for every table and index, in a fixed order.

    SQLAlchemy keeps a table's indexes in a set, so `create_all` emits them in an order that
    changes with the hash seed; naming the order here keeps the file byte-identical.
    """
    from sqlalchemy.dialects import sqlite
    from sqlalchemy.schema import CreateIndex, CreateTable

    dialect = sqlite.dialect()
    statements = []
    for table in db_schema.metadata.sorted_tables:
        statements.append(str(CreateTable(table).compile(dialect=dialect)))
        for index in sorted(table.indexes, key=lambda i: i.name):
            statements.append(str(CreateIndex(index).compile(dialect=dialect)))
    return statements


def insert(conn: sqlite3.Connection, columns: list[str], name: str, data: list) -> None:
    """Insert rows (dicts by column) into a table of these columns, in the order given."""
    if not data:
        return
    sql = (
        f'INSERT INTO "{name}" ({", ".join(columns)}) '
        f"VALUES ({', '.join(':' + c for c in columns)})"
    )
    conn.executemany(sql, data)


def index_text(conn: sqlite3.Connection, game: Game, table: str, *, create: bool) -> None:
    """Make a table's full-text index from its rows (again), merged into one segment."""
    cols = ", ".join(fts_columns(table, game))
    if create:
        conn.execute(
            f'CREATE VIRTUAL TABLE "{table}_fts" '
            f'USING fts5({cols}, content="{table}", {FTS_OPTIONS})'
        )
        conn.execute(f'INSERT INTO "{table}_fts" ({table}_fts, rank) '
                     f"VALUES ('hashsize', {FTS_PENDING_BYTES})")
        conn.execute(
            f'INSERT INTO "{table}_fts" (rowid, {cols}) SELECT rowid, {cols} FROM "{table}"'
        )
    else:
        conn.execute(f"INSERT INTO \"{table}_fts\" ({table}_fts) VALUES ('rebuild')")
    conn.execute(f"INSERT INTO \"{table}_fts\" ({table}_fts) VALUES ('optimize')")


def fill(game: Game, table_rows: dict[str, list[dict]]) -> sqlite3.Connection:
    """A database in memory holding the rows."""
    # imported here: the schema's classes (SQLModel, SQLAlchemy: a quarter of a second to
    # import) make a database whole; one updated in place reads its columns from the file
    from charnel import schema

    db_schema = schema.for_game(game)
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        conn.execute("BEGIN")
        for statement in ddl(db_schema):
            conn.execute(statement)
        for name in db_schema.tables:
            insert(conn, list(db_schema.table(name).columns.keys()), name,
                   table_rows.get(name, []))
        for table in FTS:
            index_text(conn, game, table, create=True)
        conn.execute("COMMIT")
    except BaseException:
        conn.close()
        raise
    return conn
