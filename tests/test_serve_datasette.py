"""`charnel serve` in process: the ASGI app the server runs, driven through httpx (no socket).

The database is the toy game's project, built by the real pipeline once per module.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import shutil
from pathlib import Path

import httpx
import pytest
import yaml
from projects import DUEL, copy_project, only_game

from charnel import pipeline, registry, schema
from charnel.serve import config
from charnel.serve.app import application, make_datasette

GAME = only_game(DUEL)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("serve")
    copy_project(root, DUEL)
    pipeline.build(root, GAME, root / "build")
    site = root / "build" / "site"
    (site / GAME / "cards" / "cinder-knight").mkdir(parents=True)
    (site / "index.html").write_text("<h1>the reference site</h1>")
    (site / GAME / "cards" / "cinder-knight" / "index.html").write_text("<h1>Cinder Knight</h1>")
    (site / "assets").mkdir()
    (site / "assets" / "games.json").write_text(
        f'[{{"id": "{GAME}", "home": "/{GAME}/", "unprefixed": true}}]'
    )
    return root / "build"


class Client:
    """Synchronous calls into the app; each request runs the ASGI app on a fresh loop."""

    def __init__(self, build: Path, public: bool = False, site: bool = True):
        self.work = (
            build / f"datasette-{'public' if public else 'open'}-{'site' if site else 'alone'}"
        )
        self.ds = make_datasette(
            {GAME: build / f"{GAME}.db"}, self.work, public=public, site=site
        )
        self.app = application(self.ds, build / "site" if site else None)
        asyncio.run(self._start())

    async def _start(self) -> None:
        """What a server does before its first request: the ASGI lifespan's startup."""
        sent: list[dict] = []
        incoming = [{"type": "lifespan.startup"}]

        async def receive():
            if incoming:
                return incoming.pop()
            await asyncio.sleep(0)
            return {"type": "lifespan.shutdown"}

        async def send(message):
            sent.append(message)

        await self.app({"type": "lifespan", "asgi": {"version": "3.0"}}, receive, send)
        assert sent[0]["type"] == "lifespan.startup.complete", sent

    def get(self, path: str, **kwargs) -> httpx.Response:
        return asyncio.run(self._request("GET", path, **kwargs))

    def post(self, path: str, **kwargs) -> httpx.Response:
        return asyncio.run(self._request("POST", path, **kwargs))

    async def _request(self, method: str, path: str, **kwargs) -> httpx.Response:
        transport = httpx.ASGITransport(app=self.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            return await client.request(method, path, **kwargs)


@pytest.fixture(scope="module")
def client(built: Path) -> Client:
    return Client(built)


@pytest.fixture(scope="module")
def public(built: Path) -> Client:
    return Client(built, public=True)


def rows(response: httpx.Response) -> list[dict]:
    assert response.status_code == 200, response.text[:500]
    return response.json()


# --- tables, metadata, facets, full-text search ----------------------------------------------


def test_index_carries_titles_and_notes(client: Client):
    page = client.get("/sql/")
    assert page.status_code == 200
    title = yaml.safe_load((DUEL / "rules" / GAME / "game.yaml").read_text("utf-8"))["title"]
    assert "charnel" in page.text and title in page.text
    database = client.get(f"/sql/{GAME}").text
    assert (
        "restated in charnel&#39;s own words" in database
        or "restated in charnel's own words" in database
    )


def test_every_column_is_described_from_the_schema(client: Client):
    metadata = json.loads((client.work / "metadata.json").read_text())
    tables = metadata["databases"][GAME]["tables"]
    db_schema = schema.for_game(registry.get(GAME))
    for name, model in db_schema.tables.items():
        columns = tables[name]["columns"]
        assert set(columns) == set(db_schema.table(name).columns.keys()), name
        assert all(columns.values()), name
        assert columns == {c: f.description for c, f in model.model_fields.items() if c in columns}
        assert tables[name]["description"]


def test_card_table_with_preset_facets(client: Client):
    data = rows(client.get(f"/sql/{GAME}/cards.json?_shape=objects"))
    assert {r["id"] for r in data["rows"]} == {"cinder-knight", "ash-page", "rime-warden"}
    assert [r["name"] for r in data["rows"]] == sorted(r["name"] for r in data["rows"])
    facets = data["facet_results"]
    assert set(facets) >= {"type", "clan", "set_code"}
    clan = {f["value"]: f["count"] for f in facets["clan"]["results"]}
    assert clan == {"ember": 2, "frost": 1}
    toggle = facets["clan"]["results"][0]["toggle_url"]
    assert f"/sql/{GAME}/cards.json?" in toggle and "/sql/sql/" not in toggle
    # a game without keywords has no keyword facet (a game with them: its own tests)
    assert "keywords" not in facets


@pytest.mark.parametrize(
    ("table", "term", "key", "expected"),
    [
        ("cards", "knight", "id", "cinder-knight"),
        ("rules", "otherwise", "number", "1.1a"),
        ("glossary_terms", "number", "slug", "might"),
        ("rulings", "first", "id", "cinder-knight-1"),
    ],
)
def test_full_text_search(client: Client, table: str, term: str, key: str, expected: str):
    data = rows(client.get(f"/sql/{GAME}/{table}.json?_search={term}&_shape=objects"))
    assert expected in {r[key] for r in data["rows"]}


@pytest.mark.parametrize(
    ("term", "expected"),
    [
        ("cind", {"cinder-knight"}),  # a word's beginning finds 'Cinder'
        ("WARDEN", {"rime-warden"}),
        ("lighting", {"cinder-knight"}),  # by its stem: the flavor says 'lights'
        ("champ", {"cinder-knight", "ash-page", "rime-warden"}),  # the text
        ("ash pa", {"ash-page"}),  # every word, each a beginning
        ('"cinder knight"', {"cinder-knight"}),
        ('"knight cinder"', set()),
        ("blow rime", {"rime-warden"}),
        ("zzz", set()),
    ],
)
def test_card_search_stems_and_prefixes(client: Client, term: str, expected: set[str]):
    params = {"_search": term, "_shape": "objects"}
    data = rows(client.get(f"/sql/{GAME}/cards.json", params=params))
    assert {r["id"] for r in data["rows"]} == expected


def test_card_search_covers_the_game_text_columns(built: Path):
    import sqlite3

    game = registry.get(GAME)
    conn = sqlite3.connect(built / f"{GAME}.db")
    columns = [r[1] for r in conn.execute("pragma table_info(cards_fts)")]
    assert columns == ["name", "text", *game.full_text, "flavor"]


def test_cards_table_leads_with_the_name(client: Client):
    data = client.get(f"/sql/{GAME}/cards.json?_shape=objects&_size=1").json()
    assert list(data["rows"][0])[:2] == ["id", "name"]


def test_search_all_covers_every_fts_table(client: Client):
    page = client.get("/sql/-/search?q=blow")
    assert page.status_code == 200
    for table in ("cards", "rules", "glossary_terms", "rulings"):
        said = (f"in {GAME}: {table}</h2>", f">{GAME}: {table}</a>")  # found, or not
        assert any(s in page.text for s in said), table
        assert f'href="/sql/{GAME}/{table}?_search=blow"' in page.text


def test_search_all_shows_readable_columns(client: Client):
    page = client.get("/sql/-/search", params={"q": "champ"})
    assert page.status_code == 200
    text = page.text
    assert "Cinder Knight" in text and "Each blow of this champion adds its might." in text
    assert f'href="/sql/{GAME}/cards/cinder-knight"' in text  # each match links to its row
    assert f"3 results</a>\n  in {GAME}: cards" in text
    # no stored HTML or JSON reaches the page, escaped or not
    for raw in ("&lt;p&gt;", "&lt;a ", "_html", "[&#34;", "[&quot;", "definition_html"):
        assert raw not in text
    assert "<script>" not in text.split("</footer>")[0].split("<h1>Search all tables")[1]


def test_search_all_without_a_query_shows_the_form(client: Client):
    page = client.get("/sql/-/search")
    assert page.status_code == 200 and 'name="q"' in page.text and "result" not in page.text


@pytest.mark.parametrize(
    ("asked", "kept"),
    [
        (f"/sql/{GAME}/cards?_facet=clan", f"/sql/{GAME}/cards"),
        (f"/sql/{GAME}/cards?_facet=clan&_facet=might", f"/sql/{GAME}/cards?_facet=might"),
        (f"/sql/{GAME}/cards.json?_facet=set_code&_size=2", f"/sql/{GAME}/cards.json?_size=2"),
        (f"/sql/{GAME}/rules?level=1&_facet=section", f"/sql/{GAME}/rules?level=1"),
    ],
)
def test_a_preset_facet_asked_again_is_shown_once(client: Client, asked: str, kept: str):
    response = client.get(asked)
    assert response.status_code == 302 and response.headers["location"] == kept
    page = client.get(kept)
    assert page.status_code == 200


def test_a_facet_not_preset_is_left_alone(client: Client):
    page = client.get(f"/sql/{GAME}/cards?_facet=might")
    assert page.status_code == 200 and page.text.count('data-column="might"') >= 1
    assert page.text.count('<p class="facet-info-name">') == len(
        set(__import__("re").findall(r'<p class="facet-info-name">\s*<strong>([^<]+)', page.text))
    )


def test_row_pages_link_to_the_site(client: Client):
    card = client.get(f"/sql/{GAME}/cards/cinder-knight")
    assert card.status_code == 200
    assert f'href="/{GAME}/cards/cinder-knight/"' in card.text
    rule = client.get(f"/sql/{GAME}/rules/1~2E1a")
    assert f'href="/{GAME}/rules/1.1a/"' in rule.text
    term = client.get(f"/sql/{GAME}/glossary_terms/might")
    assert f'href="/{GAME}/glossary/might/"' in term.text


def test_site_at_root_datasette_under_sql(client: Client):
    assert "reference site" in client.get("/").text
    assert client.get(f"/{GAME}/cards/cinder-knight/").text == "<h1>Cinder Knight</h1>"
    assert client.get(f"/{GAME}/cards/cinder-knight").headers["location"] == (
        f"/{GAME}/cards/cinder-knight/"
    )
    assert client.get(f"/{GAME}/cards/nothing-here/").status_code == 404
    # the URLs of the site before it had a folder per game answer with where they are now
    moved = client.get("/cards/cinder-knight/")
    assert (moved.status_code, moved.headers["location"]) == (301, f"/{GAME}/cards/cinder-knight/")
    assert client.get("/cards/nothing-here/").status_code == 404
    assert client.get(f"/../{GAME}.db").status_code == 404
    assert client.get("/sql").headers["location"] == "/sql/"


def test_without_a_site_root_goes_to_datasette(built: Path):
    alone = Client(built, site=False)
    assert alone.get("/").headers["location"] == "/sql/"
    assert 'href="/cards/' not in alone.get(f"/sql/{GAME}/cards/cinder-knight").text


# --- canned queries --------------------------------------------------------------------------

CANNED = [
    ("rulings_citing_rule", {"rule": "2.1"}, "id", {"cinder-knight-1"}),
    ("rulings_citing_rule", {"rule": "1"}, "id", set()),
    ("rule_with_subrules", {"rule": "1.1"}, "number", {"1.1", "1.1a", "1.1b"}),
    ("rule_with_subrules", {"rule": "1.1b"}, "number", {"1.1b"}),
    ("what_cites_rule", {"rule": "2.1a"}, "source_id", {"cinder-knight-1"}),
]


@pytest.mark.parametrize(("name", "params", "key", "expected"), CANNED)
def test_canned_query(client: Client, name: str, params: dict, key: str, expected: set[str]):
    data = rows(client.get(f"/sql/{GAME}/{name}.json", params={**params, "_shape": "array"}))
    assert expected <= {r[key] for r in data}
    if name != "what_cites_rule":
        assert {r[key] for r in data} == expected


def test_example_results_for_a_card(client: Client):
    data = rows(
        client.get(f"/sql/{GAME}/example_results_for_card.json?card=cinder-knight&_shape=array")
    )
    assert data and all(set(r) == {"id", "title", "passed", "message"} for r in data)


def test_every_canned_query_has_a_page(client: Client):
    metadata = json.loads((client.work / "metadata.json").read_text())
    queries = metadata["databases"][GAME]["queries"]
    for name in queries:
        assert client.get(f"/sql/{GAME}/{name}").status_code == 200, name
    # a game without keywords or costs has no query over them
    assert not [q for q in queries if q == "cards_with_keyword" or q.startswith("cost_curve")]


# --- the search page -------------------------------------------------------------------------


def test_search_page_shows_results_and_the_sql(client: Client):
    page = client.get(f"/sql/{GAME}/-/search", params={"q": "clan:ember m>=2"})
    assert page.status_code == 200
    assert f'href="/{GAME}/cards/cinder-knight/"' in page.text
    assert "Ash Page" not in page.text
    assert "clan = :p0 collate nocase" in page.text
    link = page.text.split(f'href="/sql/{GAME}?sql=')[1].split('"')[0]
    run = client.get(f"/sql/{GAME}.json?sql=" + link.replace("&amp;", "&") + "&_shape=array")
    assert [r["id"] for r in rows(run)] == ["cinder-knight"]


def test_search_json(client: Client):
    data = rows(client.get(f"/sql/{GAME}/-/search.json", params={"q": "m<3 -clan:frost"}))
    assert [r["id"] for r in data["rows"]] == ["ash-page"]
    assert data["params"] == {"p0": 3, "p1": "frost"}
    # results carry the card text
    assert data["rows"][0]["text"] == "Each blow of this champion adds its might."


@pytest.mark.parametrize(
    ("query", "col"),
    [("clam:ember", 1), ("m>=x", 4), ("(t:champion", 1), ("t:champion s:embrs", 14)],
)
def test_search_errors_point_at_the_token(client: Client, query: str, col: int):
    page = client.get(f"/sql/{GAME}/-/search", params={"q": query})
    assert page.status_code == 400
    assert f"(column {col})" in page.text
    data = client.get(f"/sql/{GAME}/-/search.json", params={"q": query}).json()
    assert data["error"]["column"] == col


@pytest.mark.parametrize("query", ['"', "-", "()", "kw:", "cost:'", "a" * 5000, "\x00", "%_\\"])
def test_search_never_500s(client: Client, query: str):
    assert client.get(f"/sql/{GAME}/-/search", params={"q": query}).status_code in (200, 400)


def test_search_of_unknown_database_is_404(client: Client):
    assert client.get("/sql/nothing/-/search?q=x").status_code == 404


# --- public mode and writes ------------------------------------------------------------------


def test_public_refuses_arbitrary_sql(public: Client):
    assert public.get(f"/sql/{GAME}.json?sql=select+1").status_code == 403
    assert public.get(f"/sql/{GAME}/cards.json?_where=1").status_code == 403


def test_public_keeps_tables_canned_queries_and_search(public: Client):
    assert public.get(f"/sql/{GAME}/cards.json").status_code == 200
    assert public.get(f"/sql/{GAME}/cards.json?_search=knight").status_code == 200
    canned = public.get(f"/sql/{GAME}/rulings_citing_rule.json?rule=2.1&_shape=array")
    assert [r["id"] for r in rows(canned)] == ["cinder-knight-1"]
    page = public.get(f"/sql/{GAME}/-/search?q=m>=3")
    assert page.status_code == 200 and "Cinder Knight" in page.text
    assert "Run this SQL" not in page.text


@pytest.mark.parametrize(
    "sql",
    [
        "delete from cards",
        "update cards set name = 'x'",
        "drop table cards",
        "insert into meta values ('a', 'b')",
        "pragma writable_schema = 1",
    ],
)
def test_writes_are_refused(client: Client, built: Path, sql: str):
    before = hashlib.sha256((built / f"{GAME}.db").read_bytes()).hexdigest()
    response = client.get(f"/sql/{GAME}.json", params={"sql": sql})
    assert response.status_code in (400, 403)
    assert client.post(f"/sql/{GAME}/rulings_citing_rule", data={"rule": "x"}).status_code >= 400
    assert hashlib.sha256((built / f"{GAME}.db").read_bytes()).hexdigest() == before


# --- generated configuration -----------------------------------------------------------------


def test_config_for_datasette_1_comes_from_the_same_description(client: Client):
    legacy = json.loads((client.work / "metadata.json").read_text())
    metadata = yaml.safe_load((client.work / "metadata.yaml").read_text())
    settings = yaml.safe_load((client.work / "datasette.yaml").read_text())
    assert "queries" not in metadata["databases"][GAME]
    assert (
        settings["databases"][GAME]["queries"] == legacy["databases"][GAME]["queries"]
    )
    cards = settings["databases"][GAME]["tables"]["cards"]
    assert cards["facets"] == legacy["databases"][GAME]["tables"]["cards"]["facets"]
    assert "facets" not in metadata["databases"][GAME]["tables"]["cards"]
    assert metadata["databases"][GAME]["tables"]["cards"]["columns"]
    assert config.split(legacy) == (metadata, settings)


def test_public_config_turns_sql_off(public: Client):
    settings = yaml.safe_load((public.work / "datasette.yaml").read_text())
    assert settings["allow_sql"] is False


def test_inspect_file_has_counts(client: Client):
    inspect = json.loads((client.work / "inspect.json").read_text())
    assert inspect[GAME]["tables"]["cards"]["count"] == 3


def test_generated_files_are_deterministic(built: Path, client: Client):
    before = {p.name: p.read_bytes() for p in client.work.iterdir()}
    again = Client(built)
    assert {p.name: p.read_bytes() for p in again.work.iterdir()} == before


# --- a database rebuilt while served ---------------------------------------------------------


def test_a_rebuilt_database_is_served_without_a_restart(built: Path, tmp_path: Path):
    import os
    import sqlite3

    served = tmp_path / f"{GAME}.db"
    shutil.copy(built / f"{GAME}.db", served)

    def remake():
        return make_datasette({GAME: served}, tmp_path / "datasette")

    client = Client.__new__(Client)
    client.ds = remake()
    client.app = application(client.ds, None, cache_bytes=1 << 20, remake=remake)

    def count() -> int:
        return client.get(f"/sql/{GAME}/cards.json?_size=0").json()["filtered_table_rows_count"]

    assert count() == 3 and "3 rows" in client.get(f"/sql/{GAME}").text
    # a build writes the new file beside the old and renames it into place
    new = tmp_path / f".{GAME}.db.tmp"
    shutil.copy(served, new)
    conn = sqlite3.connect(new)
    conn.execute("delete from cards where id = 'ash-page'")
    conn.commit()
    conn.close()
    os.replace(new, served)
    assert count() == 2
    assert "2 rows" in client.get(f"/sql/{GAME}").text
    names = client.get(f"/sql/{GAME}/cards.json?_shape=objects").json()["rows"]
    assert "ash-page" not in {r["id"] for r in names}
