"""The site's search box with the search language: field queries answered by the server under
`charnel serve` (a static copy answers them from its field index:
test_field_search_browser.py)."""

from __future__ import annotations

import pytest
from projects import DUEL, only_game
from servers import serving_app
from site_fixtures import GAME

from charnel import registry
from charnel.query import search
from charnel.serve.app import application, make_datasette

pytestmark = pytest.mark.browser
TOY = only_game(DUEL)  # the game the field queries are written for
FIELD_QUERY = "clan:ember m>=2"


@pytest.fixture(scope="module")
def served(tmp_path_factory, duel_project):
    """The app `charnel serve` runs (site and Datasette) over the toy game, on a free port of
    127.0.0.1."""
    build = duel_project / "build"  # read only: Datasette's own files go to a folder of ours
    site, database = build / "site", build / f"{TOY}.db"
    work = tmp_path_factory.mktemp("datasette")
    app = application(make_datasette({TOY: database}, work, site=True), site)
    with serving_app(app, log_level="error") as base:
        yield f"{base}/{TOY}", database


def test_a_field_query_shows_the_cards_with_their_text(page, served):
    url, database = served
    _, columns, rows = search(database, FIELD_QUERY, registry.get(TOY).search_fields(),
                              columns=["name", "text"])
    expected = [(name, text) for name, text in rows]
    assert [name for name, _ in expected] == ["Cinder Knight"]  # of that clan, mighty enough
    page.goto(f"{url}/")
    page.fill("#q", FIELD_QUERY)
    page.wait_for_selector(f'#results[data-query="{FIELD_QUERY}"] ol.card-results', timeout=20_000)
    items = page.locator("#results ol.card-results li")
    shown = [(item.locator("a").inner_text(), item.locator(".card-text").inner_text())
             for item in items.all()]
    assert shown == expected
    assert page.locator("#results", has_text="charnel serve").count() == 0
    page.locator("#results ol.card-results li a", has_text="Cinder Knight").click()
    page.wait_for_url(f"**/{TOY}/cards/cinder-knight/")


def test_a_field_query_says_the_filters_do_not_narrow_it(page, served):
    url, _ = served
    page.goto(f"{url}/search/")
    page.locator("select[data-search-filter=kind]").select_option("card")
    page.fill("#q", FIELD_QUERY)
    page.wait_for_selector(f'#results[data-query="{FIELD_QUERY}"] ol.card-results', timeout=20_000)
    said = page.locator("#results .search-note").first.inner_text()
    assert "kind: card" in said and "word searches only" in said


def test_a_bad_field_query_is_pointed_at(page, served):
    url, _ = served
    page.goto(f"{url}/search/")
    page.fill("#q", "clan:embr")
    error = page.locator("#results .search-error")
    error.wait_for(timeout=20_000)
    assert "did you mean 'ember'" in error.inner_text()


def test_words_still_search_pages_under_serve(page, served):
    url, _ = served
    page.goto(f"{url}/")
    page.fill("#q", "knight")
    page.wait_for_selector("#results li a", timeout=20_000)
    assert page.locator("#results li a", has_text="Knight").count() >= 1


def test_the_search_language_page(page, site_url):
    """The game's own search page, then the language's sections for players, then its fields."""
    from charnel import registry

    page.goto(f"{site_url}/search/syntax/")
    assert page.locator("h1").count() == 1
    assert page.locator("h2", has_text="Searching the card pool").count() == 1
    assert page.locator("h2, h3", has_text="For game authors").count() == 0
    assert page.locator("table").count() >= 4
    opening = registry.get(GAME).search_examples[0]
    assert page.locator("code", has_text=opening).count() >= 1


def test_results_come_ten_at_a_time(page, site_url):
    # each shown result costs its fragment's request: the first query fetches ten
    page.goto(f"{site_url}/")
    page.fill("#q", "damage")
    more = page.locator("#results button.more")
    more.wait_for(timeout=20_000)
    assert page.locator("#results ol li").count() == 10
    total = int(page.locator("#results .hint").first.inner_text().split()[0])
    more.click()
    page.wait_for_function("() => document.querySelectorAll('#results ol li').length > 10",
                           timeout=20_000)
    assert page.locator("#results ol li").count() == min(20, total)
