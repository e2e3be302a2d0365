"""The site lists the clauses that are the project's own rulings on a page of their own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from projects import DUEL, copy_project

from charnel import pipeline

RULING = re.compile(r"^(\d+\.\d+[a-z]) \*\*Ruling\.\*\*", re.M)
GAME = "dice-duel"
# A ruling of the toy game's own, after the clause it rules on: the rulebook is silent on life
# below zero.
PLANTED = """
2.1b **Ruling.** A [[blow]] that takes more life than a duellist has leaves it at zero:
the rulebook names no life below zero. [p. 2]
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    project = copy_project(tmp_path_factory.mktemp("project"), DUEL)
    blows = next((project / "rules" / GAME).glob("02-*.md"))
    text = blows.read_text("utf-8")
    blows.write_text(text.rstrip("\n") + "\n" + PLANTED, "utf-8")  # the section's last clause
    pipeline.build_all(project, [GAME], project / "build", force=True, site=True)
    return project / "build" / "site" / GAME


@pytest.fixture(scope="module")
def rulings(site) -> list[str]:
    """The clauses marked as rulings in the sources built: the planted 2.1b among them."""
    rules = site.parents[2] / "rules" / GAME  # <project>/build/site/<game>
    found = [m[1] for p in sorted(rules.glob("*.md")) for m in RULING.finditer(p.read_text())]
    assert "2.1b" in found
    return found


def test_the_rulings_page_lists_each_ruling_clause_with_its_link(site, rulings):
    page = (site / "rules" / "rulings" / "index.html").read_text(encoding="utf-8")
    links = re.findall(r'class="anchor num" href="([^"]+)">([\d.a-z]+)<', page)
    assert [number for _, number in links] == rulings
    for href, number in links:
        section = site.parent / href.split("#")[0].lstrip("/") / "index.html"
        assert href.endswith(f"#{number}") and f'id="{number}"' in section.read_text()
    assert "life below zero" in page


def test_the_rules_index_links_to_it_and_the_section_marks_the_clause(site, rulings):
    index = (site / "rules" / "index.html").read_text(encoding="utf-8")
    assert f'href="/{GAME}/rules/rulings/">the {len(rulings)} rulings in the rules</a>' in index
    section = next((site / "rules").glob("2-*/index.html")).read_text(encoding="utf-8")
    assert '<div class="clause ruling" id="2.1b">' in section
    assert '<div class="clause" id="2.1a">' in section
