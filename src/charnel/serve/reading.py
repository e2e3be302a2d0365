"""A second Datasette plugin, for pages Datasette or another plugin draws: a table's preset
facet asked for again in the URL is not shown twice, and search-all (datasette-search-all)
shows each match as a few readable columns, not every stored column (HTML, JSON) of its row.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlencode

from datasette import hookimpl
from datasette.utils import tilde_encode
from datasette.utils.asgi import asgi_send_redirect

from charnel.serve.plugin import _ours

# What search-all shows of a match in each searchable table: its key (for the link to its row),
# then its label and its text.
RESULT_COLUMNS = {
    "cards": ("id", "name", "type", "text"),
    "rules": ("number", "number", "title", "text"),
    "glossary_terms": ("slug", "term", "definition"),
    "rulings": ("id", "card_id", "date", "text"),
}
RESULTS_SHOWN = 5
_TABLE_PATH = re.compile(r"^/(?P<database>[^/]+)/(?P<table>[A-Za-z0-9_]+)(?P<format>\.json)?$")


@hookimpl
def asgi_wrapper(datasette):
    def wrap(app):
        async def one_facet_each(scope, receive, send):
            if scope["type"] == "http" and b"_facet" in scope.get("query_string", b""):
                location = _without_preset_facets(datasette, scope)
                if location is not None:
                    await asgi_send_redirect(send, location, status=302)
                    return
            await app(scope, receive, send)

        return one_facet_each

    return wrap


def _without_preset_facets(datasette, scope) -> str | None:
    """The same URL without the `_facet=` and `_facet_array=` asking for a facet the table
    shows anyway (Datasette would draw it twice); None when there is none to drop."""
    match = _TABLE_PATH.match(scope.get("path", ""))
    if match is None or not _ours(datasette, match["database"]):
        return None
    preset = set()
    for facet in datasette.table_metadata(match["database"], match["table"]).get("facets", ()):
        kind, column = ("column", facet) if isinstance(facet, str) else next(iter(facet.items()))
        preset.add(("_facet" if kind == "column" else f"_facet_{kind}", column))
    pairs = parse_qsl(scope["query_string"].decode("utf-8", "replace"), keep_blank_values=True)
    kept = [pair for pair in pairs if pair not in preset]
    if len(kept) == len(pairs):
        return None
    path = datasette.urls.path(scope["path"])
    return f"{path}?{urlencode(kept)}" if kept else path


@hookimpl
def extra_template_vars(template, request, datasette):
    if template != "search_all.html" or request is None:
        return None

    async def matches():
        q = (request.args.get("q") or "").strip()
        return {"charnel_results": await _matches(datasette, request.actor, q) if q else None}

    return matches


async def _matches(datasette, actor, q: str) -> list[dict]:
    """Each searchable table of charnel's databases with its count and first matches, best
    first. `escape_fts` is charnel.serve.plugin's: every word a prefix, as a table's search."""
    found = []
    for name, db in datasette.databases.items():
        if not _ours(datasette, name):
            continue
        tables = set(await db.table_names())
        for table, (key, *columns) in RESULT_COLUMNS.items():
            fts = f"{table}_fts"
            if fts not in tables or not await datasette.permission_allowed(
                actor, "view-table", (name, table), default=True
            ):
                continue
            match = f'"{fts}" match escape_fts(:q)'
            selected = ", ".join(f't."{c}"' for c in (key, *columns))
            rows = await db.execute(
                f'select {selected} from "{table}" t join "{fts}" on "{fts}".rowid = t.rowid '
                f'where {match} order by "{fts}".rank limit {RESULTS_SHOWN}',
                {"q": q},
            )
            count = await db.execute(f'select count(*) from "{fts}" where {match}', {"q": q})
            found.append(
                {
                    "database": name,
                    "table": table,
                    "columns": columns,
                    "count": count.first()[0],
                    "url": f"{datasette.urls.table(name, table)}?{urlencode({'_search': q})}",
                    "rows": [
                        {
                            "url": datasette.urls.row(name, table, tilde_encode(str(row[0]))),
                            "cells": list(row)[1:],
                        }
                        for row in rows.rows
                    ],
                }
            )
    return found
