"""The deck page checks a pasted list in Chromium with the messages `charnel deck check`
gives for the same fixture lists (tests/games/hecatomb/fixtures/decks/)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

DECKS = Path(__file__).resolve().parents[1] / "fixtures" / "decks"


def check(page, site_url: str, text: str) -> tuple[str, list[str]]:
    page.goto(f"{site_url}/deck/")
    page.fill("#deck-list", text)
    page.click("form[data-deck-check] button")
    page.wait_for_selector(".deck-verdict")
    verdict = page.inner_text(".deck-verdict")
    problems = page.locator(".deck-problems li").all_inner_texts()
    return verdict, problems


def test_a_pasted_illegal_list_shows_each_problem_at_its_line(page, site_url):
    verdict, problems = check(page, site_url, (DECKS / "illegal.txt").read_text("utf-8"))
    assert verdict.startswith("7 cards: not legal")
    expected = []
    for line in (DECKS / "expected.txt").read_text("utf-8").splitlines():
        m = re.fullmatch(r"[^:]+:(\d+):(\d+): (.*)", line)
        expected.append(f"line {m[1]}, column {m[2]}: {m[3]}")
    assert sorted(problems) == sorted(expected)


def test_a_pasted_legal_list_shows_its_dooms_and_cost_curve(page, site_url):
    verdict, problems = check(page, site_url, (DECKS / "legal.txt").read_text("utf-8"))
    assert verdict == "40 cards: legal" and problems == []
    captions = page.locator(".deck-tally caption").all_inner_texts()
    assert captions == ["Doom", "Cost"]
    counts = [int(t) for t in page.locator(".deck-tally").first.locator("td:nth-child(2)")
              .all_inner_texts()]
    assert sum(counts) == 40


def test_the_deck_page_is_in_the_navigation(page, site_url):
    page.goto(site_url + "/")
    page.click("nav >> text=Deck")
    page.wait_for_selector("#deck-list")


def test_a_pasted_list_gives_its_rulings_by_card_and_by_rule(browser, site_url):
    context = browser.new_context(viewport={"width": 393, "height": 851}, is_mobile=True)
    try:
        page = context.new_page()
        check(page, site_url, "3 Grave Hound\n2 Ash Hound\n1 The Sunken Bell\n")
        section = page.locator("#deck-rulings")
        section.wait_for(state="visible", timeout=10_000)
        heads = section.locator("h3").all_inner_texts()
        assert heads == ["Grave Hound ×3", "Ash Hound ×2", "The Sunken Bell ×1"]
        bell = section.locator("ul.card-rulings").nth(2).inner_text()
        assert "Erratum in 1.1 (changes play)" in bell
        hound = section.locator("ul.card-rulings").first
        assert hound.locator("a", has_text="Evader (Corruption)").get_attribute("href") \
            == "/hecatomb/glossary/evader/"
        assert "Ruling, " in hound.inner_text()
        by_rule = section.locator("ul.by-rule li")
        evader = by_rule.filter(has=page.locator("a", has_text="14.1a")).first
        assert "Grave Hound" in evader.inner_text() and "Ash Hound" not in evader.inner_text()
        assert "[[" not in section.inner_text() and "**" not in section.inner_text()
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 393
        page.locator("ul.by-rule li a", has_text="14.6a").first.click()
        page.wait_for_url("**/hecatomb/rules/14.6a/")
    finally:
        context.close()
