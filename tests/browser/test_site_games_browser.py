"""Two games in one site, in a real browser: search over one game or all of them."""

from __future__ import annotations

import functools
import sys
import threading
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest
from conftest import QuietHandler

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from games import second  # noqa: E402
from test_site_games import BOTH, make_project  # noqa: E402

from charnel import games, pipeline  # noqa: E402

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def two_games(tmp_path_factory):
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("CHARNEL_GAMES", "games.second:game")
        games.available.cache_clear()
        project = make_project(tmp_path_factory.mktemp("two-games"))
        pipeline.build_all(project, BOTH, project / "build", site=True)
    games.available.cache_clear()
    handler = functools.partial(QuietHandler, directory=str(project / "build" / "site"))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def result_links(page) -> list[str]:
    links = page.locator("#results li a")
    links.first.wait_for(timeout=10_000)
    return sorted(links.evaluate_all("(all) => all.map((a) => a.getAttribute('href'))"))


def test_search_one_game_or_all(page, two_games):
    page.goto(f"{two_games}/hecatomb/search/?q=bone%20hauler")
    assert "/hecatomb/cards/bone-hauler/" in result_links(page)
    assert not [h for h in result_links(page) if not h.startswith("/hecatomb/")]
    scope = page.locator("select[data-search-scope]")
    scope.wait_for(state="visible", timeout=10_000)
    scope.select_option("all")
    page.wait_for_function(
        "() => [...document.querySelectorAll('#results li a')]"
        f".some((a) => a.getAttribute('href').startsWith('/{second.ID}/'))",
        timeout=10_000,
    )
    links = result_links(page)
    assert "/hecatomb/cards/bone-hauler/" in links and f"/{second.ID}/cards/bone-hauler/" in links
    page.locator("#results li a", has_text="Bone Hauler").last.click()
    page.wait_for_url("**/cards/bone-hauler/")
    assert page.locator("h1").inner_text() == "Bone Hauler"
