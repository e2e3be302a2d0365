"""Hecatomb's card and keyword pages: the fields a card prints beside its text, each with its
terms linked and indexed for search as one fact, and each keyword's page listing its cards."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from site_fixtures import GAME


@pytest.fixture(scope="module")
def site(built_site) -> Path:
    return built_site[1]


@pytest.fixture(scope="module")
def built(built_site) -> tuple[Path, Path]:
    return built_site


def test_conditional_text_links_its_terms(site: Path):
    text = (site / "cards" / "ash-hound" / "index.html").read_text("utf-8")
    conditional = re.search(r">Conditional text<.*?</dt>\s*<dd>(.*?)</dd>", text, re.S)[1]
    assert re.search(r'<a class="ref-term" href="[^"]*/glossary/rager/">Rager</a>', conditional)
    assert "«" in conditional and "&lt;" not in conditional


def test_searched_facts_are_indexed_apart(site: Path):
    # Pagefind joins the text of dt and dd with nothing between: each fact it indexes is
    # "Label:" then a paragraph, so an excerpt reads "Subtype: Beast. Triggers: ..."
    text = (site / "cards" / "ash-hound" / "index.html").read_text("utf-8")
    facts = re.search(r'<dl class="facts">(.*?)</dl>', text, re.S)[1]
    for dt, dd in re.findall(r"<dt([^>]*)>.*?</dt>\s*<dd([^>]*)>(?:.*?)</dd>", facts, re.S):
        assert dt == dd  # label and value indexed together, or neither
    assert re.search(r"<dt>Subtype<span class=\"vh\">:</span></dt>\s*<dd><p>Beast</p></dd>", facts)


def test_card_page_shows_the_card(built):
    _, site = built
    page = (site / "cards" / "grave-hound" / "index.html").read_text()
    assert 'src="card.svg"' in page and 'alt="Card face of Grave Hound' in page
    assert f'href="/{GAME}/glossary/evader/"' in page
    assert f'href="/{GAME}/glossary/reaper/"' in page
    assert f'href="/sql/{GAME}/cards/grave-hound"' in page
    assert 'data-pagefind-filter="kind:card"><' in page
    assert 'data-pagefind-filter="doom:Greed"><' in page
    assert "Verified against the rules" in page
    svg = (site / "cards" / "grave-hound" / "card.svg").read_text()
    assert svg.count('class="trigger"') == 4 and "Grave Hound" in svg


def test_keyword_page_lists_every_card_with_the_keyword(built):
    project, site = built
    page = (site / "glossary" / "evader" / "index.html").read_text()
    with_evader = [
        p.stem for p in (project / "cards" / GAME).glob("*/*.yaml")
        if re.search(r"^- \{?evader\b", p.read_text(), re.M)
    ]
    assert with_evader
    for slug in with_evader:
        assert f'href="/{GAME}/cards/{slug}/"' in page
