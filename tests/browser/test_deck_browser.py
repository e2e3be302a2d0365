"""The deck page checks a pasted list in Chromium with the messages `charnel deck check`
gives for the same fixture lists (tests/fixtures/decks/)."""

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
