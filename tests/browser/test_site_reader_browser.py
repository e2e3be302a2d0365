"""The site as a reader meets it: shared links that reproduce a list, a phone's screen, and
rule references followed to the clause they name."""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from site_fixtures import GAME

from charnel import registry

PHONE = {"width": 390, "height": 844}
TAP = 44  # px: the least height of a control a finger must hit
# the list's first filter: a facet the game declares
FACET = next(f.facet for f in registry.get(GAME).fields if f.facet)


@pytest.fixture
def phone(browser):
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    yield page
    context.close()


def a_value(page) -> str:
    """The first value the list's filter offers (after "any")."""
    return page.locator(f"select[data-filter={FACET}] option").nth(1).get_attribute("value")


def visible_names(page) -> list[str]:
    return page.locator("table.cards tbody tr:not([hidden])").evaluate_all(
        "rows => rows.map(r => r.dataset.name)"
    )


def test_a_filtered_list_url_reproduces_it(page, browser, site_url):
    page.goto(f"{site_url}/cards/")
    total = page.locator("table.cards tbody tr").count()
    value = a_value(page)
    page.select_option(f"select[data-filter={FACET}]", value)
    page.fill("[data-filter-text]", "a")
    page.click("th button[data-sort=name]")
    page.click("th button[data-sort=name]")  # again: descending
    names = visible_names(page)
    assert 0 < len(names) < total and names == sorted(names, reverse=True)
    url = page.url
    assert f"{FACET}={value}" in url and "text=a" in url and "sort=-name" in url

    # the same URL in a browser that never saw the list
    other = browser.new_context(viewport={"width": 1200, "height": 900})
    try:
        shared = other.new_page()
        shared.goto(url)
        assert visible_names(shared) == names
        assert shared.locator(f"select[data-filter={FACET}]").input_value() == value
        assert shared.locator("[data-filter-text]").input_value() == "a"
        sorted_by = shared.locator("th[aria-sort=descending] button")
        assert sorted_by.get_attribute("data-sort") == "name"
        assert shared.locator("[data-count]").inner_text() == f"{len(names)} of {total} cards"
    finally:
        other.close()

    # clearing the filters clears them from the URL
    page.select_option(f"select[data-filter={FACET}]", "")
    page.fill("[data-filter-text]", "")
    assert f"{FACET}=" not in page.url and "text=" not in page.url and "sort=-name" in page.url


def test_a_list_url_with_unknown_values_shows_every_card(page, site_url):
    page.goto(f"{site_url}/cards/?{FACET}=nonsense&sort=nothing")
    rows = page.locator("table.cards tbody tr")
    assert len(visible_names(page)) == rows.count() > 0


def test_the_card_list_at_390px(phone, site_url):
    phone.goto(f"{site_url}/cards/")
    width = phone.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    rows = phone.locator("table.cards tbody tr")
    first = rows.first
    box = first.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    # each row leads with its name, whole, and labels the values after it
    tops = first.locator("td").evaluate_all(
        "cells => cells.map(c => c.getBoundingClientRect().top)"
    )
    name = first.locator("td.name")
    assert name.evaluate("c => c.getBoundingClientRect().top") <= min(tops)
    name_box = name.locator("a").bounding_box()
    assert name_box["x"] + name_box["width"] <= PHONE["width"]
    labels = first.locator("td[data-label]").evaluate_all(
        "cells => cells.map(c => getComputedStyle(c, '::before').content)"
    )
    assert labels and all(label not in ("none", "normal", '""') for label in labels)
    # filtering and sorting still work, with targets a finger can hit
    phone.select_option(f"select[data-filter={FACET}]", a_value(phone))
    assert 0 < len(visible_names(phone)) < rows.count()
    sort = phone.locator("th button[data-sort=name]")
    assert sort.bounding_box()["height"] >= TAP
    sort.tap()
    names = visible_names(phone)
    assert names == sorted(names)
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.mark.parametrize("path", ["/", "/cards/", "/cards/grave-hound/", "/rulings/", "/glossary/"])
def test_tap_targets_are_at_least_44px(phone, site_url, path):
    phone.goto(f"{site_url}{path}")
    small = phone.evaluate(
        """(tap) => Array.from(document.querySelectorAll(
             '.top a, .top input, nav a, .bottom a, main li > a, dd > a, dt > a, .meta a, '
             + 'p > a:only-child, button, select, input'))
           .filter((e) => e.offsetParent !== null && !e.closest('.skip'))
           .map((e) => [e.textContent.trim() || e.outerHTML.slice(0, 40),
                        e.getBoundingClientRect().height])
           .filter(([, h]) => h < tap)""",
        TAP,
    )
    assert small == []


def test_the_card_name_comes_first_on_a_phone(phone, site_url):
    phone.goto(f"{site_url}/cards/grave-hound/")
    name = phone.locator("h1").bounding_box()
    face = phone.locator("figure.face img").bounding_box()
    assert name["y"] + name["height"] <= face["y"]
    assert name["y"] < PHONE["height"] / 2


def test_a_rule_reference_in_a_clause_leads_to_the_clause(page, site_url):
    page.goto(f"{site_url}/rules/")
    page.locator(".contents a").first.click()
    refs = page.locator(".clause-text a.ref-rule")
    assert refs.count() > 0
    ref = refs.first
    number = ref.inner_text()
    ref.click()
    page.wait_for_url(re.compile(rf"#{re.escape(number)}$"))
    target = page.locator(f'[id="{number}"]')
    assert target.is_visible()
    assert target.evaluate("(e) => e.matches(':target')")


def test_a_rule_reference_in_a_card_ruling_leads_to_the_clause(page, site_url):
    page.goto(f"{site_url}/rulings/")
    ref = page.locator("article.ruling a.ref-rule").first
    number = ref.inner_text()
    ref.click()
    page.wait_for_url(re.compile(rf"#{re.escape(number)}$"))
    assert page.locator(f'[id="{number}"]').is_visible()


def test_the_datasette_link_shows_only_where_datasette_answers(page, site_url):
    link = page.locator("[data-datasette]")
    page.goto(f"{site_url}/cards/grave-hound/")  # a static host: no /sql/ behind it
    page.wait_for_load_state("networkidle")
    assert link.count() == 1 and not link.is_visible()
    asked = []

    def datasette(route):
        asked.append((route.request.method, route.request.url))
        route.fulfill(status=200, body="")

    page.route(re.compile(r".*/sql/.*"), datasette)  # as under `charnel serve`
    page.goto(f"{site_url}/cards/grave-hound/")
    link.locator("a").wait_for(state="visible", timeout=5_000)
    assert asked and asked[0][0] == "HEAD" and asked[0][1].endswith("/cards/grave-hound")


@pytest.mark.parametrize(
    ("typed", "name"), [("grave hund", "grave hound"), ("Grve Hound", "grave hound")]
)
def test_a_misspelt_name_in_the_card_list_finds_the_card(page, site_url, typed, name):
    page.goto(f"{site_url}/cards/")
    page.fill("[data-filter-text]", typed)
    names = visible_names(page)
    assert names and names[0] == name and len(names) <= 3
    assert page.locator("[data-count]").inner_text().startswith(f"no card is named “{typed}”")
    page.fill("[data-filter-text]", "qqqqqqq")
    assert visible_names(page) == []


# --- a reader on a 393 px phone ---------------------------------------------------------------

NARROW = {"width": 393, "height": 851}


@pytest.fixture
def narrow(browser):
    context = browser.new_context(
        viewport=NARROW, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    yield page
    context.close()


def wait_for_results(page, query: str) -> None:
    page.wait_for_selector(f'#results[data-query="{query}"] ol li a', timeout=20_000)


def test_the_query_survives_reload_and_back(narrow, site_url):
    narrow.goto(f"{site_url}/search/")
    narrow.fill("#q", "grave")
    wait_for_results(narrow, "grave")
    assert narrow.url.endswith("/search/?q=grave")
    narrow.reload()
    wait_for_results(narrow, "grave")
    assert narrow.input_value("#q") == "grave"
    narrow.locator("#results ol li a").first.click()
    narrow.wait_for_load_state()
    assert "/search/" not in narrow.url
    narrow.go_back()
    wait_for_results(narrow, "grave")
    assert narrow.input_value("#q") == "grave"


def test_chosen_filters_are_in_the_url_too(page, site_url):
    page.goto(f"{site_url}/search/?q=hound")
    page.locator("select[data-search-filter=kind]").select_option("card")
    page.wait_for_function("() => location.search.includes('f.kind=card')")
    page.reload()
    wait_for_results(page, "hound")
    assert page.locator("select[data-search-filter=kind]").input_value() == "card"
    page.wait_for_function(
        """() => { const kinds = Array.from(document.querySelectorAll('#results ol li .kind'));
                   return kinds.length && kinds.every((k) => k.textContent === 'card'); }""",
        timeout=20_000,
    )


def test_on_a_phone_the_box_and_the_results_come_before_the_filters(narrow, site_url):
    narrow.goto(f"{site_url}/search/")
    narrow.fill("#q", "grave")
    wait_for_results(narrow, "grave")
    box = narrow.locator("#q").bounding_box()
    first = narrow.locator("#results ol li").first.bounding_box()
    assert first["y"] - (box["y"] + box["height"]) < 200  # a hint and a closed "Filters"
    assert first["y"] + first["height"] <= NARROW["height"]
    options = narrow.locator("details[data-search-options]")
    assert not options.evaluate("d => d.open")
    options.locator("summary").tap()
    narrow.locator("select[data-search-filter=kind]").select_option("card")
    assert "kind: card" in options.locator("summary").inner_text()


def test_the_header_is_short_on_a_phone(narrow, site_url):
    for path in ("/", "/cards/grave-hound/", "/search/"):
        narrow.goto(f"{site_url}{path}")
        header = narrow.locator("header.top").bounding_box()
        assert header["height"] <= 100, path
        assert narrow.evaluate("() => document.documentElement.scrollWidth") <= NARROW["width"]
    # every section is still there, the row scrolling sideways
    links = narrow.locator("header.top nav a")
    assert links.count() >= 6
    last = links.last
    last.scroll_into_view_if_needed()
    assert last.is_visible()


def test_the_search_language_page_fits_a_phone_and_is_for_players(narrow, site_url):
    narrow.goto(f"{site_url}/search/syntax/")
    assert narrow.evaluate("() => document.documentElement.scrollWidth") <= NARROW["width"]
    html = narrow.content()
    assert "127.0.0.1" not in html and ":8001" not in html
    assert narrow.locator("h2, h3", has_text="For game authors").count() == 0
    assert narrow.locator("h2", has_text="Fields").count() >= 1


def test_dark_mode_follows_the_system(browser, site_url):
    context = browser.new_context(viewport=NARROW, color_scheme="dark")
    try:
        page = context.new_page()
        page.goto(f"{site_url}/cards/grave-hound/")

        def lightness(selector: str, prop: str) -> float:
            rgb = page.eval_on_selector(selector, f"e => getComputedStyle(e).{prop}")
            r, g, b = (int(x) for x in re.findall(r"\d+", rgb)[:3])
            return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255

        assert lightness("body", "backgroundColor") < 0.2
        assert lightness("body", "color") > 0.7
        assert lightness(".card-text", "backgroundColor") < 0.2
        assert lightness(".card-text", "color") > 0.7
        assert lightness("main a", "color") > 0.4  # links stay readable on the dark page
    finally:
        context.close()
    light = browser.new_context(viewport=NARROW, color_scheme="light")
    try:
        page = light.new_page()
        page.goto(f"{site_url}/cards/grave-hound/")
        assert page.eval_on_selector("body", "e => getComputedStyle(e).backgroundColor") \
            == "rgb(251, 248, 242)"
    finally:
        light.close()


# --- offline at the table ---------------------------------------------------------------------


def test_after_one_visit_the_game_reads_offline(browser, site_dir):
    """Visit, lose the network (the server stops), reload a card page, search words and
    search by field (the field index is part of the copy)."""
    from conftest import serving

    context = browser.new_context(viewport=NARROW, is_mobile=True, has_touch=True,
                                  service_workers="allow")
    try:
        page = context.new_page()
        with serving(site_dir) as root:
            page.goto(f"{root}/{GAME}/cards/grave-hound/")
            page.wait_for_function(
                "async () => (await navigator.serviceWorker.ready).active.state === 'activated'",
                timeout=180_000,  # ten seconds, then the copy of every page and file
            )
            port = root.rsplit(":", 1)[1]
            assert page.locator(".offline-note").count() == 0
        # the server is gone: nothing answers at that address any more
        page.reload()
        assert page.locator("h1").inner_text() == "Grave Hound"
        assert "No network" in page.locator(".offline-note").inner_text()
        assert page.evaluate("() => getComputedStyle(document.body).fontSize") != ""
        assert page.locator("figure.face img").evaluate("i => i.complete && i.naturalWidth > 0")
        page.goto(f"http://127.0.0.1:{port}/{GAME}/search/?q=hound")
        wait_for_results(page, "hound")
        assert page.locator("#results ol li a", has_text="Hound").count() >= 1
        field_query = "name:hound -name:grave"
        page.goto(f"http://127.0.0.1:{port}/{GAME}/search/?q={quote(field_query)}")
        page.wait_for_selector("#results ol.card-results li a", timeout=20_000)
        found = page.locator("#results ol.card-results li a").all_inner_texts()
        assert found == ["Ash Hound"]
    finally:
        context.close()


def test_a_new_build_gives_a_new_offline_copy(site_dir):
    worker = (site_dir / GAME / "sw.js").read_text(encoding="utf-8")
    assert f'"/{GAME}/cards/grave-hound/"' in worker and '"/assets/site.css"' in worker
    assert f'"/{GAME}/pagefind/pagefind.js"' in worker
    assert f'"/{GAME}/search/fields/manifest.json"' in worker
    assert '"/assets/fieldsearch.js"' in worker
    assert "/data/" not in worker and "card.json" not in worker
