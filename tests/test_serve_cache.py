"""The response cache and the worker-process app: cached answers equal fresh ones, and never
cross databases, builds, hosts or credentials."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import socket
from pathlib import Path

import httpx
import pytest
from datasette.facets import ColumnFacet
from projects import DUEL, copy_project, only_game

from charnel import pipeline
from charnel.serve import run
from charnel.serve.app import application, make_datasette
from charnel.serve.cache import ResponseCache, file_stamp

CACHED = "x-charnel-cache"
GAME = only_game(DUEL)


@pytest.fixture(scope="module")
def build(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("cache")
    copy_project(root, DUEL)
    pipeline.build(root, GAME, root / "build")
    return root / "build"


def get(app, path: str, host: str = "127.0.0.1", **kwargs) -> httpx.Response:
    async def request() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url=f"http://{host}") as client:
            return await client.get(path, **kwargs)

    return asyncio.run(request())


def untimed(text: str) -> str:
    """A page without the query timings Datasette reports, which differ run to run."""
    return re.sub(r'("query_ms": ?|Queries took )[0-9.e-]+', r"\1", text)


def cached_app(build: Path, database: Path, cache_bytes: int = 8 << 20):
    datasette = make_datasette({GAME: database}, build / f"ds-{database.stem}")
    return application(datasette, None, cache_bytes=cache_bytes)


PATHS = [
    f"/sql/{GAME}/cards.json?_shape=objects",
    f"/sql/{GAME}/cards?_search=knight",
    f"/sql/{GAME}/cards/cinder-knight",
    f"/sql/{GAME}/-/search.json?q=m%3E%3D2",
    f"/sql/{GAME}/-/search?q=clan%3Aember",
    f"/sql/{GAME}/example_results_for_card.json?card=cinder-knight",
]


@pytest.mark.parametrize("path", PATHS)
def test_cached_response_equals_the_fresh_one(build: Path, path: str):
    fresh = get(cached_app(build, build / f"{GAME}.db", cache_bytes=0), path)
    app = cached_app(build, build / f"{GAME}.db")
    first, second = get(app, path), get(app, path)
    assert fresh.status_code == first.status_code == second.status_code == 200
    assert CACHED not in first.headers and second.headers[CACHED] == "hit"
    assert second.content == first.content  # the very bytes the first request produced
    assert untimed(fresh.text) == untimed(first.text)  # and those are what Datasette makes
    drop = {CACHED, "content-length"}
    assert [h for h in second.headers.items() if h[0] not in drop] == [
        h for h in fresh.headers.items() if h[0] not in drop
    ]


def test_errors_and_credentials_are_not_cached(build: Path):
    app = cached_app(build, build / f"{GAME}.db")
    for _ in range(2):
        bad = get(app, f"/sql/{GAME}/-/search.json?q=clam%3Aember")
        assert bad.status_code == 400 and CACHED not in bad.headers
    path = f"/sql/{GAME}/cards.json"
    get(app, path)
    assert CACHED not in get(app, path, headers={"cookie": "ds_actor=someone"}).headers
    assert CACHED not in get(app, path, headers={"authorization": "Bearer x"}).headers
    assert get(app, path).headers[CACHED] == "hit"


def test_host_is_part_of_the_key(build: Path):
    app = cached_app(build, build / f"{GAME}.db")
    path = f"/sql/{GAME}/cards.json?_size=1"
    one = get(app, path, host="one.test")
    other = get(app, path, host="other.test")
    assert CACHED not in other.headers
    assert "one.test" in one.json()["next_url"] and "other.test" in other.json()["next_url"]


def test_a_rebuilt_database_is_never_answered_from_the_old_build(build: Path, tmp_path: Path):
    database = tmp_path / f"{GAME}.db"
    shutil.copy(build / f"{GAME}.db", database)
    inner_calls = []
    datasette = make_datasette({GAME: database}, tmp_path / "ds")
    inner = datasette.app()

    async def counting(scope, receive, send):
        inner_calls.append(scope["path"])
        await inner(scope, receive, send)

    stamp = file_stamp([database], ["hash"])
    app = ResponseCache(counting, stamp=stamp, max_bytes=1 << 20)
    path = f"/{GAME}/cards.json"
    get(app, path), get(app, path)
    assert len(inner_calls) == 1
    replacement = tmp_path / "new.db"
    shutil.copy(build / f"{GAME}.db", replacement)
    os.replace(replacement, database)  # how a build swaps its output in
    assert CACHED not in get(app, path).headers and len(inner_calls) == 2


def test_two_databases_never_share_entries(build: Path, tmp_path: Path):
    other = tmp_path / "other" / f"{GAME}.db"
    other.parent.mkdir()
    shutil.copy(build / f"{GAME}.db", other)
    first = file_stamp([build / f"{GAME}.db"], ["a"])
    second = file_stamp([other], ["a"])
    assert first() != second()


def test_the_cache_stays_within_its_size(build: Path):
    budget = 64 * 1024
    app = cached_app(build, build / f"{GAME}.db", cache_bytes=budget)
    for n in range(30):
        get(app, f"/sql/{GAME}/cards.json?_size={n % 3 + 1}&_search=knight&n={n}")
    cache = app_cache(app)
    assert 0 < cache.size <= budget
    assert cache.size == sum(len(body) for _, body in cache.entries.values())


def app_cache(app) -> ResponseCache:
    # application() closes over the cache; find it among the closure's cells
    app = getattr(app, "__wrapped__", app)  # inside the security guard
    for cell in app.__closure__:
        if isinstance(cell.cell_contents, ResponseCache):
            return cell.cell_contents
    raise AssertionError("no cache in the app")


def test_worker_app_is_built_from_the_spec_its_parent_wrote(build: Path, monkeypatch):
    seen = {}

    def fake_run(app, sockets, options):
        seen.update(app=app, sockets=sockets, options=options)
        for sock in sockets:
            sock.close()
        return 0

    monkeypatch.setattr(run.workers_module, "run", fake_run)
    monkeypatch.setenv(run.SPEC_ENV, "")  # restored after the test
    run.serve(
        {GAME: build / f"{GAME}.db"}, build, port=0, workers=2, echo=lambda _: None
    )
    assert seen["app"] == "charnel.serve.run:worker_app"
    assert [s.proto for s in seen["sockets"]] == [socket.IPPROTO_TCP] * 2
    spec = json.loads(Path(os.environ[run.SPEC_ENV]).read_text())
    assert spec["databases"] == {GAME: str(build / f"{GAME}.db")}
    app = run.worker_app()
    page = get(app, f"/sql/{GAME}/-/search.json?q=clan%3Aember")
    assert {r["id"] for r in page.json()["rows"]} == {"ash-page", "cinder-knight"}
    assert get(app, f"/sql/{GAME}/-/search.json?q=clan%3Aember").headers[CACHED] == "hit"


def test_pages_with_timed_out_facets_are_not_kept(build: Path, monkeypatch):
    """A facet cut off by facet_time_limit_ms reflects the load of its moment, not the data.
    (Datasette's JSON leaves such a facet out without saying so; only its HTML tells.)"""

    async def timed_out(self):
        return [], [config["config"]["simple"] for config in self.get_configs()]

    monkeypatch.setattr(ColumnFacet, "facet_results", timed_out)
    app = cached_app(build, build / f"{GAME}.db")
    first, second = get(app, f"/sql/{GAME}/cards"), get(app, f"/sql/{GAME}/cards")
    assert first.status_code == second.status_code == 200
    assert "These facets timed out: type" in first.text
    assert CACHED not in second.headers
