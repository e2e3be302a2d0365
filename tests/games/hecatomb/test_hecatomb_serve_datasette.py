"""Datasette on the game's small project: what a game with keywords, costs and text columns of
its own gets — the keyword facets and filter, the keyword and cost-curve canned queries, and
card search over its own text columns."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest
from projects import copy_project, only_game
from test_serve_datasette import Client, rows

from charnel import pipeline, registry
from charnel.serve.app import application, make_datasette

SMALL = Path(__file__).parent / "fixtures" / "project"
GAME = only_game(SMALL)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("serve")
    copy_project(root, SMALL)
    pipeline.build(root, GAME, root / "build")
    return root / "build"


class GameClient(Client):
    """The core tests' client, on this game's database."""

    def __init__(self, build: Path, public: bool = False):
        self.work = build / f"datasette-{'public' if public else 'open'}"
        self.ds = make_datasette({GAME: build / f"{GAME}.db"}, self.work, public=public)
        self.app = application(self.ds, None)
        asyncio.run(self._start())


@pytest.fixture(scope="module")
def client(built: Path) -> Client:
    return GameClient(built)


def test_card_table_facets_by_doom_and_by_keyword(client: Client):
    data = rows(client.get(f"/sql/{GAME}/cards.json?_shape=objects"))
    facets = data["facet_results"]
    assert set(facets) >= {"type", "doom", "set_code", "rarity"}
    doom = {f["value"]: f["count"] for f in facets["doom"]["results"]}
    assert doom == {"greed": 1, "corruption": 1, "deceit": 1}
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


def test_the_keyword_facet_asked_again_is_shown_once(client: Client):
    asked = client.get(f"/sql/{GAME}/cards.json?_facet_array=keywords&_size=2")
    assert asked.status_code == 302
    assert asked.headers["location"] == f"/sql/{GAME}/cards.json?_size=2"


def test_card_search_covers_the_game_text_columns(built: Path):
    game = registry.get(GAME)
    conn = sqlite3.connect(built / f"{GAME}.db")
    columns = [r[1] for r in conn.execute("pragma table_info(cards_fts)")]
    assert columns == ["name", "text", *game.full_text, "flavor"]
    assert {"subtype", "conditional_text"} <= set(columns)


@pytest.mark.parametrize(
    ("term", "expected"),
    [("undead", {"tithe-collector"}), ("reap undead", {"tithe-collector"})],  # the subtype
)
def test_card_search_finds_the_game_text_columns(client: Client, term: str, expected: set[str]):
    params = {"_search": term, "_shape": "objects"}
    data = rows(client.get(f"/sql/{GAME}/cards.json", params=params))
    assert {r["id"] for r in data["rows"]} == expected


CANNED = [
    ("cards_with_keyword", {"keyword": "reaper"}, "id", {"bone-hauler", "tithe-collector"}),
    ("cost_curve_by_doom", {"type": ""}, "doom", {"greed", "corruption", "deceit"}),
    ("cost_curve_by_doom", {"type": "fate"}, "doom", {"deceit"}),
]


@pytest.mark.parametrize(("name", "params", "key", "expected"), CANNED)
def test_canned_query(client: Client, name: str, params: dict, key: str, expected: set[str]):
    data = rows(client.get(f"/sql/{GAME}/{name}.json", params={**params, "_shape": "array"}))
    assert {r[key] for r in data} == expected


def test_cost_curve_counts(client: Client):
    data = rows(client.get(f"/sql/{GAME}/cost_curve_by_doom.json?type=&_shape=array"))
    by_doom = {r["doom"]: r for r in data}
    assert by_doom["greed"]["2"] == 1 and by_doom["corruption"]["1"] == 1
    assert sum(r["total"] for r in data) == 3


def test_public_keeps_the_keyword_query_and_search(built: Path):
    public = GameClient(built, public=True)
    canned = public.get(f"/sql/{GAME}/cards_with_keyword.json?keyword=evader&_shape=array")
    assert [r["id"] for r in rows(canned)] == ["bone-hauler"]
    page = public.get(f"/sql/{GAME}/-/search?q=kw:evader")
    assert page.status_code == 200 and "Bone Hauler" in page.text
    assert "Run this SQL" not in page.text
