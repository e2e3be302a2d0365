"""`charnel serve` in Chromium: no script from a query runs, and the Content-Security-Policy
holds on the site's and Datasette's pages while their own scripts keep working."""

from __future__ import annotations

import re
import time
from urllib.parse import quote

import pytest
from servers import serving_app
from site_fixtures import GAME

from charnel.serve.app import application, make_datasette

pytestmark = pytest.mark.browser

PAYLOADS = [
    "<img src=x onerror=\"document.title='pwned'\">",
    "<script>document.title='pwned'</script>",
    "<svg onload=\"document.title='pwned'\"></svg>",
]


@pytest.fixture(scope="module")
def server_url(tmp_path_factory, built_site):
    project, game_site = built_site  # read only: Datasette's own files go to a folder of ours
    site = game_site.parent  # the whole site: the game's folder and assets
    datasette = make_datasette(
        {GAME: project / "build" / f"{GAME}.db"}, tmp_path_factory.mktemp("datasette"),
        site=True,
    )
    with serving_app(application(datasette, site)) as base:
        yield base


@pytest.fixture
def violations(page):
    """CSP violations the page reports, as the browser's console messages."""
    found: list[str] = []
    page.on(
        "console",
        lambda m: found.append(m.text) if "Content Security Policy" in m.text else None,
    )
    return found


@pytest.mark.parametrize("payload", PAYLOADS)
@pytest.mark.parametrize("column", ["x_html", "x"])
def test_no_script_from_a_query_runs(page, server_url, payload, column):
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    sql = f"select '{payload.replace(chr(39), chr(39) * 2)}' as {column}"
    page.goto(f"{server_url}/sql/{GAME}?sql={quote(sql)}")
    page.wait_for_load_state("load")
    assert page.title() != "pwned" and not dialogs
    cell = page.locator(f"td.col-{column}")
    assert cell.inner_text() == payload  # shown as text, not made into elements
    assert cell.locator("img, script, svg").count() == 0


@pytest.mark.parametrize(
    "path, ready",
    [
        (f"/{GAME}/", "#q"),
        (f"/{GAME}/cards/", "table.cards"),
        (f"/{GAME}/cards/mischief/", "h1"),
        ("/sql/", "h1"),
        (f"/sql/{GAME}", "h1"),
        (f"/sql/{GAME}/cards", "table.rows-and-columns"),
        (f"/sql/{GAME}/cards/mischief", "h1"),
        (f"/sql/{GAME}?sql=select+name+from+cards", ".CodeMirror"),
        ("/sql/-/search?q=mischief", "table.charnel-all"),
        (f"/sql/{GAME}/-/search?q=mischief", "h1"),
    ],
)
def test_pages_work_under_the_policy(page, server_url, violations, path, ready):
    response = page.goto(server_url + path)
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.locator(ready).first.wait_for(timeout=10_000)
    page.wait_for_load_state("load")
    assert violations == []


def test_datasette_scripts_run(page, server_url, violations):
    # The query editor is made by an inline script of Datasette's, allowed by its hash.
    page.goto(f"{server_url}/sql/{GAME}?sql=select+1")
    page.locator(".CodeMirror").wait_for(timeout=10_000)
    # search-all's matches are drawn by the server, with no script to run
    page.goto(f"{server_url}/sql/-/search?q=mischief")
    page.locator("table.charnel-all").first.wait_for(timeout=10_000)
    assert violations == []


def test_site_search_works_under_the_policy(page, server_url, violations):
    page.goto(f"{server_url}/{GAME}/")
    page.fill("#q", "Grave Hound")
    page.locator("#results").get_by_role("link", name="Grave Hound", exact=True).wait_for(
        timeout=10_000
    )
    assert violations == []


@pytest.mark.parametrize("path", [f"/{GAME}/cards/grave-hound/", f"/sql/{GAME}/cards"])
def test_an_injected_inline_script_is_blocked(page, server_url, violations, path):
    page.goto(server_url + path)
    ran = page.evaluate(
        """() => new Promise(resolve => {
            document.addEventListener('securitypolicyviolation', () => resolve('blocked'));
            const s = document.createElement('script');
            s.textContent = "window.injected = 'ran'";
            document.body.append(s);
            setTimeout(() => resolve(window.injected || 'nothing'), 2000);
        })"""
    )
    assert ran == "blocked"
    assert any(re.search("script", v) for v in violations)


def test_pages_cannot_be_framed(page, server_url):
    page.goto(server_url + f"/{GAME}/cards/")
    page.set_content(f'<iframe src="{server_url}/{GAME}/cards/"></iframe>')
    frame = page.frames[-1]
    time.sleep(0.5)
    assert frame.url in ("about:blank", "") or "chrome-error" in frame.url or not frame.content()
