"""The site lists the clauses that are the project's own rulings on a page of their own."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from site_fixtures import GAME, build, make_project

RULING = re.compile(r"^(\d+\.\d+[a-z]) \*\*Ruling\.\*\*", re.M)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    project = make_project(tmp_path_factory.mktemp("project"))
    for game in (p.name for p in (project / "rules").iterdir() if p.name != GAME):
        shutil.rmtree(project / "rules" / game)
        shutil.rmtree(project / "cards" / game, ignore_errors=True)
    keywords = project / "rules" / GAME / "14-keywords.md"
    text = keywords.read_text(encoding="utf-8")
    keywords.write_text(text.replace("\n14.13d ", "\n14.13d **Ruling.** ", 1), "utf-8")
    return build(project, project / "build")


@pytest.fixture(scope="module")
def rulings(site) -> list[str]:
    """The clauses marked as rulings in the sources built, 14.13d among them."""
    rules = site.parent.parent / "rules" / GAME
    found = [m[1] for p in sorted(rules.glob("*.md")) for m in RULING.finditer(p.read_text())]
    assert "14.13d" in found
    return found


def test_the_rulings_page_lists_each_ruling_clause_with_its_link(site, rulings):
    page = (site / "rules" / "rulings" / "index.html").read_text(encoding="utf-8")
    links = re.findall(r'class="anchor num" href="([^"]+)">([\d.a-z]+)<', page)
    assert [number for _, number in links] == rulings
    for href, number in links:
        section = site / href.split("#")[0].lstrip("/") / "index.html"
        assert href.endswith(f"#{number}") and f'id="{number}"' in section.read_text()
    assert "Ripper" in page


def test_the_rules_index_links_to_it_and_the_section_marks_the_clause(site, rulings):
    index = (site / "rules" / "index.html").read_text(encoding="utf-8")
    assert f'href="/rules/rulings/">the {len(rulings)} rulings in the rules</a>' in index
    section = next((site / "rules").glob("14-*/index.html")).read_text(encoding="utf-8")
    assert '<div class="clause ruling" id="14.13d">' in section
    assert '<div class="clause" id="14.13c">' in section
