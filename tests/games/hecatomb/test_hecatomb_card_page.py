"""A card page of Hecatomb's: the fields it prints beside the text, each with its terms linked
and indexed for search as one fact."""

from __future__ import annotations

import re
from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def site(built_site) -> Path:
    return built_site[1]


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
