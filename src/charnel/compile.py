"""The emit stage for SQLite: verified records -> build/<game>.db.

Tables come from `charnel.schema` (SQLModel); rows are inserted with plain executemany in one
transaction, in primary-key order, so the same sources give a byte-identical file. The file is
written beside the target and renamed into place: a failed build leaves the old one intact.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from sqlalchemy.dialects import sqlite
from sqlalchemy.schema import CreateIndex, CreateTable

from charnel import __version__, coverage, games, markdown, schema
from charnel.games.base import Outcome
from charnel.sources.rules_md import RULE_REF
from charnel.verify import Verified

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


def fts_columns(table: str, game: games.Game) -> tuple[str, ...]:
    columns = FTS[table]
    if table == "cards":
        columns = (*columns[:2], *game.full_text, *columns[2:])
    return columns


def site_links(kind: str, target: str) -> str:
    return f"/rules/{target}/" if kind == "rule" else f"/glossary/{target}/"


# Most card and ruling texts are plain sentences: no Markdown syntax, no rule numbers. They
# render to their escaped selves, so markdown-it (most of compile's time) is skipped for them.
# tests/test_compile_html.py holds the shortcut to the full renderer's output.
_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9 ,.;:'\"()+\-/?%=]*(?<! )")


def html(
    text: str, resolve: markdown.Resolver = markdown._no_links, *, inline: bool = False
) -> str:
    """Markdown to HTML, as `markdown.render` does it, with a shortcut for plain text."""
    if _PLAIN.fullmatch(text) and not RULE_REF.search(text):
        escaped = text.replace('"', "&quot;")
        return escaped if inline else f"<p>{escaped}</p>\n"
    return markdown.render(text, resolve, inline=inline)


def rows(verified: Verified, outcomes: Iterable[Outcome]) -> dict[str, list[dict[str, Any]]]:
    """Every row of every table, keyed by table name, each list in primary-key order."""
    records = verified.records
    info = records.info
    game = games.get(info.id)
    render = lambda text: html(text, site_links)  # noqa: E731
    out: dict[str, list[dict[str, Any]]] = {}
    out["games"] = [
        {
            "id": info.id,
            "title": info.title,
            "publisher": info.publisher,
            "published": info.published,
            "rules_version": info.rules_version,
            "rules_date": info.rules_date,
            "rulebook": info.rulebook,
            "description": info.description,
            "card_pool_note": info.card_pool_note,
        }
    ]
    enums = [("rarity", info.rarities)] + sorted(info.enums.items())
    out["enum_values"] = [
        {
            "enum": enum,
            "id": v.id,
            "name": v.name,
            "color": v.color,
            "symbol": v.symbol,
            "position": i,
        }
        for enum, values in enums
        for i, v in enumerate(values)
    ]
    out["card_types"] = [
        {"id": t.id, "name": t.name, "plural": t.plural, "position": i}
        for i, t in enumerate(info.card_types)
    ]
    counts: dict[str, int] = {}
    for card in records.cards:
        counts[card.set_code] = counts.get(card.set_code, 0) + 1
    out["sets"] = [
        {
            "code": s.code,
            "name": s.name,
            "released": s.released,
            "symbol": s.symbol,
            "description": s.description,
            "card_count": counts.get(s.code, 0),
        }
        for s in info.sets
    ]
    keyword_cards: dict[str, set[str]] = {}
    cards, card_keywords, rulings, refs = [], [], [], []
    covered = coverage.measure(verified)
    executable = {c.card: c.executable for c in covered.cards}
    for card in records.cards:
        text = verified.card_text[card.slug]
        for i, use in enumerate(text.keywords):
            keyword_cards.setdefault(use.keyword, set()).add(card.slug)
            card_keywords.append(
                {
                    "card_id": card.slug,
                    "position": i,
                    "keyword": use.keyword,
                    "params": json.dumps(use.params, sort_keys=True),
                    "text": use.text,
                }
            )
        cards.append(
            {
                "id": card.slug,
                "name": card.name,
                "set_code": card.set_code,
                "number": card.number,
                "type": card.type,
                "rarity": card.rarity,
                "cost": card.cost,
                "cost_value": card.cost_value,
                "text": card.text,
                "text_html": html(card.text, site_links, inline=True),
                "flavor": card.flavor,
                # a JSON array: Datasette facets on it and filters with keywords__arraycontains
                "keywords": json.dumps(sorted({u.keyword for u in text.keywords})),
                "executable": executable[card.slug],
                "effects": json.dumps(card.effects, sort_keys=True, ensure_ascii=False),
                "path": card.origin.path,
                **game.card_row(card),
            }
        )
        for i, ruling in enumerate(card.rulings, start=1):
            rid = f"{card.slug}-{i}"
            rulings.append(
                {
                    "id": rid,
                    "card_id": card.slug,
                    "date": ruling.date,
                    "source": ruling.source,
                    "text": ruling.text,
                    "text_html": render(ruling.text),
                    "rules": ",".join(ruling.rules),
                }
            )
            refs += [_ref("ruling", rid, "rule", n) for n in ruling.rules]
    out["cards"] = sorted(cards, key=lambda r: r["id"])
    out["card_keywords"] = sorted(card_keywords, key=lambda r: (r["card_id"], r["position"]))
    out["rulings"] = sorted(rulings, key=lambda r: r["id"])

    terms = [(t, False) for t in records.glossary.terms] + [
        (t, True) for t in records.glossary.lore
    ]
    out["glossary_terms"] = sorted(
        (
            {
                "slug": t.slug,
                "term": t.term,
                "definition": t.definition,
                "definition_html": render(t.definition),
                "lore": lore,
                "keyword": t.keyword is not None,
                "rules": ",".join(t.rules),
                "aliases": ",".join(t.aliases),
                "position": i,
            }
            for i, (t, lore) in enumerate(terms)
        ),
        key=lambda r: r["slug"],
    )
    out["keywords"] = sorted(
        (
            {
                "term": t.slug,
                "name": t.term,
                "syntax": t.keyword.syntax,
                "params": json.dumps(t.keyword.params, sort_keys=True),
                "stacking": t.keyword.stacking,
                "applies_to": t.keyword.applies_to,
                "card_count": len(keyword_cards.get(t.slug, ())),
            }
            for t in records.keywords
        ),
        key=lambda r: r["term"],
    )
    for t, _ in terms:
        refs += [_ref("term", t.slug, "rule", n) for n in t.rules]
    out["rule_sections"] = sorted(
        (
            {
                "number": s.number,
                "title": s.title,
                "slug": s.slug,
                "intro": s.intro,
                "intro_html": render(s.intro),
                "path": s.path,
                "position": s.order,
            }
            for s in records.sections
        ),
        key=lambda r: r["number"],
    )
    out["rules"] = sorted(
        (
            {
                "number": c.number,
                "parent": c.parent,
                "section": c.section,
                "level": c.level,
                "title": c.title,
                "text": c.text,
                "text_html": render(c.text),
                "pages": c.pages,
                "position": c.order,
                "path": c.origin.path,
                "line": c.origin.line,
            }
            for c in records.clauses
        ),
        key=lambda r: r["number"],
    )
    for c in records.clauses:
        refs += [_ref("rule", c.number, r.kind, r.target) for r in c.refs]
    out["examples"] = sorted(
        (
            {
                "id": e.id,
                "title": e.title,
                "owner_kind": e.owner_kind,
                "owner": e.owner,
                "body": json.dumps(e.body, sort_keys=True, ensure_ascii=False),
                "path": e.origin.path,
                "line": e.origin.line,
            }
            for e in records.examples
        ),
        key=lambda r: r["id"],
    )
    for e in records.examples:
        refs += [_ref("example", e.id, "rule", n) for n in e.cites]
        if e.owner_kind == "rule":
            refs.append(_ref("example", e.id, "rule", e.owner))
    out["rule_refs"] = sorted(
        {tuple(r.items()): r for r in refs}.values(), key=lambda r: tuple(r.values())
    )
    results = sorted(
        (
            {"example_id": o.example, "card_id": o.card, "passed": o.passed, "message": o.message}
            for o in outcomes
        ),
        key=lambda r: (r["card_id"] or "", r["example_id"]),
    )
    out["example_results"] = [{"id": i, **r} for i, r in enumerate(results, start=1)]
    out["meta"] = sorted(
        (
            {"key": "game", "value": info.id},
            {"key": "rules_version", "value": info.rules_version},
            {"key": "rules_date", "value": info.rules_date},
            {"key": "source_hash", "value": records.source_hash},
            {"key": "charnel_version", "value": __version__},
            {"key": "coverage", "value": covered.figure},
            {"key": "cards_executable", "value": str(covered.executable)},
            {"key": "cards_total", "value": str(covered.total)},
        ),
        key=lambda r: r["key"],
    )
    for name, extra in game.extra_rows(records).items():
        out[name] = extra
    return out


def _ref(source_kind: str, source_id: str, target_kind: str, target: str) -> dict[str, str]:
    return {
        "source_kind": source_kind,
        "source_id": source_id,
        "target_kind": target_kind,
        "target": target,
    }


def write(verified: Verified, outcomes: Iterable[Outcome], target: Path) -> Path:
    """Write the database to `target` atomically; returns the target."""
    game = games.get(verified.records.info.id)
    return write_rows(game, rows(verified, outcomes), target)


def write_rows(game: games.Game, table_rows: dict[str, list[dict]], target: Path) -> Path:
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


def _write(game: games.Game, table_rows: dict[str, list[dict]], path: Path) -> None:
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
