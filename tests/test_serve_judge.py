"""The judge under `charnel serve`: an example posted to /<game>/judge/run is run by the same
runner as `charnel examples` and answered with facts, refusals and their clauses; hostile
examples get a 4xx with a located message, while the server goes on answering everyone else.
(A run stopped at its time bound needs an engine that can run long: the bundled game's tests.)"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from projects import DUEL, copy_project, only_game
from servers import serving_app

from charnel import judge as answers
from charnel import pipeline, registry
from charnel.diagnostics import Problems
from charnel.serve import judge
from charnel.serve.app import application, make_datasette
from charnel.sources import loader

GAME = only_game(DUEL)  # the examples below are written in its actions
BOUNDS = judge.Bounds(seconds=3, memory_mb=256)

FALLEN_STRIKES = b"""\
id: the-fallen-cannot-strike-back
title: A duellist felled by a blow cannot strike back
given: {life: {a: 10, b: 3}}
when:
  - strike: {by: a}
  - strike: {by: b}
dice: [4]
then:
  life: {a: 10, b: -1}
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = copy_project(tmp_path_factory.mktemp("judge"), DUEL)
    pipeline.build(root, GAME, root / "build")
    return root


def make_app(project: Path, *, public: bool = False, bounds: judge.Bounds = BOUNDS):
    databases = {GAME: project / "build" / f"{GAME}.db"}
    work = project / "build" / f"datasette-{'public' if public else 'open'}"
    datasette = make_datasette(databases, work, public=public)
    return application(datasette, None, root=project, public=public, judge_bounds=bounds)


@pytest.fixture(scope="module")
def server(project: Path):
    """The app served by uvicorn on a free port of 127.0.0.1."""
    with serving_app(make_app(project)) as base:
        yield base


def run(server: str, game: str, body: bytes) -> httpx.Response:
    return httpx.post(f"{server}/{game}/judge/run", content=body, timeout=60)


def test_a_rules_example_is_answered_as_its_run_ends(server, project):
    records = loader.load(project, GAME, Problems())
    example = next(e for e in records.examples if e.id == "two-blows-two-dice")
    answer = run(server, GAME, example.source.encode())
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["passed"] is True and data["id"] == example.id
    assert data["actions"] == ["strike by: a", "strike by: b", "strike by: a"]
    assert ["life.a", "4"] in data["facts"] and ["life.b", "3"] in data["facts"]
    assert data["refusals"] == []


def test_a_refusal_names_the_clause_whose_examples_show_it(server):
    data = run(server, GAME, FALLEN_STRIKES).json()
    assert data["passed"] is False
    assert "step 2 (strike) was refused" in data["message"]
    [refusal] = data["refusals"]
    assert refusal["step"] == 2 and refusal["reason"] == "fallen"
    clause = refusal["clauses"][0]
    assert (clause["number"], clause["url"]) == ("1.1b", f"/{GAME}/rules/1.1b/")


def test_facts_that_do_not_hold_are_shown_against_the_engines(server):
    body = FALLEN_STRIKES.replace(b"  - strike: {by: a}\n", b"")  # b strikes first, unfelled
    data = run(server, GAME, body).json()
    assert data["passed"] is False and data["refusals"] == []
    assert data["diff"] == ["- life of a: 10", "+ life of a: 6",
                            "- life of b: -1", "+ life of b: 3"]


def test_an_expected_refusal_passes_and_is_still_shown(server):
    body = FALLEN_STRIKES.replace(b"{by: b}\n", b"{by: b}\n    expect: illegal\n")
    data = run(server, GAME, body).json()
    assert data["passed"] is True
    assert data["refusals"][0]["expected"] is True


NESTED = b"id: deep\ntitle: deep\ngiven: " + b"[" * 200 + b"]" * 200 + b"\n"
BOMB = b"id: bomb\ntitle: bomb\na: &a [x, x, x, x, x, x, x, x, x, x]\n" + b"".join(
    b"%s: &%s [%s]\n" % (bytes([c]), bytes([c]), b", ".join([b"*" + bytes([c - 1])] * 10))
    for c in range(ord("b"), ord("h"))
)

HOSTILE = {
    "huge position": (
        b"id: huge\ntitle: huge\ngiven:\n  life: {a: [" + b"10, " * 12000 + b"]}\n",
        413,
        "over 32 KB",
    ),
    "deep nesting": (NESTED, 400, "example:3:"),
    "alias bomb": (BOMB, 400, "aliases"),
    "bad YAML": (b"id: x\ntitle: [unclosed\n", 400, "example:"),
    "unknown state": (
        b"id: x\ntitle: y\ngiven:\n  mana: {a: 1}\n",
        400,
        "example:4:3: unknown state field 'mana' (known: life, might)",
    ),
    "script in names": (
        b"id: x\ntitle: y\ngiven:\n  '<script>alert(1)</script>': 2\n",
        400,
        "unknown state field '<script>",
    ),
    "unknown action": (b"id: x\ntitle: y\nwhen: [fly]\n", 400, "unknown action 'fly'"),
    "not UTF-8": (b"id: x\ntitle: \xff\n", 400, "not UTF-8"),
    "no example": (b"- a list\n", 400, "example:1:1: an example is a mapping"),
}


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_examples_get_a_4xx_with_a_message(server, name):
    body, status, fragment = HOSTILE[name]
    answer = run(server, GAME, body)
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"].startswith("application/json")
    assert fragment in answer.json()["error"]
    assert "Traceback" not in answer.text


@pytest.mark.parametrize("name", HOSTILE)
def test_the_judge_answers_each_hostile_example_as_the_server_does(project, name):
    """The server stops reading a body past the bound; the judge itself, handed one, answers
    with the same status, so a caller of either sees one rule."""
    body, status, fragment = HOSTILE[name]
    records = loader.load(project, GAME, Problems())
    got, data = answers.answer(registry.get(GAME), records, body, {})
    assert (got, fragment in data["error"]) == (status, True), data


def test_a_located_message_shows_the_line_and_points_at_the_column(server):
    error = run(server, GAME, HOSTILE["unknown state"][0]).json()["error"]
    assert error.splitlines()[1:] == ["   4 |   mana: {a: 1}", " " * 9 + "^"]


def test_only_post_is_answered(server):
    assert httpx.get(f"{server}/{GAME}/judge/run").status_code == 405


def test_twenty_clients_each_with_a_hostile_example_are_all_answered(server):
    """Twenty clients at once, each sending one hostile example between a page and a sound
    run: every hostile one gets its 4xx, and every sound request is answered."""
    hostile = list(HOSTILE)

    def client(n: int) -> tuple[int, int, int, int, str]:
        name = hostile[n % len(hostile)]
        with httpx.Client(base_url=server, timeout=120) as http:
            page = http.get(f"/sql/{GAME}.json")
            bad = http.post(f"/{GAME}/judge/run", content=HOSTILE[name][0])
            answer = http.post(f"/{GAME}/judge/run", content=FALLEN_STRIKES)
        return page.status_code, bad.status_code, HOSTILE[name][1], answer.status_code, name

    with ThreadPoolExecutor(max_workers=20) as pool:
        results = list(pool.map(client, range(20)))
    for page, bad, expected, answer, name in results:
        assert (page, bad, answer) == (200, expected, 200), name


def test_public_servers_limit_runs_per_client(project):
    app = make_app(project, public=True, bounds=judge.Bounds(rate=2))

    async def three() -> list[int]:
        transport = httpx.ASGITransport(app=app, client=("127.0.0.9", 1))
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
            return [
                (await c.post(f"/{GAME}/judge/run", content=b"id: x\ntitle: [\n")).status_code
                for _ in range(3)
            ]

    assert asyncio.run(three()) == [400, 400, 429]
