"""The Datasette plugin: the card search page, links to the static site, rendered HTML cells.

It acts only on databases listed in the `charnel` plugin settings (see `describe.instance`),
so registering it in a process that also serves other databases changes nothing for them.
"""

from __future__ import annotations

import re
import sqlite3
from urllib.parse import urlencode
from weakref import WeakKeyDictionary

from datasette import hookimpl
from datasette.database import QueryInterrupted
from datasette.utils import escape_fts
from datasette.utils.asgi import NotFound, Response
from markupsafe import Markup, escape

from charnel import registry
from charnel.query import QueryError, compile_query, field_table, load_choices, result_columns
from charnel.site.urls import GameUrls

PAGE_SIZE = 100
MAX_VALUE_BYTES = 1_000_000

# Which column of which table names a page of the static site, and which of the game's URLs
# (`charnel.site.urls.GameUrls`; a database is named by its game's id) is the page's.
SITE_PAGES = {
    "cards": ("id", "card"),
    "rules": ("number", "clause_permalink"),
    "glossary_terms": ("slug", "term"),
}
# The column that carries the link in table views, where Datasette renders the key itself.
LINK_COLUMNS = {"cards": "name", "rules": "title", "glossary_terms": "term"}


# plugin_config() merges all metadata on every call, and render_cell runs for every cell of
# a page (a third of a 50-row card table's time). Settings are fixed for a Datasette's life.
_SETTINGS: WeakKeyDictionary = WeakKeyDictionary()
# The closed lists of each database's search fields: the databases are immutable.
_CHOICES: WeakKeyDictionary = WeakKeyDictionary()


def _settings(datasette) -> dict | None:
    if datasette not in _SETTINGS:
        _SETTINGS[datasette] = datasette.plugin_config("charnel")
    return _SETTINGS[datasette]


def _ours(datasette, database: str) -> bool:
    settings = _settings(datasette)
    return bool(settings) and database in settings.get("databases", ())


@hookimpl
def register_routes():
    return [(r"^/(?P<database>[^/]+)/-/search(\.(?P<format>json))?$", search_page)]


@hookimpl
def menu_links(datasette, actor, request):
    settings = _settings(datasette)
    if not settings:
        return None
    return [
        {"href": datasette.urls.database(name) + "/-/search", "label": f"Search {name} cards"}
        for name in settings.get("databases", ())
    ]


@hookimpl(specname="prepare_connection", trylast=True)
def prefix_search(conn, database, datasette):
    """A table's search box finds words by their beginnings: 'walk' finds 'Walker'.

    Datasette quotes each word of `_search` with its SQL function `escape_fts`; this one, set
    after Datasette's own, marks each quoted word a prefix as well (FTS5's `"walk"*`)."""
    if _ours(datasette, database):
        conn.create_function("escape_fts", 1, _prefix_terms, deterministic=True)


def _prefix_terms(query: str) -> str:
    # escape_fts gives each word or "quoted phrase" as one quoted string, spaces between
    return " ".join(f"{term}*" for term in _QUOTED.findall(escape_fts(query)))


_QUOTED = re.compile(r'"[^"]*"')


@hookimpl
def prepare_connection(conn, database, datasette):
    # A value (a string, a blob, a printf width, what replace() builds) is at most this long:
    # randomblob(999999999) is refused instead of taking a gigabyte. The databases store
    # nothing near it (see docs/security.md).
    if _ours(datasette, database):
        conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES)


@hookimpl
def render_cell(row, value, column, table, database, datasette):
    if not _ours(datasette, database) or value is None:
        return None
    # Only table and row pages name a `table`, and there every cell is that table's stored
    # column, compiled from the project's own Markdown with raw HTML off. A query's columns
    # (`select '<img ...>' as x_html`) are anybody's text: Datasette escapes them.
    if column.endswith("_html") and table is not None and isinstance(value, str):
        return Markup(value)
    page = SITE_PAGES.get(table)
    if page is None or not _settings(datasette).get("site"):
        return None
    key, url = page
    keys = row.keys() if hasattr(row, "keys") else ()
    if key not in keys or not row[key]:
        return None
    # Row pages: the key itself links to the site page. Table views: the label column does.
    if column == key or (column == LINK_COLUMNS[table] and value != ""):
        href = getattr(GameUrls(database), url)(row[key])
        return Markup(
            f'<a href="{escape(href)}" title="Page on the reference site">{escape(value)}</a>'
        )
    return None


async def search_page(datasette, request):
    database = request.url_vars["database"]
    game = registry.get(database)
    if not _ours(datasette, database) or game is None:
        raise NotFound(f"No card search for database '{database}'")
    await datasette.ensure_permissions(
        request.actor, [("view-database", database), "view-instance"]
    )
    as_json = request.url_vars.get("format") == "json"
    q = request.args.get("q", "").strip()
    fields = game.search_fields()
    result = {"database": database, "q": q, "rows": [], "columns": [], "error": None}
    status = 200
    if q:
        try:
            await _run(datasette, database, q, fields, result, with_text=as_json)
        except QueryError as exc:
            status = 400
            result["error"] = {"message": exc.message, "column": exc.col, "length": exc.length}
        except (QueryInterrupted, sqlite3.Error) as exc:
            status = 400
            result["error"] = {
                "message": f"the search could not run: {exc}",
                "column": 0,
                "length": 0,
            }
    if as_json:
        return Response.json(result, status=status)
    allowed = await datasette.permission_allowed(
        request.actor, "execute-sql", database, default=True
    )
    if result.get("sql") and allowed:
        result["sql_url"] = (
            datasette.urls.database(database)
            + "?"
            + urlencode({"sql": result["sql"], **result["params"]})
        )
    fields_help = field_table(fields)
    html = await datasette.render_template(
        "charnel_search.html",
        {
            **result,
            "fields_help": fields_help,
            "placeholder": next(iter(game.search_examples), ""),
            "site": bool(_settings(datasette).get("site")),
            "site_cards": GameUrls(database).CARDS,
            "row_url": datasette.urls.table(database, "cards"),
        },
        request=request,
    )
    return Response.html(html, status=status)


async def _choices(datasette, database, fields):
    known = _CHOICES.setdefault(datasette, {})
    if database not in known:
        db = datasette.get_database(database)
        known[database] = await db.execute_fn(lambda conn: load_choices(conn, fields))
    return known[database]


async def _run(datasette, database, q, fields, result, *, with_text=False) -> None:
    compiled = compile_query(q, fields, await _choices(datasette, database, fields))
    columns = result_columns(fields)
    if with_text and "text" not in columns:
        columns.append("text")  # what the site's search box shows under each card
    rows = await datasette.get_database(database).execute(
        compiled.select(columns, limit=PAGE_SIZE + 1), compiled.params
    )
    result["columns"] = columns
    result["rows"] = [dict(zip(columns, r, strict=True)) for r in rows.rows[:PAGE_SIZE]]
    result["truncated"] = len(rows.rows) > PAGE_SIZE
    result["sql"] = compiled.select(columns)
    result["params"] = compiled.params
