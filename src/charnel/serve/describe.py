"""Describe a compiled game database for Datasette: titles, notes, columns, facets, queries.

Everything comes from the database itself (its `games` row), from the SQLModel schema (column
descriptions) and from the game's card field declarations (facets, cost), so a new column or
game needs no edit here. The result
is one nested dict in Datasette's pre-1.0 metadata shape; `charnel.serve.config` splits it for
Datasette 1.0.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from charnel import schema
from charnel.game import Game
from charnel.history import tables as history_tables
from charnel.serve.queries import canned_queries

# the history tables say what they are in their row models' docstrings
HISTORY_TABLES = {name: " ".join((row.__doc__ or "").split())
                  for name, row, _ in history_tables.TABLES}

TABLES = {
    "games": "The game: title, publisher, the rulebook the rules restate.",
    "enum_values": "The game's lists of values a card field takes, in the game's order.",
    "card_types": "Card types, in the game's order.",
    "sets": "Card sets, with their card counts.",
    "glossary_terms": "Glossary: every term and keyword ability, defined in charnel's words.",
    "keywords": "Keyword abilities: how each is printed, its parameters and how copies stack.",
    "cards": "The card pool, one row per card; `keywords` lists the keyword terms it carries.",
    "card_keywords": "Each keyword printed on each card, with its parameters.",
    "rulings": "Rulings on cards, each citing the rules it rests on.",
    "rule_sections": "Sections of the rules.",
    "rules": "The rules, numbered: sections, rules and sub-rules (`parent` links them).",
    "rule_refs": "Citations: which rule, term, ruling or example cites which rule or term.",
    "examples": "Worked examples, written in the example language and run by the engine.",
    "example_results": "The result of every example run, including each card substituted in.",
    "meta": "Facts about the build: rules version, source hash, charnel version.",
    **HISTORY_TABLES,
}

# Label columns stand for a row where another table points at it.
LABELS = {
    "sets": "name",
    "card_types": "name",
    "glossary_terms": "term",
    "keywords": "name",
    "cards": "name",
    "rule_sections": "title",
    "examples": "title",
}
SORTS = {
    "cards": ("sort", "name"),
    "rules": ("sort", "position"),
    "rule_sections": ("sort", "position"),
    "glossary_terms": ("sort", "term"),
    "rulings": ("sort_desc", "date"),
    "sets": ("sort", "released"),
    "enum_values": ("sort", "position"),
    "card_types": ("sort", "position"),
    "keywords": ("sort", "name"),
}


def database(game: Game, path: Path) -> dict[str, Any]:
    """One game database's entry under Datasette's `databases`."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        info = dict(
            zip(
                ("title", "description", "rulebook", "card_pool_note", "rules_version"),
                conn.execute(
                    "select title, description, rulebook, card_pool_note, rules_version from games"
                ).fetchone()
                or ("", "", "", "", ""),
                strict=True,
            )
        )
        existing = {
            row[0] for row in conn.execute("select name from sqlite_master where type = 'table'")
        }
        keywords = game.has_keywords and "card_keywords" in existing and conn.execute(
            "select exists (select 1 from card_keywords)").fetchone()[0]
        cost = next((f for f in game.fields if f.cost is not None), None)
        cost_max = 0
        if cost is not None:  # a column name the game declares, never an authored value
            sql = f'select max("{cost.name}_value") from cards'
            cost_max = conn.execute(sql).fetchone()[0] or 0
    finally:
        conn.close()
    tables = _tables(game, existing)
    cards = tables["cards"]
    # Facet by every field the game declares a facet; a list of values facets on each value.
    facet_columns = [f.name for f in game.fields if f.facet is not None and not f.many_valued_facet]
    arrays = [{"array": f.name} for f in game.fields if f.many_valued_facet]
    keyword_facet = [{"array": "keywords"}] if game.has_keywords else []
    cards["facets"] = ["type", *facet_columns, *arrays, *keyword_facet, "set_code"]
    for name, facets in FACETS.items():
        if name in tables:
            tables[name]["facets"] = [f for f in facets if game.has_keywords or f != "keyword"]
    if not game.has_keywords:  # the tables every database has, empty for a game without keywords
        for name in KEYWORD_TABLES & tables.keys():
            tables[name]["hidden"] = True
    for source in ("cards", "rules", "glossary_terms", "rulings"):
        if f"{source}_fts" in existing:
            tables[source]["fts_table"] = f"{source}_fts"
            tables[source]["fts_pk"] = "rowid"
    return {
        "title": info["title"] or game.id,
        "description": (
            f"{info['description']} Rules version {info['rules_version']}: the rules are "
            "restated in charnel's own words, not the rulebook's text."
        ).strip(),
        "source": f"Rules restated from the {info['rulebook']}".strip(),
        "license": "MIT: the restatement and the card pool are charnel's own writing",
        "about": info["card_pool_note"],
        "tables": tables,
        "queries": canned_queries(facet_columns, cost, cost_max, bool(keywords)),
    }


KEYWORD_TABLES = {"keywords", "card_keywords"}
FACETS = {
    "card_keywords": ("keyword",),
    "rulings": ("source",),
    "rules": ("section", "level"),
    "glossary_terms": ("keyword", "lore"),
    "example_results": ("passed",),
}


def _tables(game: Game, existing: set[str]) -> dict[str, Any]:
    db_schema = schema.for_game(game)
    tables: dict[str, Any] = {}
    for name, model in db_schema.tables.items():
        if name not in existing:
            continue
        columns = db_schema.table(name).columns
        table: dict[str, Any] = {
            "title": name.replace("_", " ").capitalize(),
            "description": TABLES.get(name) or (model.__doc__ or "").strip().split("\n")[0],
            "columns": {
                column: field.description or ""
                for column, field in model.model_fields.items()
                if column in columns
            },
        }
        if name in LABELS:
            table["label_column"] = LABELS[name]
        if name in SORTS:
            key, column = SORTS[name]
            table[key] = column
        tables[name] = table
    return tables


def instance(databases: dict[str, dict[str, Any]], *, public: bool, site: bool) -> dict[str, Any]:
    """The whole description: the instance, its databases, plugin settings and permissions."""
    described: dict[str, Any] = {
        "title": "charnel",
        "description": "Rules and card databases for tabletop card games. "
        + " ".join(f"{d['title']}: {d['description']}" for d in databases.values()),
        "databases": databases,
        "plugins": {"charnel": {"databases": sorted(databases), "site": site}},
    }
    if public:
        described["allow_sql"] = False  # canned queries and table views stay open
    return described
