"""Two games in one site, in a real browser: search over one game or all of them."""

from __future__ import annotations

import functools
import sys
import threading
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest
from browser.conftest import QuietHandler

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from test_hecatomb_site_games import BOTH, CARD, FIRST, SECOND, make_project  # noqa: E402

from charnel import pipeline  # noqa: E402

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def two_games(tmp_path_factory):
    project = make_project(tmp_path_factory.mktemp("two-games"))
    pipeline.build_all(project, BOTH, project / "build", site=True)
    handler = functools.partial(QuietHandler, directory=str(project / "build" / "site"))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def result_links(page) -> list[str]:
    page.wait_for_function(
        "() => [...document.querySelectorAll('#results li a')]"
        f".some((a) => a.getAttribute('href').startsWith('/{SECOND}/'))", timeout=10_000)
    links = page.locator("#results li a")
    return sorted(links.evaluate_all("(all) => all.map((a) => a.getAttribute('href'))"))


def test_search_one_game_or_all(page, two_games):
    name = CARD.replace("-", " ")
    page.goto(f"{two_games}/{FIRST}/search/?q={name}")
    page.locator("#results .hint").wait_for(timeout=10_000)
    assert f"/{SECOND}/cards/{CARD}/" not in page.locator("#results").inner_html()
    scope = page.locator("select[data-search-scope]")
    scope.wait_for(state="visible", timeout=10_000)
    scope.select_option("all")
    assert f"/{SECOND}/cards/{CARD}/" in result_links(page)
    page.goto(f"{two_games}/{SECOND}/search/?q=bone%20hauler")
    page.locator("#results .hint").wait_for(timeout=10_000)
    assert f"/{FIRST}/cards/bone-hauler/" not in page.locator("#results").inner_html()
    page.locator("select[data-search-scope]").select_option("all")
    link = page.locator(f"#results li a[href='/{FIRST}/cards/bone-hauler/']")
    link.wait_for(timeout=10_000)
    link.click()
    page.wait_for_url(f"**/{FIRST}/cards/bone-hauler/")
    assert page.locator("h1").inner_text() == "Bone Hauler"
