"""The judge under `charnel serve`: an example posted to /<game>/judge/run is run by the same
runner as `charnel examples` and answered with drawings, facts, refusals and their clauses;
hostile examples get a 4xx with a located message, within the bounds, while the server goes
on answering everyone else."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from projects import BUNDLED, copy_project, only_game
from servers import serving_app
from test_serve_judge import BOMB, BOUNDS, NESTED, run

from charnel import pipeline
from charnel.diagnostics import Problems
from charnel.serve import judge
from charnel.serve.app import application, make_datasette
from charnel.sources import loader

GAMES = sorted(p.name for p in (BUNDLED / "rules").iterdir() if p.is_dir())  # each has an engine
GAME = only_game(Path(__file__).parent / "fixtures" / "project")  # the examples' actions

ONE_MANA_CARD = b"""\
id: one-mana-card-per-turn
title: Only one card a turn may be added to the mana zone
given:
  hand: {you: [greed, deceit]}
when:
  - add_mana: {card: greed}
  - add_mana: {card: deceit}
then:
  mana: {you: 2}
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = copy_project(tmp_path_factory.mktemp("judge"), BUNDLED)
    for game in GAMES:
        pipeline.build(root, game, root / "build")
    return root


def make_app(project: Path, *, public: bool = False, bounds: judge.Bounds = BOUNDS):
    databases = {g: project / "build" / f"{g}.db" for g in GAMES}
    work = project / "build" / f"datasette-{'public' if public else 'open'}"
    datasette = make_datasette(databases, work, public=public)
    return application(datasette, None, root=project, public=public, judge_bounds=bounds)


@pytest.fixture(scope="module")
def server(project: Path):
    """The app served by uvicorn on a free port of 127.0.0.1."""
    with serving_app(make_app(project)) as base:
        yield base


def rules_example(project: Path, game: str):
    """The first example of the game's rules that states facts, runs legal steps and passes."""
    records = loader.load(project, game, Problems())
    for example in records.examples:
        when = example.body.get("when") or []
        if (
            example.owner_kind == "rule"
            and example.body.get("then")
            and when
            and not any(isinstance(s, dict) and "expect" in s for s in when)
        ):
            return example
    raise AssertionError(f"{game} has no such example")


@pytest.mark.parametrize("game", GAMES)
def test_a_rules_example_is_answered_as_the_site_shows_it(server, project, game):
    example = rules_example(project, game)
    answer = run(server, game, example.source.encode())
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["passed"] is True and data["id"] == example.id
    assert data["before_svg"].startswith("<svg") and data["after_svg"].startswith("<svg")
    assert data["facts"] and data["refusals"] == []


def test_a_refusal_names_the_clause_whose_examples_show_it(server):
    data = run(server, GAME, ONE_MANA_CARD).json()
    assert data["passed"] is False
    assert "step 2 (add_mana) was refused" in data["message"]
    [refusal] = data["refusals"]
    assert refusal["step"] == 2 and refusal["reason"] == "mana-once"
    clause = refusal["clauses"][0]
    assert (clause["number"], clause["url"]) == ("9.2a", f"/{GAME}/rules/9.2a/")


def test_facts_that_do_not_hold_are_shown_against_the_engines(server):
    body = ONE_MANA_CARD.replace(b"  - add_mana: {card: deceit}\n", b"")
    data = run(server, GAME, body).json()
    assert data["passed"] is False and data["refusals"] == []
    assert data["diff"] == ["- mana.you: 2", "+ mana.you: 1"]


def test_an_expected_refusal_passes_and_is_still_shown(server):
    body = ONE_MANA_CARD.replace(b"{card: deceit}\n", b"{card: deceit}\n    expect: illegal\n")
    data = run(server, GAME, body.replace(b"{you: 2}", b"{you: 1}")).json()
    assert data["passed"] is True
    assert data["refusals"][0]["expected"] is True


HOSTILE = {
    "huge position": (
        b"id: huge\ntitle: huge\ngiven:\n  hand: {you: [" + b"greed, " * 6000 + b"]}\n",
        413,
        "over 32 KB",
    ),
    "deep nesting": (NESTED, 400, "example:3:"),
    "alias bomb": (BOMB, 400, "aliases"),
    "bad YAML": (b"id: x\ntitle: [unclosed\n", 400, "example:"),
    "unknown card": (
        b"id: x\ntitle: y\ngiven:\n  hand: {you: [Nonesuch]}\n",
        400,
        "example:4:16: no card 'Nonesuch'",
    ),
    "script in names": (
        b"id: x\ntitle: y\ngiven:\n  hand: {you: ['<script>alert(1)</script>']}\n",
        400,
        "no card '<script>",
    ),
    "unknown action": (b"id: x\ntitle: y\nwhen: [fly]\n", 400, "unknown action 'fly'"),
    "not UTF-8": (b"id: x\ntitle: \xff\n", 400, "not UTF-8"),
    "no example": (b"- a list\n", 400, "example:1:1: an example is a mapping"),
    "runaway": (
        b"id: x\ntitle: y\nwhen:\n  - mana: {amount: 1000000000, doom: greed}\n",
        422,
        "stopped",
    ),
}


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_examples_get_a_4xx_with_a_message(server, name):
    body, status, fragment = HOSTILE[name]
    answer = run(server, GAME, body)
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"].startswith("application/json")
    assert fragment in answer.json()["error"]
    assert "Traceback" not in answer.text


def test_a_located_message_shows_the_line_and_points_at_the_column(server):
    error = run(server, GAME, HOSTILE["unknown card"][0]).json()["error"]
    assert error.splitlines()[1:] == [
        "   4 |   hand: {you: [Nonesuch]}",
        " " * 22 + "^",
    ]


def test_a_made_up_card_named_with_a_script_is_drawn_as_text(server):
    body = (
        b"id: x\ntitle: y\ngiven:\n  abominations:\n"
        b"    A: {owner: you, minions: [{name: '<script>alert(1)</script>', strength: 2}]}\n"
    )
    answer = run(server, GAME, body)
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert "<script" not in data["before_svg"] and "&lt;script&gt;" in data["before_svg"]


def test_only_post_is_answered(server):
    assert httpx.get(f"{server}/{GAME}/judge/run").status_code == 405


def test_a_run_past_the_time_bound_is_stopped(project):
    slow = judge.Judge(project, GAME, judge.Bounds(seconds=0.2, memory_mb=1024))
    try:
        body = b"id: x\ntitle: y\nwhen:\n  - mana: {amount: 5000000, doom: greed}\n"
        status, data = slow.ask(body)
        assert (status, data["error"]) == (422, "the example ran longer than 0.2 s and was stopped")
        status, data = slow.ask(ONE_MANA_CARD)  # a fresh process answers the next one
        assert status == 200 and data["refusals"], data
    finally:
        slow.close()


def test_the_server_answers_twenty_clients_while_a_run_is_stopped(server):
    runaway = HOSTILE["runaway"][0]
    with ThreadPoolExecutor(max_workers=21) as pool:
        stopped = pool.submit(run, server, GAME, runaway)

        def client(n: int) -> tuple[int, int, int]:
            with httpx.Client(base_url=server, timeout=60) as http:
                page = http.get(f"/sql/{GAME}.json")
                answer = http.post(f"/{GAME}/judge/run", content=ONE_MANA_CARD)
                bad = http.post(f"/{GAME}/judge/run", content=b"id: x\ntitle: [\n")
            return page.status_code, answer.status_code, bad.status_code

        results = list(pool.map(client, range(20)))
        assert stopped.result().status_code == 422
    assert results == [(200, 200, 400)] * 20


def test_twenty_clients_each_with_a_hostile_run_are_all_answered(server):
    """Twenty clients at once, each sending one hostile example (every fifth a runaway the
    judge kills) between a page and a sound run: every hostile run gets its 4xx, and every
    sound request is answered as when the server is idle."""
    hostile = ["runaway", "deep nesting", "alias bomb", "bad YAML", "unknown card"]

    def client(n: int) -> tuple[int, int, int, int, str]:
        name = hostile[n % len(hostile)]
        with httpx.Client(base_url=server, timeout=120) as http:
            page = http.get(f"/sql/{GAME}.json")
            bad = http.post(f"/{GAME}/judge/run", content=HOSTILE[name][0])
            answer = http.post(f"/{GAME}/judge/run", content=ONE_MANA_CARD)
        return page.status_code, bad.status_code, HOSTILE[name][1], answer.status_code, name

    with ThreadPoolExecutor(max_workers=20) as pool:
        results = list(pool.map(client, range(20)))
    for page, bad, expected, answer, name in results:
        assert (page, bad, answer) == (200, expected, 200), name
    assert sum(name == "runaway" for *_, name in results) == 4


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
