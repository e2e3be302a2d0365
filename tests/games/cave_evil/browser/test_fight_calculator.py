"""The Cave Evil fight calculator in Chromium under `charnel serve`: on the shared fight
matchups (tests/games/cave_evil/fixtures/fight-matchups.yaml) the page shows the same first
attribute and exact chance, or the same refusal, as `charnel odds --json` and the `odds` fact;
a static copy of the site says it needs the server."""

from __future__ import annotations

import functools
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlencode

import pytest

# the game's test helpers are in the folder above
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fight_matchups import IDS, MATCHUPS, REFUSALS  # noqa: E402
from servers import serving_app

from charnel.serve.app import application, make_datasette  # noqa: E402

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[4]
GAME = "cave-evil"


@pytest.fixture(scope="module")
def built(bundled_build):
    """The outputs of the bundled project's build (tests/conftest.py), read only."""
    return bundled_build / "build"


@pytest.fixture(scope="module")
def fight_url(built, tmp_path_factory):
    """The calculator as `charnel serve` serves it, on a free port of 127.0.0.1."""
    site = built / "site"
    work = tmp_path_factory.mktemp("datasette")
    app = application(make_datasette({GAME: built / f"{GAME}.db"}, work, site=True), site)
    with serving_app(app, log_level="error") as base:
        yield f"{base}/{GAME}/fight/"


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the stdlib's parameter name
        pass


@pytest.fixture(scope="module")
def static_url(built):
    """The same site as plain files, no server behind it."""
    handler = functools.partial(QuietHandler, directory=str(built / "site"))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/{GAME}/fight/"
    server.shutdown()
    server.server_close()


def shown(page, url: str) -> tuple[dict, str]:
    page.goto("about:blank")
    page.goto(url)
    page.wait_for_selector("#calculator[data-ready=true]", timeout=15_000)
    result = page.eval_on_selector("#fight-result", "r => ({...r.dataset})")
    return result, page.inner_text("#fight-error")


def address(matchup: dict) -> str:
    query = {"attacker": matchup["attacker"], "defender": matchup["defender"]}
    if matchup.get("modes"):
        query["mode"] = ",".join(matchup["modes"])
    return "#" + urlencode(query)


@pytest.mark.parametrize("matchup", MATCHUPS, ids=IDS)
def test_the_page_gives_the_shared_answers(page, fight_url, matchup):
    result, error = shown(page, fight_url + address(matchup))
    if "refused" in matchup:
        assert REFUSALS[matchup["refused"]] in " ".join(error.split())
        assert "attacker" not in result
        return
    assert error == ""
    first = matchup["first"]
    assert result["first"] == (", ".join(first) if isinstance(first, list) else first)
    assert result["attacker"] == matchup["attacker_wins"]


def test_pick_cards_with_the_controls(page, fight_url):
    result, _ = shown(page, fight_url)
    assert "attacker" not in result
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
    page.wait_for_selector("#calculator[data-ready=true]")
    assert page.locator("#odds tbody tr").count() == 6
    assert "Insectoid" in page.evaluate("() => decodeURIComponent(location.hash)")


def test_a_static_copy_says_it_needs_the_server(page, static_url):
    result, error = shown(page, static_url + address(MATCHUPS[0]))
    assert "attacker" not in result
    assert "charnel serve" in error


PHONE_PAIRS = [
    ("Cavelling / Necromonk", "Ghoul, Horned Hellion"),
    ("Cavelling, Lantern Thief / Necromonk", "Ghoul, Horned Hellion"),
]
PHONE_LINES = "#" + urlencode(
    [(k, v) for a, d in PHONE_PAIRS for k, v in (("attacker", a), ("defender", d))]
    + [("line", "2")]
)


def odds_of(attacker: str, defender: str) -> str:
    """The attacker's exact chance as `charnel odds --json` gives it for the line alone."""
    from charnel.diagnostics import Problems
    from charnel.games.cave_evil.odds_report import fight_odds
    from charnel.sources import loader

    records = loader.load(ROOT, GAME, Problems())
    return fight_odds(records.cards, attacker, defender)["data"]["result"]["attacker"]


def test_the_results_fit_a_phone(browser, fight_url):
    """At 393 px the outcome table and the comparison are whole: no cell runs past the
    screen, each is a labelled line, and the exact fractions are one tap away."""
    context = browser.new_context(
        viewport={"width": 393, "height": 851}, is_mobile=True, has_touch=True
    )
    try:
        page = context.new_page()
        page.goto(fight_url + PHONE_LINES)
        page.wait_for_selector("#calculator[data-ready=true]", timeout=15_000)
        page.wait_for_selector("#odds tbody tr")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 393
        for table in ("#odds", "#compare"):
            assert page.eval_on_selector(table, "t => t.scrollWidth <= t.clientWidth")
            cut = page.eval_on_selector_all(
                f"{table} tbody td, {table} tbody th",
                """cells => cells.filter((c) => { const box = c.getBoundingClientRect();
                     return box.left < 0 || box.right > 393 || c.scrollWidth > c.clientWidth; })
                   .map((c) => c.textContent)""",
            )
            assert cut == []
        labels = page.eval_on_selector_all(
            "#odds tbody tr:first-child td",
            "cells => cells.map((c) => getComputedStyle(c, '::before').content)",
        )
        assert '"Attacker wins: "' in labels
        said = page.inner_text("#odds tbody tr:first-child td.attacker")
        assert " in " in said and said.endswith("%)")
        exact = page.locator("#odds tbody tr:first-child details.exact")
        assert not exact.locator("div").first.is_visible()
        exact.locator("summary").tap()
        assert "/" in exact.locator("div").first.inner_text()
    finally:
        context.close()


def test_lines_of_play_side_by_side_in_one_address(page, fight_url):
    """Two lines in the address: the comparison shows each as `charnel odds` answers it, and
    a line copied from the page is kept in the address."""
    result, error = shown(page, fight_url + PHONE_LINES)
    assert error == ""
    rows = page.locator("#compare tbody tr")
    assert rows.count() == 2
    chances = [rows.nth(i).get_attribute("data-attacker") for i in range(2)]
    assert chances == [odds_of(a, d) for a, d in PHONE_PAIRS]
    assert result["attacker"] == chances[1]
    assert "Lantern Thief" in page.inner_text("#compare tbody tr:nth-child(2)")
    page.click("#copy-line")
    page.wait_for_selector("#calculator[data-ready=true]")
    assert page.locator("#compare tbody tr").count() == 3
    hashed = page.evaluate("() => decodeURIComponent(location.hash)")
    assert hashed.count("attacker=") == 3 and "line=3" in hashed


def test_what_flips_it_on_the_page(page, fight_url):
    """The reader sets a chance; the page names the card `charnel odds --flip` names, and
    opens the line with it beside the first."""
    shown(page, fight_url + "#" + urlencode(
        {"attacker": "Cavelling / Necromonk", "defender": "Ghoul, Horned Hellion"}
    ))
    page.fill("#flip-chance", "60")
    page.click("#flip-form button[type=submit]")
    page.wait_for_selector("#flip-result[data-card]")
    assert page.get_attribute("#flip-result", "data-card") == "Lantern Thief"
    assert "flip=60" in page.evaluate("() => location.hash")
    page.click("#flip-result button")
    page.wait_for_selector("#calculator[data-ready=true]")
    page.wait_for_selector("#compare tbody tr:nth-child(2)")
    assert "Lantern Thief" in page.inner_text("#compare tbody tr:nth-child(2)")
