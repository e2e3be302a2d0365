"""Each release as it was and the errata sheets, on a phone (393 px), in Chromium: a clause
of 1.0 reads as 1.0 had it under a banner whose link goes to the same clause now; the errata
sheet from 1.0 lists the functional changes first, each linked, and picks another release."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser

PHONE = {"width": 393, "height": 851}


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport=PHONE, is_mobile=True)
    page = context.new_page()
    yield page
    context.close()


def fits(page) -> bool:
    return page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_clause_as_of_1_0_has_its_banner_and_its_link_goes_to_the_clause_now(phone, site_url):
    # 1.0's 14.13b is the clause 1.1 renumbered 14.13c (1.1 put a new ruling at 14.13b)
    response = phone.goto(f"{site_url}/1.0/rules/14.13b/")
    assert response is not None and response.ok
    assert phone.url.endswith("/1.0/rules/14.13b/")  # a page of its own, not sent on
    banner = phone.locator(".past-release")
    assert banner.is_visible()
    said = banner.inner_text()
    assert said.startswith("You are reading release 1.0 (2026-11-21) — see the current text")
    assert "it is rule 14.13c now" in said
    old_text = phone.locator(".rule-text").inner_text()
    assert "Ruling" not in old_text  # not the ruling 1.1 numbers 14.13b
    assert phone.title().startswith("Rule 14.13b (release 1.0)")
    assert fits(phone)
    banner.get_by_role("link", name="see the current text").click()
    phone.wait_for_url(re.compile(r"/hecatomb/rules/14\.13c/$"))
    assert phone.locator("h1").inner_text().startswith("14.13c")
    assert phone.locator(".rule-text").inner_text() == old_text  # renumbered, not reworded
    assert phone.locator(".past-release").count() == 0


def test_the_rules_index_leads_to_a_release_whose_links_stay_in_it(phone, site_url):
    phone.goto(f"{site_url}/rules/")
    phone.locator(".past-releases").get_by_role("link", name="1.0", exact=True).click()
    phone.wait_for_url(re.compile(r"/hecatomb/1\.0/rules/$"))
    assert "You are reading release 1.0" in phone.locator(".past-release").inner_text()
    assert fits(phone)
    phone.locator("ol.contents a").first.click()
    phone.wait_for_url(re.compile(r"/hecatomb/1\.0/rules/[^/]+/$"))
    assert phone.locator(".past-release").is_visible()


def test_the_errata_sheet_lists_functional_changes_first_each_linked(phone, site_url):
    phone.goto(f"{site_url}/errata/")
    phone.locator(".errata-chooser").get_by_role("link", name="1.0").click()
    phone.wait_for_url(re.compile(r"/hecatomb/errata/1\.0/$"))
    assert fits(phone)
    items = phone.locator("li.change").evaluate_all(
        "items => items.map(li => [li.querySelector('a').textContent, li.dataset.functional,"
        " li.querySelector('a').getAttribute('href')])"
    )
    shown = [(label, functional == "true") for label, functional, _ in items]
    assert shown == [
        ("Rule 10.1g", True), ("Rule 10.7e", True), ("Rule 11.1c", True), ("Rule 12.7", True),
        ("Rule 12.7a", True), ("Rule 14.13b", True),
        ("Mischief <script>alert(1)</script>", True),  # the test project's card, added since
        ("The Sunken Bell", True),
        ("Rule 14.13c", False), ("Rule 14.13d", False), ("Pay the Ferryman", False),
    ]
    assert all(href.startswith("/hecatomb/") and "/1.0/" not in href for _, _, href in items)
    bell = phone.locator('li.change:has(a:text-is("The Sunken Bell"))')
    assert "functional erratum" in bell.inner_text().lower()
    phone.get_by_role("link", name="Rule 11.1c").click()
    phone.wait_for_url(re.compile(r"/hecatomb/rules/11\.1c/$"))
    phone.go_back()
    phone.locator(".errata-chooser").get_by_role("link", name="1.1").click()
    phone.wait_for_url(re.compile(r"/hecatomb/errata/1\.1/$"))
    labels = phone.locator("li.change > a").all_inner_texts()
    assert labels == ["Rule 10.1g", "Rule 10.7e", "Rule 12.7", "Rule 12.7a",
                      "Mischief <script>alert(1)</script>"]
