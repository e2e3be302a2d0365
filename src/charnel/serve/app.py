"""Assemble what `charnel serve` runs: Datasette under /sql/ and the static site at /."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

from datasette.app import Datasette
from datasette.inspect import inspect_hash
from datasette.plugins import pm
from datasette.utils.asgi import asgi_send_redirect

from charnel import registry
from charnel.serve import (
    answers,
    config,
    csvguard,
    describe,
    errors,
    judge,
    plugin,
    reading,
    security,
)
from charnel.serve.cache import ResponseCache, file_stamp
from charnel.serve.live import Live
from charnel.serve.reload import Reloading
from charnel.serve.site import static_site

PREFIX = "/sql/"
TEMPLATES = Path(__file__).parent / "templates"
# How Datasette's HTML table page says a facet ran out of time (facet_time_limit_ms): such a
# page is right for this moment's load only, so the response cache skips it. (Its JSON drops
# the facet without a word, so a JSON page cannot be told apart.)
FACETS_TIMED_OUT = (b'<p class="facets-timed-out">',)


def make_datasette(
    databases: dict[str, Path],
    work_dir: Path,
    *,
    public: bool = False,
    site: bool = False,
    inspect_data: dict | None = None,
) -> Datasette:
    """A read-only Datasette over the game databases, described and configured from them.

    `databases` maps game ids to database files. The generated metadata, datasette.yaml and
    inspect file are written to `work_dir` so they can be read or reused with `datasette`.
    Worker processes pass the `inspect_data` their parent wrote instead of hashing again.
    """
    described = describe.instance(
        {
            game_id: describe.database(registry.get(game_id), path)
            for game_id, path in databases.items()
        },
        public=public,
        site=site,
    )
    config.write(described, work_dir)
    if inspect_data is None:
        inspect_data = inspect(databases)
        (work_dir / "inspect.json").write_text(
            json.dumps(inspect_data, indent=2, sort_keys=True) + "\n"
        )
    if not pm.is_registered(plugin):
        pm.register(plugin, name="charnel")
    if not pm.is_registered(reading):
        pm.register(reading, name="charnel-reading")
    errors.install(pm)
    return Datasette(
        immutables=[str(databases[g]) for g in sorted(databases)],
        inspect_data=inspect_data,
        settings={
            "base_url": PREFIX,
            "default_allow_sql": not public,
            # Suggestions test every column on every table request: ten times the cost of the
            # preset facets on a large pool. Facets stay one click away (_facet=, column menus).
            "suggest_facets": False,
            # With values of at most 1 MB (plugin.MAX_VALUE_BYTES), one answer holds at most
            # about 100 MB however its SQL is written; table pages show 100 rows anyway.
            "max_returned_rows": 100,
        },
        template_dir=str(TEMPLATES),
        **config.for_running_datasette(described),
    )


def inspect(databases: dict[str, Path]) -> dict:
    """What `datasette inspect` records: file hash, size and row counts per table."""
    data = {}
    for game_id, path in sorted(databases.items()):
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            names = [
                r[0]
                for r in conn.execute(
                    "select name from sqlite_master where type = 'table' order by name"
                )
            ]
            counts = {
                n: {"count": conn.execute(f'select count(*) from "{n}"').fetchone()[0]}
                for n in names
            }
        finally:
            conn.close()
        data[game_id] = {
            "hash": inspect_hash(path),
            "size": path.stat().st_size,
            "file": str(path),
            "tables": counts,
        }
    return data


def application(
    datasette: Datasette,
    site_dir: Path | None,
    *,
    cache_bytes: int = 0,
    remake: Callable[[], Datasette] | None = None,
    root: Path | None = None,
    public: bool = False,
    judge_bounds: judge.Bounds | None = None,
    live: Live | None = None,
):
    """One ASGI app: Datasette for /sql/..., the site for everything else.

    With `cache_bytes`, Datasette's GET responses are kept in memory up to that size (see
    `charnel.serve.cache`); the site's files are read from disk either way. With `remake`,
    a database rebuilt while served is picked up: `remake` makes the Datasette that serves
    it (see `charnel.serve.reload`). With the project's `root`, each game with a rules engine
    has its judge at /<game>/judge/run (see `charnel.serve.judge`). With `live`, the site's
    pages reload when a rebuild changes them (see `charnel.serve.live`).
    """
    served = datasette.app() if remake is None else Reloading(datasette, remake)
    datasette_app = csvguard.guarded_csv(served)  # formula cells, as in exports
    if cache_bytes > 0:
        databases = [db for db in datasette.databases.values() if db.path]
        stamp = file_stamp(
            [Path(db.path) for db in databases], [db.hash or db.path for db in databases]
        )
        datasette_app = ResponseCache(
            datasette_app, stamp=stamp, max_bytes=cache_bytes, incomplete=FACETS_TIMED_OUT
        )
    site_app = static_site(site_dir, live) if site_dir is not None else None
    live_routes = live.routes() if live is not None else {}
    answering = answers.routes(site_dir) if site_dir is not None else {}
    prefix = PREFIX.rstrip("/")
    games = [name for name, db in datasette.databases.items() if db.path]
    judging = judge.routes(root, games, judge_bounds) if root is not None else {}
    judge_answers = judge.responder(public, judge_bounds)

    async def app(scope, receive, send):
        path = scope.get("path", "")
        if scope["type"] != "http":
            await datasette_app(scope, receive, send)
        elif path.startswith(PREFIX):
            # Strip the prefix as a proxy would: Datasette adds base_url to the links it makes.
            await datasette_app(_strip(scope, prefix), receive, _relocated(send, prefix))
        elif path in live_routes:
            await live_routes[path](scope, receive, send)
        elif path in judging:
            await judge_answers(scope, receive, send, judging[path])
        elif path in answering:
            await answers.respond(scope, send, *answering[path])
        elif path == prefix or site_app is None:
            await asgi_send_redirect(send, PREFIX)
        else:
            await site_app(scope, receive, send)

    def now() -> Datasette:  # the Datasette serving at this moment (after a rebuild, a new one)
        return served.current if isinstance(served, Reloading) else datasette

    return security.guard(
        app, prefix=PREFIX, datasette_scripts=lambda: security.inline_scripts(now())
    )


def _relocated(send, prefix: str):
    """`send` with the prefix put back on a redirect Datasette made from the request's own
    path (/sql/<game>/ once redirected to /<game>, a page of the site), as a proxy would."""
    head = prefix.encode()

    async def relocated(message):
        if message["type"] == "http.response.start":
            headers = [
                (k, head + v if k.lower() == b"location" and _outside(v, head) else v)
                for k, v in message.get("headers", [])
            ]
            message = dict(message, headers=headers)
        await send(message)

    return relocated


def _outside(location: bytes, head: bytes) -> bool:
    return location.startswith(b"/") and location != head and not location.startswith(head + b"/")


def _strip(scope: dict, prefix: str) -> dict:
    scope = dict(scope, path=scope["path"][len(prefix) :])
    if scope.get("raw_path"):
        scope["raw_path"] = scope["raw_path"][len(prefix.encode()) :]
    return scope
