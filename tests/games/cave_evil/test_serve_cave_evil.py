"""Datasette over Cave Evil: facets by deck, kind, size and each species, the deck
composition table, and every canned query answering."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import httpx
import pytest

from charnel import pipeline

REPO = Path(__file__).resolve().parents[3]
GAME = "cave-evil"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    from charnel.serve.app import application, make_datasette

    out = tmp_path_factory.mktemp("cave-evil")
    pipeline.build_all(REPO, [GAME], out, force=True)
    db = out / f"{GAME}.db"
    ds = make_datasette({GAME: db}, out / "ds", public=False, site=False)
    app = application(ds, None)

    def get(path: str) -> httpx.Response:
        async def run() -> httpx.Response:
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
                return await c.get(path)

        return asyncio.run(run())

    return db, get


def test_cards_facet_by_deck_kind_size_and_species(served):
    db, get = served
    response = get(f"/sql/{GAME}/cards.json?_size=0")
    assert response.status_code == 200, response.text[:300]
    facets = response.json()["facet_results"]
    assert {"set_code", "type", "size", "species"} <= set(facets)
    conn = sqlite3.connect(db)
    undead = conn.execute(
        "select count(*) from cards, json_each(cards.species) where value = 'Undead'").fetchone()[0]
    conn.close()
    species = {r["value"]: r["count"] for r in facets["species"]["results"]}
    assert species["Undead"] == undead > 0  # each species apart, not "Undead,Beast"
    decks = {r["value"]: r["count"] for r in facets["set_code"]["results"]}
    assert {"bribe", "construct", "summon", "abyss"} <= set(decks)


def test_deck_composition_answers_the_event_chance(served):
    db, get = served
    rows = get(f"/sql/{GAME}/deck_composition.json?_shape=array").json()
    assert {r["deck"] for r in rows} == {"bribe", "construct", "summon", "abyss"}
    conn = sqlite3.connect(db)
    for row in rows:
        events = conn.execute("select coalesce(sum(copies), 0) from cards where set_code = ? and "
                              "type = 'event'", (row["deck"],)).fetchone()[0]
        assert row["copies"] == 70 and row["events"] == events
        assert row["event_chance"] == pytest.approx(events / 70)
        assert row["expected_events"] == pytest.approx(events / (70 - events + 1))
    conn.close()


def test_every_canned_query_answers(served):
    _, get = served
    queries = get(f"/sql/{GAME}.json").json()["queries"]
    names = {q["name"] for q in queries}
    assert "cards_by_group_and_type" in names and "cost_curve_by_size" in names
    assert "cards_with_keyword" not in names  # Cave Evil's cards have no keywords
    for name in names:
        response = get(f"/sql/{GAME}/{name}.json?type=&rule=1.1a&card=ghoul&_shape=array")
        assert response.status_code == 200, (name, response.text[:300])
    curve = get(f"/sql/{GAME}/cost_curve_by_size.json?type=creature&_shape=array").json()
    assert {r["size"] for r in curve} >= {"large", "medium", "small"}
