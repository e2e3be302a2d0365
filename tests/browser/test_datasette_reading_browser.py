"""Datasette as `charnel serve` serves it, read in Chromium: the table in sight, the search
page within a phone's width and labelled, one facet per column, search-all as text."""

from __future__ import annotations

import pytest
from projects import DUEL, copy_project, only_game
from servers import serving_app

from charnel import pipeline
from charnel.serve.app import application, make_datasette

GAME = only_game(DUEL)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    root = tmp_path_factory.mktemp("datasette")
    copy_project(root, DUEL)
    pipeline.build(root, GAME, root / "build")
    datasette = make_datasette({GAME: root / "build" / f"{GAME}.db"}, root / "work")
    with serving_app(application(datasette, None), lifespan="off") as base:
        yield base


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    yield page
    context.close()


def test_the_cards_table_is_in_sight(page, served):
    page.goto(f"{served}/sql/{GAME}/cards")
    table = page.locator("table.rows-and-columns").bounding_box()
    assert table["y"] < 900  # the viewport's height: rows show without scrolling
    descriptions = page.locator("dl.column-descriptions").bounding_box()
    assert descriptions["y"] > table["y"]  # still there, after the rows they describe
    headers = page.locator("table.rows-and-columns th").evaluate_all(
        "ths => ths.map(th => th.dataset.column)"
    )
    assert headers[:2] == ["id", "name"]


def test_the_search_page_fits_a_phone_and_labels_its_cells(phone, served):
    phone.goto(f"{served}/sql/{GAME}/-/search?q=clan:ember")
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390
    cells = phone.locator(".charnel-results tbody tr").first.locator("td")
    labels = cells.evaluate_all(
        "tds => tds.map(td => [td.dataset.column, getComputedStyle(td, '::before').content])"
    )
    assert labels and all(content == f'"{column}"' for column, content in labels)
    assert "text" in [column for column, _ in labels]


def test_a_preset_facet_in_the_url_is_shown_once(page, served):
    page.goto(f"{served}/sql/{GAME}/cards?_facet=clan")
    names = [n.split()[0] for n in page.locator(".facet-info-name strong").all_inner_texts()]
    assert names.count("clan") == 1 and len(names) == len(set(names))
    page.goto(f"{served}/sql/{GAME}/cards?_facet=clan&_facet=might")
    names = [n.split()[0] for n in page.locator(".facet-info-name strong").all_inner_texts()]
    assert names.count("clan") == 1 and names.count("might") == 1


def test_search_all_shows_text_not_markup(page, served):
    page.goto(f"{served}/sql/-/search?q=blow")
    shown = page.locator("section.content").inner_text()
    assert "Cinder Knight" in shown and "Blow" in shown
    for raw in ("<p>", "<a ", "_html", '["', '{"'):
        assert raw not in shown
