"""Search after an edit, in Chromium: the edited card's new words find it and its old words
no longer do, while its page is in the delta bundle and its old one still in the main bundle."""

from __future__ import annotations

import pytest
from conftest import serving
from site_fixtures import GAME, build, make_project

from charnel.site import search

pytestmark = pytest.mark.browser


def found(page, url: str, query: str) -> list[str]:
    """The titles of the results the home page's search box shows for `query`."""
    page.goto(f"{url}/{GAME}/")
    page.fill("#q", query)
    page.locator(f'#results[data-query="{query}"]').wait_for(timeout=15_000)
    return page.locator("#results ol li > a").all_inner_texts()


def test_an_edited_card_is_found_by_its_new_words_only(browser, tmp_path):
    project = make_project(tmp_path / "p")
    site = build(project, tmp_path / "b").parent
    card = project / "cards" / GAME / "base" / "grave-hound.yaml"
    with serving(site) as url:
        context = browser.new_context()
        assert "Grave Hound" in found(context.new_page(), url, "valleys")
        context.close()

        card.write_text(card.read_text().replace(
            "It smells the faithful from three valleys away.", "Marmalade quinquennially."))
        build(project, tmp_path / "b")
        assert (site / GAME / search.DELTA / "pagefind.js").is_file()

        context = browser.new_context()  # a reader who comes after the edit
        page = context.new_page()
        asked = []
        page.on("request", lambda request: asked.append(request.url))
        assert "Grave Hound" in found(page, url, "marmalade")
        # the home page carries the reading: the delta is merged without asking for it
        assert any("/pagefind-delta/pagefind-entry.json" in u for u in asked)
        assert not any(u.endswith("/assets/search.json") for u in asked)
        assert "Grave Hound" not in found(page, url, "valleys")
        # the other cards are still found in the main bundle, each once
        hounds = found(page, url, "hound")
        assert "Ash Hound" in hounds and len(hounds) == len(set(hounds))

        # a page without the reading asks for it when its box is focused, and merges the delta
        card_page = context.new_page()
        card_page.goto(f"{url}/{GAME}/cards/ash-hound/")
        with card_page.expect_request(lambda r: r.url.endswith("/assets/search.json")), \
                card_page.expect_request(lambda r: "/pagefind-delta/pagefind-entry.json" in r.url):
            card_page.focus("#q-top")
        context.close()
