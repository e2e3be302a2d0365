"""The site in a real browser: search as you type, links to clauses, list filters, a screenshot."""

from __future__ import annotations

import re

import pytest
import yaml
from projects import BUNDLED
from site_fixtures import GAME

from charnel import registry

pytestmark = pytest.mark.browser
TITLE = yaml.safe_load((BUNDLED / "rules" / GAME / "game.yaml").read_text("utf-8"))["title"]
# the list's first filter: a facet the game declares
FACET = next(f.facet for f in registry.get(GAME).fields if f.facet)


def test_type_a_card_name_and_open_the_result(page, site_url):
    page.goto(f"{site_url}/")
    page.fill("#q", "Grave Hound")
    result = page.locator("#results").get_by_role("link", name="Grave Hound", exact=True)
    result.wait_for(timeout=10_000)
    result.click()
    page.wait_for_url(re.compile(r"/cards/grave-hound/$"))
    assert page.locator("h1").inner_text() == "Grave Hound"


def test_enter_on_a_clause_number_jumps_to_the_clause(page, site_url):
    page.goto(f"{site_url}/")
    page.fill("#q", "13.1a")
    page.press("#q", "Enter")
    page.wait_for_url(re.compile(r"/rules/13-[a-z-]+/#13\.1a$"))
    assert page.locator('[id="13.1a"]').is_visible()


def test_search_filters_by_kind(page, site_url):
    page.goto(f"{site_url}/search/?q=sacrifice")
    kind = page.locator("select[data-search-filter=kind]")
    kind.wait_for(timeout=10_000)
    kind.select_option("term")
    page.wait_for_function(
        "() => { const k = [...document.querySelectorAll('#results .kind')];"
        " return k.length > 0 && k.every(e => e.textContent === 'term'); }",
        timeout=10_000,
    )
    assert page.locator("#results li a", has_text="Sacrifice").count() >= 1


def test_a_term_in_a_card_text_leads_to_the_glossary_then_to_the_clause(page, site_url):
    page.goto(f"{site_url}/cards/grave-hound/")
    term = page.locator(".card-text a").first
    slug = term.get_attribute("href").rstrip("/").rsplit("/", 1)[1]
    term.click()
    page.wait_for_url(re.compile(rf"/glossary/{re.escape(slug)}/$"))
    link = page.locator(".clause a.num").first
    number = link.inner_text()
    link.click()
    page.wait_for_url(re.compile(rf"#{re.escape(number)}$"))
    target = page.locator(f'[id="{number}"]')
    assert target.is_visible()
    assert page.evaluate("() => decodeURIComponent(location.hash.slice(1))") == number


def test_filter_the_card_list_by_a_facet(page, site_url):
    page.goto(f"{site_url}/cards/")
    rows = page.locator("table.cards tbody tr")
    total = rows.count()
    value = page.locator(f"select[data-filter={FACET}] option").nth(1).get_attribute("value")
    page.select_option(f"select[data-filter={FACET}]", value)
    visible = page.locator("table.cards tbody tr:not([hidden])")
    shown = visible.count()
    assert 0 < shown < total
    for i in range(shown):
        assert visible.nth(i).get_attribute(f"data-{FACET}") == value
    assert page.locator("[data-count]").inner_text() == f"{shown} of {total} cards"


def test_sort_the_card_list_by_name(page, site_url):
    page.goto(f"{site_url}/cards/")
    page.click("th button[data-sort=name]")
    names = page.locator("table.cards tbody tr").evaluate_all(
        "rows => rows.map(r => r.dataset.name)"
    )
    assert names == sorted(names)


def test_search_is_reachable_by_keyboard(page, site_url):
    page.goto(f"{site_url}/")
    for _ in range(12):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.type === 'search'"):
            break
    assert page.evaluate("() => document.activeElement.type") == "search"


def test_card_page_screenshot(page, site_url, artifacts):
    page.goto(f"{site_url}/cards/grave-hound/")
    page.locator(".face img").evaluate("img => img.decode()")
    assert page.locator(".face img").evaluate("img => img.naturalWidth") > 0
    target = artifacts / "card-grave-hound.png"
    page.screenshot(path=str(target), full_page=True)
    assert target.stat().st_size > 10_000


def test_a_ruling_search_result_opens_the_ruling(page, site_url):
    page.goto(f"{site_url}/search/?q=sacrifice")
    kind = page.locator("select[data-search-filter=kind]")
    kind.wait_for(timeout=10_000)
    kind.select_option("ruling")
    link = page.locator("#results li a").first
    page.wait_for_function(
        "() => { const a = document.querySelector('#results li a');"
        " return a && a.getAttribute('href').includes('#'); }",
        timeout=10_000,
    )
    href = link.get_attribute("href")
    link.click()
    anchor = href.split("#", 1)[1]
    page.wait_for_url(re.compile(r"/rulings/"))
    assert page.locator(f'[id="{anchor}"]').is_visible()


def test_each_result_appears_once_and_filters_are_not_page_text(page, site_url):
    page.goto(f"{site_url}/search/?q=sacrifice")
    page.locator("select[data-search-filter=kind]").wait_for(timeout=10_000)
    page.locator("#results li").first.wait_for(timeout=10_000)
    hrefs = page.locator("#results li > a").evaluate_all("links => links.map(a => a.href)")
    assert len(hrefs) == len(set(hrefs))
    excerpts = page.locator("#results li p").all_inner_texts()
    assert not any(text.startswith(("term", "card", "rule ")) for text in excerpts)


def test_an_old_url_leads_to_its_page_with_its_query_and_fragment(page, site_root):
    page.goto(f"{site_root}/cards/grave-hound/")
    page.wait_for_url(re.compile(rf"/{GAME}/cards/grave-hound/$"))
    assert page.locator("h1").inner_text() == "Grave Hound"
    page.goto(f"{site_root}/search/?q=sacrifice")
    page.wait_for_url(re.compile(rf"/{GAME}/search/\?q=sacrifice$"))
    page.locator("#results li a", has_text="Sacrifice").first.wait_for(timeout=10_000)


def test_the_site_home_leads_to_each_game(page, site_root):
    page.goto(f"{site_root}/")
    page.get_by_role("link", name=TITLE).first.click()
    page.wait_for_url(re.compile(rf"/{GAME}/$"))
    assert page.locator("h1").inner_text() == TITLE
