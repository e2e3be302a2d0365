"""Hecatomb's pages as a reader meets them: a card's keywords and the keyword list in words,
not encodings; the labels of its rules examples' drawings clear of the numbers beside them."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def test_players_read_words_not_encodings(page, site_url):
    page.goto(f"{site_url}/cards/grave-hound/")
    keywords = page.locator("ul.keywords").inner_text()
    assert "Evader" in keywords and "{" not in keywords and '"doom"' not in keywords
    page.goto(f"{site_url}/keywords/")
    repeats = page.locator("main table tbody td:nth-child(3)").all_text_contents()
    assert repeats and not {"union", "flag", "sum", "max", "each"} & set(repeats)
    assert "each different value counts" in repeats


def test_an_example_label_ends_before_the_strength(page, site_url):
    overlapping = []
    for section in ("12-abilities", "13-damage", "14-keyword-abilities"):
        page.goto(f"{site_url}/rules/{section}/")
        overlapping += page.evaluate(
            """() => Array.from(document.querySelectorAll('g.minion')).filter((g) => {
                 const [label, strength] = g.querySelectorAll('text');
                 const a = label.getBBox(), b = strength.getBBox();
                 return a.x + a.width > b.x - 2;
               }).map((g) => g.textContent)"""
        )
    assert overlapping == []
