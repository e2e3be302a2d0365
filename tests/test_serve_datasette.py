"""`charnel serve` in process: the ASGI app the server runs, driven through httpx (no socket).

The database is the small fixture project, built by the real pipeline once per module.
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
from projects import SMALL, copy_project, only_game

from charnel import pipeline, registry, schema
from charnel.serve import config
from charnel.serve.app import application, make_datasette

GAME = only_game(SMALL)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("serve")
    copy_project(root, SMALL)
    pipeline.build(root, GAME, root / "build")
    site = root / "build" / "site"
    (site / GAME / "cards" / "bone-hauler").mkdir(parents=True)
    (site / "index.html").write_text("<h1>the reference site</h1>")
    (site / GAME / "cards" / "bone-hauler" / "index.html").write_text("<h1>Bone Hauler</h1>")
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
    title = yaml.safe_load((SMALL / "rules" / GAME / "game.yaml").read_text("utf-8"))["title"]
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
    assert {r["id"] for r in data["rows"]} == {"bone-hauler", "ash-whisper", "tithe-collector"}
    assert [r["name"] for r in data["rows"]] == sorted(r["name"] for r in data["rows"])
    facets = data["facet_results"]
    assert set(facets) >= {"type", "doom", "set_code", "rarity"}
    doom = {f["value"]: f["count"] for f in facets["doom"]["results"]}
    assert doom == {"greed": 1, "corruption": 1, "deceit": 1}
    toggle = facets["doom"]["results"][0]["toggle_url"]
    assert f"/sql/{GAME}/cards.json?" in toggle and "/sql/sql/" not in toggle
    keyword_facet = rows(client.get(f"/sql/{GAME}/card_keywords.json"))["facet_results"]["keyword"]
    assert {f["value"]: f["count"] for f in keyword_facet["results"]} == {"evader": 1, "reaper": 2}


def test_cards_facet_and_filter_by_keyword(client: Client):
    """Cards carry their keywords as a JSON array: a facet on the cards table itself, and a
    filter that narrows the cards (not their keyword rows) to those with a keyword."""
    data = rows(client.get(f"/sql/{GAME}/cards.json?_shape=objects"))
    keywords = data["facet_results"]["keywords"]
    assert keywords["type"] == "array"
    assert {f["value"]: f["count"] for f in keywords["results"]} == {"evader": 1, "reaper": 2}
    query = "_shape=objects&keywords__arraycontains=reaper"
    reapers = rows(client.get(f"/sql/{GAME}/cards.json?{query}"))
    assert {r["id"] for r in reapers["rows"]} == {"bone-hauler", "tithe-collector"}


@pytest.mark.parametrize(
    ("table", "term", "key", "expected"),
    [
        ("cards", "hauler", "id", "bone-hauler"),
        ("rules", "twenty", "number", "1.1a"),
        ("glossary_terms", "blockers", "slug", "evader"),
        ("rulings", "extra", "id", "bone-hauler-1"),
    ],
)
def test_full_text_search(client: Client, table: str, term: str, key: str, expected: str):
    data = rows(client.get(f"/sql/{GAME}/{table}.json?_search={term}&_shape=objects"))
    assert expected in {r[key] for r in data["rows"]}


@pytest.mark.parametrize(
    ("term", "expected"),
    [
        ("reap", {"bone-hauler", "tithe-collector"}),  # a word's beginning finds 'Reaper'
        ("REAPER", {"bone-hauler", "tithe-collector"}),
        ("carrying", {"bone-hauler"}),  # by its stem: the flavor says 'carries'
        ("undead", {"tithe-collector"}),  # the subtype
        ("tact", {"ash-whisper"}),
        ("bone hau", {"bone-hauler"}),  # every word, each a beginning
        ('"bone hauler"', {"bone-hauler"}),
        ("reap undead", {"tithe-collector"}),
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
    assert {"subtype", "conditional_text"} <= set(columns)


def test_cards_table_leads_with_the_name(client: Client):
    data = client.get(f"/sql/{GAME}/cards.json?_shape=objects&_size=1").json()
    assert list(data["rows"][0])[:2] == ["id", "name"]


def test_search_all_covers_every_fts_table(client: Client):
    page = client.get("/sql/-/search?q=reaper")
    assert page.status_code == 200
    for table in ("cards", "rules", "glossary_terms", "rulings"):
        said = (f"in {GAME}: {table}</h2>", f">{GAME}: {table}</a>")  # found, or not
        assert any(s in page.text for s in said), table
        assert f'href="/sql/{GAME}/{table}?_search=reaper"' in page.text


def test_search_all_shows_readable_columns(client: Client):
    page = client.get("/sql/-/search", params={"q": "reap"})
    assert page.status_code == 200
    text = page.text
    assert "Bone Hauler" in text and "Evader (Corruption). Reaper +1" in text
    assert f'href="/sql/{GAME}/cards/bone-hauler"' in text  # each match links to its row
    assert f"2 results</a>\n  in {GAME}: cards" in text
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
        (f"/sql/{GAME}/cards?_facet=doom", f"/sql/{GAME}/cards"),
        (f"/sql/{GAME}/cards?_facet=doom&_facet=strength", f"/sql/{GAME}/cards?_facet=strength"),
        (
            f"/sql/{GAME}/cards.json?_facet_array=keywords&_size=2",
            f"/sql/{GAME}/cards.json?_size=2",
        ),
        (f"/sql/{GAME}/rules?level=1&_facet=section", f"/sql/{GAME}/rules?level=1"),
    ],
)
def test_a_preset_facet_asked_again_is_shown_once(client: Client, asked: str, kept: str):
    response = client.get(asked)
    assert response.status_code == 302 and response.headers["location"] == kept
    page = client.get(kept)
    assert page.status_code == 200


def test_a_facet_not_preset_is_left_alone(client: Client):
    page = client.get(f"/sql/{GAME}/cards?_facet=strength")
    assert page.status_code == 200 and page.text.count('data-column="strength"') >= 1
    assert page.text.count('<p class="facet-info-name">') == len(
        set(__import__("re").findall(r'<p class="facet-info-name">\s*<strong>([^<]+)', page.text))
    )


def test_row_pages_link_to_the_site(client: Client):
    card = client.get(f"/sql/{GAME}/cards/bone-hauler")
    assert card.status_code == 200
    assert f'href="/{GAME}/cards/bone-hauler/"' in card.text
    rule = client.get(f"/sql/{GAME}/rules/1~2E1a")
    assert f'href="/{GAME}/rules/1.1a/"' in rule.text
    term = client.get(f"/sql/{GAME}/glossary_terms/evader")
    assert f'href="/{GAME}/glossary/evader/"' in term.text


def test_site_at_root_datasette_under_sql(client: Client):
    assert "reference site" in client.get("/").text
    assert client.get(f"/{GAME}/cards/bone-hauler/").text == "<h1>Bone Hauler</h1>"
    assert client.get(f"/{GAME}/cards/bone-hauler").headers["location"] == (
        f"/{GAME}/cards/bone-hauler/"
    )
    assert client.get(f"/{GAME}/cards/nothing-here/").status_code == 404
    # the URLs of the site before it had a folder per game answer with where they are now
    moved = client.get("/cards/bone-hauler/")
    assert (moved.status_code, moved.headers["location"]) == (301, f"/{GAME}/cards/bone-hauler/")
    assert client.get("/cards/nothing-here/").status_code == 404
    assert client.get(f"/../{GAME}.db").status_code == 404
    assert client.get("/sql").headers["location"] == "/sql/"


def test_without_a_site_root_goes_to_datasette(built: Path):
    alone = Client(built, site=False)
    assert alone.get("/").headers["location"] == "/sql/"
    assert 'href="/cards/' not in alone.get(f"/sql/{GAME}/cards/bone-hauler").text


# --- canned queries --------------------------------------------------------------------------

CANNED = [
    ("cards_with_keyword", {"keyword": "reaper"}, "id", {"bone-hauler", "tithe-collector"}),
    ("rulings_citing_rule", {"rule": "1.1"}, "id", {"bone-hauler-1"}),
    ("rulings_citing_rule", {"rule": "2"}, "id", set()),
    ("rule_with_subrules", {"rule": "1.1"}, "number", {"1.1", "1.1a", "1.1b"}),
    ("rule_with_subrules", {"rule": "2.1b"}, "number", {"2.1b"}),
    ("what_cites_rule", {"rule": "1.1a"}, "source_id", {"1.1b", "bone-hauler-1"}),
    ("cost_curve_by_doom", {"type": ""}, "doom", {"greed", "corruption", "deceit"}),
    ("cost_curve_by_doom", {"type": "fate"}, "doom", {"deceit"}),
]


@pytest.mark.parametrize(("name", "params", "key", "expected"), CANNED)
def test_canned_query(client: Client, name: str, params: dict, key: str, expected: set[str]):
    data = rows(client.get(f"/sql/{GAME}/{name}.json", params={**params, "_shape": "array"}))
    assert expected <= {r[key] for r in data}
    if name != "what_cites_rule":
        assert {r[key] for r in data} == expected


def test_cost_curve_counts(client: Client):
    data = rows(client.get(f"/sql/{GAME}/cost_curve_by_doom.json?type=&_shape=array"))
    by_doom = {r["doom"]: r for r in data}
    assert by_doom["greed"]["2"] == 1 and by_doom["corruption"]["1"] == 1
    assert sum(r["total"] for r in data) == 3


def test_example_results_for_a_card(client: Client):
    data = rows(
        client.get(f"/sql/{GAME}/example_results_for_card.json?card=bone-hauler&_shape=array")
    )
    assert all(set(r) == {"id", "title", "passed", "message"} for r in data)


def test_every_canned_query_has_a_page(client: Client):
    metadata = json.loads((client.work / "metadata.json").read_text())
    for name in metadata["databases"][GAME]["queries"]:
        assert client.get(f"/sql/{GAME}/{name}").status_code == 200, name


# --- the search page -------------------------------------------------------------------------


def test_search_page_shows_results_and_the_sql(client: Client):
    page = client.get(f"/sql/{GAME}/-/search", params={"q": "doom:greed str>=3 kw:evader"})
    assert page.status_code == 200
    assert f'href="/{GAME}/cards/bone-hauler/"' in page.text
    assert "Tithe Collector" not in page.text
    assert "doom = :p0 collate nocase" in page.text
    link = page.text.split(f'href="/sql/{GAME}?sql=')[1].split('"')[0]
    run = client.get(f"/sql/{GAME}.json?sql=" + link.replace("&amp;", "&") + "&_shape=array")
    assert [r["id"] for r in rows(run)] == ["bone-hauler"]


def test_search_json(client: Client):
    data = rows(client.get(f"/sql/{GAME}/-/search.json", params={"q": "kw:reaper -doom:greed"}))
    assert [r["id"] for r in data["rows"]] == ["tithe-collector"]
    assert data["params"] == {"p0": "reaper", "p1": "reaper", "p2": "greed"}
    assert data["rows"][0]["text"] == "Reaper +2"  # results carry the card text


@pytest.mark.parametrize(
    ("query", "col"), [("dom:greed", 1), ("str>=x", 6), ("(t:minion", 1), ("t:minion s:bse", 12)]
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
    assert public.get(f"/sql/{GAME}/cards.json?_search=hauler").status_code == 200
    canned = public.get(f"/sql/{GAME}/cards_with_keyword.json?keyword=evader&_shape=array")
    assert [r["id"] for r in rows(canned)] == ["bone-hauler"]
    page = public.get(f"/sql/{GAME}/-/search?q=kw:evader")
    assert page.status_code == 200 and "Bone Hauler" in page.text
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
    assert client.post(f"/sql/{GAME}/cards_with_keyword", data={"keyword": "x"}).status_code >= 400
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
    conn.execute("delete from cards where id = 'ash-whisper'")
    conn.commit()
    conn.close()
    os.replace(new, served)
    assert count() == 2
    assert "2 rows" in client.get(f"/sql/{GAME}").text
    names = client.get(f"/sql/{GAME}/cards.json?_shape=objects").json()["rows"]
    assert "ash-whisper" not in {r["id"] for r in names}
