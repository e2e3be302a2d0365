"""A game's database made from the last build's: after an edit, only what changed is made.

The last build keeps, beside its database, each card's identity (`run_keys.card_identities`)
under a digest of the game facts and glossary its rows read, with whether the engine runs its
text; a digest of the rows of every table that is not one card's, of the sources that are not
cards and of every outcome; and the HTML of each Markdown text it rendered, by the text
(`remember`). The next build copies the last database into memory and, in one transaction,
updates the rows of the cards whose key changed in place (their row ids are kept), makes the
other tables' rows again only where what they read changed (`rows.READS`; a text rendered last
time is not rendered again), replaces a table only when its rows' digest changed, and indexes
again the text of the tables it changed. A card added or removed, or a card whose rows are more
or fewer, makes its tables again whole: row ids follow the primary key. `compile.save` then
writes the file from the content alone, so it is the one a whole build writes, byte for byte
(`tests/database_edits.py`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from charnel import compile
from charnel.records import GameRecords, Outcome
from charnel.rows import PER_CARD, READS, Row, Source
from charnel.run_keys import facts_digest
from charnel.verify import Verified


def write(
    verified: Verified,
    outcomes: Iterable[Outcome],
    target: Path,
    kept: dict,
    previous: Path | None = None,
) -> Path:
    """Write the database to `target` atomically; returns the target. `kept`: what the last
    build kept of its database, updated to this one's; with it and `previous`, the last
    build's database, only the rows that changed are made and written."""
    rendered = kept.get("html")
    src = Source(verified, list(outcomes), verified.records.game,
                 rendered=rendered if isinstance(rendered, dict) else {})
    conn = update(src, previous, kept) if previous is not None else None
    if conn is None:
        made = compile.source_rows(src)
        conn = compile.fill(src.game, made)
        remember(src, {name: _digest(rows) for name, rows in made.items()
                       if name not in PER_CARD}, kept)
    compile.save(conn, target)
    return target


def card_keys(src: Source) -> dict[str, str]:
    """Card slug -> the key of its rows, among those of one `facts_digest`."""
    return {card.slug: key
            for card, key in zip(src.records.cards, src.verified.identities, strict=True)}


def _digest(rows: list[Row]) -> str:
    return hashlib.sha256(repr(rows).encode()).hexdigest()


def pool_digest(records: GameRecords) -> str:
    """A digest of the sources that are not cards, every value the tables read of them: the
    game's facts, the glossary, the rulebook's sections and clauses, the examples."""
    digest = hashlib.sha256(facts_digest(records).encode())
    for value in (*records.sections, *records.clauses, *records.examples):
        # an example's parsed document is its origin and body, given beside it
        parts = [getattr(value, f.name) for f in dataclasses.fields(value) if f.name != "doc"]
        digest.update(repr((type(value).__name__, parts, value.origin)).encode())
    return digest.hexdigest()


def outcomes_digest(outcomes: list[Outcome]) -> str:
    """A digest of every outcome, as the results table reads them."""
    return hashlib.sha256(
        repr([(o.example, o.card, o.passed, o.message) for o in outcomes]).encode()
    ).hexdigest()


def remember(src: Source, tables: dict[str, str], kept: dict, *,
             keys: dict[str, str] | None = None, facts: str | None = None,
             pool: str | None = None, outcomes: str | None = None) -> None:
    """Fill `kept` with what the next build needs to update the database described by
    `tables`, the digest of each table's rows but the cards' (`_digest`)."""
    keys = keys if keys is not None else card_keys(src)
    kept.clear()
    kept["facts"] = facts or facts_digest(src.records)
    kept["cards"] = {slug: (key, src.executable[slug]) for slug, key in keys.items()}
    kept["tables"] = dict(sorted(tables.items()))
    kept["pool"] = pool or pool_digest(src.records)
    kept["outcomes"] = outcomes or outcomes_digest(src.outcomes)
    kept["html"] = dict(sorted(src.made.items()))


def update(src: Source, previous: Path, kept: dict) -> sqlite3.Connection | None:
    """The database in memory, updated from `previous` to the records of `src`, and `kept`
    updated to it; None when it must be made whole (no last database or store, or cards added
    or removed)."""
    keys = card_keys(src)
    old_cards, old_tables = kept.get("cards"), kept.get("tables")
    if not (isinstance(old_cards, dict) and isinstance(old_tables, dict)
            and old_cards.keys() == keys.keys() and previous.is_file()):
        return None
    facts = facts_digest(src.records)
    if kept.get("facts") != facts:  # every card's rows read them
        old_cards = {slug: (None, executable) for slug, (_, executable) in old_cards.items()}
    changed = [c for c in src.records.cards if old_cards[c.slug][0] != keys[c.slug]]
    src.known = {slug: executable for slug, (key, executable) in old_cards.items()
                 if keys[slug] == key}
    game = src.game
    digests = {"pool": pool_digest(src.records), "outcomes": outcomes_digest(src.outcomes)}
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        last = sqlite3.connect(f"file:{previous}?mode=ro", uri=True)
        try:
            last.backup(conn)
        finally:
            last.close()
        touched = set()  # the tables whose indexed text may have changed
        altered: dict[str, set[str]] = {}  # per-card table -> the columns changed
        conn.execute("BEGIN")
        for name, (rows_of, column) in PER_CARD.items():
            if not changed:
                continue
            columns = altered[name] = _replace_cards(
                conn, _Columns(conn, name), column, {c.slug: rows_of(src, c) for c in changed})
            if name in compile.FTS and columns & set(compile.fts_columns(name, game)):
                touched.add(name)

        def same(reads: tuple) -> bool:
            if isinstance(reads, tuple):  # (per-card table, columns...)
                return not altered.get(reads[0], set()) & set(reads[1:])
            return kept.get(reads) == digests[reads]

        # a table whose inputs are those it was made from is not made: its rows are as they were
        kept_as_was = {name for name, reads in READS.items()
                       if name in old_tables and all(map(same, reads))}
        made = compile.source_rows(src, skip={*PER_CARD, *kept_as_was})
        tables = {name: old_tables[name] for name in kept_as_was}
        for name, rows in made.items():
            tables[name] = _digest(rows)
            if old_tables.get(name) != tables[name]:
                conn.execute(f'DELETE FROM "{name}"')
                compile.insert(conn, _Columns(conn, name).names, name, rows)
                touched.add(name)
        for table in compile.FTS:
            if table in touched:
                compile.index_text(conn, game, table, create=False)
        conn.execute("COMMIT")
    except BaseException:
        conn.close()
        raise
    remember(src, tables, kept, keys=keys, facts=facts, **digests)
    return conn


class _Columns:
    """A table's columns in the database, in order, and its primary key's."""

    def __init__(self, conn: sqlite3.Connection, name: str):
        self.name = name
        info = conn.execute(f'PRAGMA table_info("{name}")').fetchall()
        self.names = [row[1] for row in info]
        self.key = [row[1] for row in sorted((r for r in info if r[5]), key=lambda r: r[5])]


def _replace_cards(conn: sqlite3.Connection, table: _Columns, column: str,
                   new: dict[str, list[Row]]) -> set[str]:
    """The rows of the cards in `new` replaced by theirs: in place where a card has as many
    rows as before (a row whose values are the same is left as it is), else the table written
    again in primary-key order. Returns the columns that changed (every one for a table
    written again): a full-text index whose columns did not change need not be made again."""
    name, columns = table.name, table.names
    listed = ", ".join(f'"{c}"' for c in columns)
    updates, changed = [], set()
    for slug, rows in new.items():
        old = conn.execute(f'SELECT rowid, {listed} FROM "{name}" WHERE "{column}" = ? '
                           "ORDER BY rowid", (slug,)).fetchall()
        if len(old) != len(rows):
            _rewrite(conn, table, column, new)
            return set(columns)
        for (rowid, *before), row in zip(old, rows, strict=True):
            after = [row[c] for c in columns]
            if after != before:
                updates.append((*after, rowid))
                changed.update(c for c, a, b in zip(columns, after, before, strict=True)
                               if a != b)
    sets = ", ".join(f'"{c}" = ?' for c in columns)
    conn.executemany(f'UPDATE "{name}" SET {sets} WHERE rowid = ?', updates)
    return changed


def _rewrite(conn: sqlite3.Connection, table: _Columns, column: str,
             new: dict[str, list[Row]]) -> None:
    name, columns = table.name, table.names
    cursor = conn.execute(f'SELECT {", ".join(columns)} FROM "{name}" ORDER BY rowid')
    at = columns.index(column)
    rows: list[Any] = [dict(zip(columns, values, strict=True)) for values in cursor
                       if values[at] not in new]
    rows += [row for made in new.values() for row in made]
    rows.sort(key=lambda row: tuple(row[c] for c in table.key))
    conn.execute(f'DELETE FROM "{name}"')
    compile.insert(conn, columns, name, rows)
