"""The search language on a static copy of the site: the build's field index queried in
Chromium gives the same cards as `charnel serve`, for every query of one shared list
(tests/field_queries.py), for each bundled game; and the site's box answers a field query
with no server, and says so plainly when it cannot (on the toy game)."""

from __future__ import annotations

import json
import urllib.parse
import urllib.request

import pytest
from conftest import serving
from field_queries import queries
from projects import BUNDLED, DUEL, WITH_RELEASES, copy_project, only_game
from servers import serving_app

from charnel import pipeline, registry
from charnel.serve.app import application, make_datasette

pytestmark = pytest.mark.browser
# the bundled games: those whose cards this repository holds
GAMES = sorted(g for g in registry.available() if (BUNDLED / "cards" / g).is_dir())
SHOWN = 100  # the rows the server's search.json gives at most
TOY = only_game(DUEL)  # the game the box's queries are written for

# Every query of the list run by the browser's implementation, one page visit for them all.
RUN_ALL = """async ([home, list]) => {
  const search = await import("/assets/fieldsearch.js");
  const out = [];
  for (const query of list) {
    const found = await search.find(home, query);
    if (found.error) out.push({ error: [found.error.message, found.error.column] });
    else out.push({ ids: (await found.index.rows(found.cards)).map((row) => row.id) });
  }
  return out;
}"""


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    project = copy_project(tmp_path_factory.mktemp("field-search"), BUNDLED, WITH_RELEASES)
    out = project / "build"
    pipeline.build_all(project, GAMES, out, force=True, site=True)
    return out


@pytest.fixture(scope="module")
def server(built):
    """`charnel serve`'s app over both games, on a free port of 127.0.0.1."""
    datasette = make_datasette({g: built / f"{g}.db" for g in GAMES}, built / "datasette",
                               site=True)
    with serving_app(application(datasette, built / "site"), log_level="error") as base:
        yield base


@pytest.fixture(scope="module")
def static(built):
    """The same site as files, served by http.server on 127.0.0.1."""
    with serving(built / "site") as url:
        yield url


@pytest.fixture(scope="module")
def toy_static(duel_project):
    """The toy game's site as files, served by http.server on 127.0.0.1."""
    with serving(duel_project / "build" / "site") as url:
        yield f"{url}/{TOY}"


def _server_answer(server: str, game: str, query: str) -> dict:
    url = f"{server}/sql/{game}/-/search.json?q={urllib.parse.quote(query)}"
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            data = json.load(response)
    except urllib.error.HTTPError as exc:
        data = json.load(exc)
    if data.get("error"):
        return {"error": [data["error"]["message"], data["error"]["column"]]}
    return {"ids": [row["id"] for row in data["rows"]], "truncated": data["truncated"]}


@pytest.mark.parametrize("game", GAMES)
def test_the_static_copy_answers_as_the_server_does(page, built, server, static, game):
    listed = queries(game, built / f"{game}.db")
    assert len(listed) > 150
    page.goto(f"{static}/{game}/")
    answers = page.evaluate(RUN_ALL, [f"/{game}/", listed])
    differ, found_cards, refused = [], 0, 0
    for query, mine in zip(listed, answers, strict=True):
        theirs = _server_answer(server, game, query)
        if "error" in theirs:
            refused += 1
            same = mine == theirs
        else:
            found_cards += bool(mine.get("ids"))
            same = ("ids" in mine and mine["ids"][:SHOWN] == theirs["ids"]
                    and (len(mine["ids"]) > SHOWN) == theirs["truncated"])
        if not same:
            differ.append(f"{query!r}: server {theirs} browser {mine}")
    assert not differ, "\n".join(differ)
    # the list means something: many queries find cards, and the mistakes are covered too
    assert found_cards >= 40 and refused >= 10


def test_the_box_answers_a_field_query_without_a_server(page, toy_static):
    query = "clan:ember m>=2"
    page.goto(f"{toy_static}/search/?q={urllib.parse.quote(query)}")
    page.wait_for_selector("#results ol.card-results li", timeout=20_000)
    found = page.locator("#results ol.card-results li a").all_inner_texts()
    assert found == ["Cinder Knight"]  # of that clan, mighty enough
    assert "match" in page.locator("#results .search-note").first.inner_text()
    assert page.locator("#results", has_text="charnel serve").count() == 0


def test_the_box_shows_a_static_mistake_with_its_column(page, toy_static):
    page.goto(f"{toy_static}/search/")
    page.fill("#q", "clan:embr")
    error = page.locator("#results .search-error")
    error.wait_for(timeout=20_000)
    assert error.inner_text() == "no card has 'embr' in 'clan'; did you mean 'ember'? (column 6)"


def test_without_its_index_the_box_says_so_and_searches_nothing_else(page, toy_static):
    page.route("**/search/fields/**", lambda route: route.abort())
    query = "t:champion m>=3"
    page.goto(f"{toy_static}/search/?q={urllib.parse.quote(query)}")
    note = page.locator("#results .search-note")
    note.wait_for(timeout=20_000)
    assert "cannot run the search t:champion m>=3" in note.inner_text()
    assert "did not load" in note.inner_text()
    assert page.locator("#results ol").count() == 0  # no word results in its place


def test_a_field_the_browser_cannot_read_is_said_plainly(page, toy_static):
    """A kind of field the server knows and the browser's reading does not (as when the
    language grows a kind): the box says which field, and answers nothing in its place."""
    def strange(route):
        manifest = json.loads(route.fetch().text())
        manifest["fields"][manifest["names"]["m"]]["kind"] = "range"
        route.fulfill(status=200, content_type="application/json", body=json.dumps(manifest))

    page.route("**/search/fields/manifest.json", strange)
    query = "t:champion m:3"
    page.goto(f"{toy_static}/search/?q={urllib.parse.quote(query)}")
    note = page.locator("#results .search-note")
    note.wait_for(timeout=20_000)
    assert "'m' is a range field, which only the server can search" in note.inner_text()
    assert page.locator("#results ol").count() == 0
