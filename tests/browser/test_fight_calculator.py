"""The Cave Evil fight calculator in Chromium: its numbers equal the engine's exact odds."""

from __future__ import annotations

import functools
import random
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlencode

import pytest

# the game's test helpers live with its tests; its browser tests share the fixtures here
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "cave_evil"))
import cave_evil_game  # noqa: E402
from cave_evil_fighters import matchup  # noqa: E402

from charnel import pipeline  # noqa: E402
from charnel.games.cave_evil.engine.fight import FightError, totals  # noqa: E402
from charnel.games.cave_evil.engine.odds import four_places, odds  # noqa: E402

pytestmark = pytest.mark.browser

MATCHUPS = [
    ("Hunched One, Cavelling, Ghoul", "Necromonk, Horned Hellion + Cool Stretchy Headband", ""),
    ("Cavelling", "Cavelling", ""),
    ("Insectoid, Hunched One", "Ghoul, Horned Hellion", ""),
    ("Gore Hound + Spiked Shield", "Gore Hound, Necromonk", ""),
    ("Hunched One / Ghoul / Insectoid", "Horned Hellion / Cavelling, Spiked Shield", ""),
    ("Necromonk", "Ghoul, Horned Hellion, Hunched One", ""),
    ("Spitting Grub, Ghoul / Spitting Grub", "Cavelling, Cool Stretchy Headband", "ranged"),
    ("Spitting Grub / Ghoul + Spiked Shield", "Necromonk", "ranged"),
    ("Spitting Grub", "Spitting Grub, Ghoul", "ranged-defence"),
]


def drawn(count: int, seed: int = 7) -> list[tuple[str, str, str]]:
    """Seeded random matchups from the fixture pool: one to three squads a side of one to
    three cards, items among them, no ranged modes."""
    rng = random.Random(seed)
    creatures = [f["name"] for f in cave_evil_game.FIGHTERS if f["type"] == "creature"]
    items = [f["name"] for f in cave_evil_game.FIGHTERS if f["type"] != "creature"]

    def side() -> str:
        squads = []
        for _ in range(rng.choice((1, 1, 2, 3))):
            names = rng.choices(creatures, k=rng.randint(1, 3)) + rng.choices(
                items, k=rng.randint(0, 1)
            )
            squads.append(", ".join(names))
        return " / ".join(squads)

    return [(side(), side(), "") for _ in range(count)]


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the stdlib's parameter name
        pass


@pytest.fixture(scope="module")
def fight_url(tmp_path_factory):
    with cave_evil_game.registered():
        project = cave_evil_game.make_project(tmp_path_factory.mktemp("fight-project"))
        pipeline.build(project, "cave-evil", project / "build", force=True, site=True)
    handler = functools.partial(QuietHandler, directory=str(project / "build" / "site"))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/cave-evil/fight/"
    server.shutdown()
    server.server_close()


def shown(page, url: str) -> tuple[list[list[str]], str]:
    page.goto("about:blank")
    page.goto(url)
    page.wait_for_selector("#calculator[data-ready=true]", timeout=10_000)
    rows = page.eval_on_selector_all(
        "#odds tbody tr",
        "rows => rows.map(r => [r.dataset.first, ...['.totals', '.attacker', '.defender',"
        " '.exact'].map(c => r.querySelector(c).textContent)])",
    )
    return rows, page.inner_text("#fight-error")


def expected(attacker: str, defender: str, mode: str) -> list[list[str]]:
    how = {
        "ranged": mode in ("ranged", "ranged-defence"),
        "ranged_defence": mode == "ranged-defence",
    }
    fight = matchup(attacker, defender, **how)
    mine, theirs = totals(fight)
    return [
        [
            first,
            f"{mine[first]} v {theirs[first]}",
            four_places(row.attacker),
            four_places(row.defender),
            str(row.attacker),
        ]
        for first, row in odds(fight).items()
    ]


@pytest.mark.parametrize(("attacker", "defender", "mode"), MATCHUPS + drawn(12))
def test_calculator_equals_the_engine(page, fight_url, attacker, defender, mode):
    query = {"attacker": attacker, "defender": defender} | ({"mode": mode} if mode else {})
    rows, error = shown(page, f"{fight_url}#{urlencode(query)}")
    assert error == ""
    assert rows == expected(attacker, defender, mode)


def test_a_side_the_engine_refuses_is_refused_with_its_words(page, fight_url):
    query = {"attacker": "Ghoul", "defender": "Cavelling", "mode": "ranged"}
    rows, error = shown(page, f"{fight_url}#{urlencode(query)}")
    with pytest.raises(FightError) as refused:
        totals(matchup("Ghoul", "Cavelling", ranged=True))
    assert rows == [] and error == str(refused.value)


def test_pick_cards_with_the_controls(page, fight_url):
    rows, _ = shown(page, fight_url)
    assert rows == []
    for side, names in (("attacker", ["Ghoul", "Spiked Shield"]), ("defender", ["Horned Hellion"])):
        squad = page.locator(f"[data-side={side}] .squad").first
        for name in names:
            squad.locator("select").select_option(name)
            squad.locator("button.add").click()
    page.locator("[data-side=defender] .add-squad").click()
    flank = page.locator("[data-side=defender] .squad").nth(1)
    flank.locator("select").select_option("Insectoid")
    flank.locator("button.add").click()
    page.wait_for_selector("#odds tbody tr[data-first=wp]")
    cells = page.eval_on_selector_all(
        "#odds tbody tr", "rows => rows.map(r => r.querySelector('.exact').textContent)"
    )
    assert cells == [
        r[4] for r in expected("Ghoul, Spiked Shield", "Horned Hellion / Insectoid", "")
    ]
    assert "Insectoid" in page.evaluate("() => decodeURIComponent(location.hash)")


def test_the_results_fit_a_phone(browser, fight_url):
    context = browser.new_context(viewport={"width": 393, "height": 851}, is_mobile=True)
    try:
        page = context.new_page()
        query = {"attacker": MATCHUPS[0][0], "defender": MATCHUPS[0][1]}
        page.goto(f"{fight_url}#{urlencode(query)}")
        page.wait_for_selector("#calculator[data-ready=true]", timeout=10_000)
        page.wait_for_selector("#odds tbody tr")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 393
        cut = page.eval_on_selector_all(
            "#odds tbody td",
            """cells => cells.filter((c) => { const box = c.getBoundingClientRect();
                 return box.left < 0 || box.right > 393 || c.scrollWidth > c.clientWidth; })
               .map((c) => c.textContent)""",
        )
        assert cut == []
        labels = page.eval_on_selector_all(
            "#odds tbody tr:first-child td",
            "cells => cells.map((c) => getComputedStyle(c, '::before').content)",
        )
        assert '"Attacker wins"' in labels
    finally:
        context.close()
