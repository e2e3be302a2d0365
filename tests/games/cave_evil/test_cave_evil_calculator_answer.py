"""The fight calculator's server answer (`fight/odds.json` under `charnel serve`): the report
`charnel odds --json` prints, the same refusals, and bounded requests."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
from cave_evil_support import ROOT

from charnel.diagnostics import Problems
from charnel.games.cave_evil import calculator
from charnel.games.cave_evil.odds_report import fight_odds
from charnel.serve import answers
from charnel.sources import loader


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A site folder holding only the calculator's pool file, and the loaded pool."""
    records = loader.load(ROOT, "cave-evil", Problems())
    folder = tmp_path_factory.mktemp("site")
    pool = folder / "cave-evil" / "fight" / "pool.json"
    pool.parent.mkdir(parents=True)
    pool.write_bytes(calculator.pool_json(records.cards))
    return folder, records


def get(folder, path: str, method: str = "GET") -> httpx.Response:
    routes = answers.routes(folder)

    async def app(scope, receive, send):
        await answers.respond(scope, send, *routes[scope["path"]])

    async def run() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
            return await c.request(method, path)

    return asyncio.run(run())


def test_the_answer_is_the_report_of_charnel_odds(site):
    folder, records = site
    query = "attacker=Ghoul%2C+Ghoul&defender=Mind+Chanter"
    response = get(folder, f"/cave-evil/fight/odds.json?{query}")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    expected = fight_odds(records.cards, "Ghoul, Ghoul", "Mind Chanter", [])["data"]
    assert response.json() == json.loads(json.dumps(expected))
    assert response.json()["first_by"] == "defender"


def test_a_refused_side_is_refused_in_the_same_words(site):
    folder, _ = site
    response = get(folder, "/cave-evil/fight/odds.json?attacker=Dracor,Bloated+Worm&defender=Ghoul")
    assert response.status_code == 400
    assert response.json()["error"].endswith("or 1 Large (rule 8.2a)")


@pytest.mark.parametrize(
    ("path", "method", "status"),
    [
        ("/cave-evil/fight/odds.json?attacker=Ghoul", "GET", 400),
        ("/cave-evil/fight/odds.json?attacker=Ghoul&defender=" + "G" * 1001, "GET", 400),
        ("/cave-evil/fight/odds.json?attacker=Ghoul&defender=Ghoul", "POST", 405),
        ("/cave-evil/fight/odds.json?attacker=Ghoul&defender=Ghoul&mode=sneaky", "GET", 400),
    ],
)
def test_bad_requests_get_a_reason(site, path, method, status):
    folder, _ = site
    response = get(folder, path, method)
    assert response.status_code == status
    assert response.json()["error"]


def test_only_the_games_own_paths_answer(site):
    folder, _ = site
    assert list(answers.routes(folder)) == ["/cave-evil/fight/odds.json"]


def test_what_flips_it_is_the_answer_of_charnel_odds_flip(site):
    from charnel.games.cave_evil.odds_lines import flip

    folder, records = site
    query = "attacker=Cavelling+%2F+Necromonk&defender=Ghoul%2C+Horned+Hellion&flip=60%25"
    response = get(folder, f"/cave-evil/fight/odds.json?{query}")
    assert response.status_code == 200
    expected = flip(records.cards, "Cavelling / Necromonk", "Ghoul, Horned Hellion", [], "60%")
    assert response.json() == json.loads(json.dumps(expected["data"]))
    assert response.json()["card"]["name"] == "Lantern Thief"
    bad = get(folder, "/cave-evil/fight/odds.json?attacker=Ghoul&defender=Ghoul&flip=lots")
    assert bad.status_code == 400
    assert bad.json()["error"].startswith("a threshold is a chance")
