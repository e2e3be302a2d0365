"""The history in a real browser: an old permalink of a renumbered clause resolves and says
where its clause went, and the changelog lists what `charnel diff 1.0 1.1` lists."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from charnel.cli import app

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[4]


def test_an_old_permalink_of_a_renumbered_clause_resolves_with_its_note(page, site_url):
    # A link written under 1.0 to 14.13b meant the clause that 1.1 numbers 14.13c.
    response = page.goto(f"{site_url}/rules/14.13b/")
    assert response is not None and response.ok
    assert page.url.endswith("/rules/14.13b/")  # no refresh away: the note must be read
    note = page.locator(".renumbered-note")
    assert note.is_visible()
    assert re.search(r"Until release 1\.1, 14\.13b was another clause: the one now at 14\.13c",
                     note.inner_text())
    note.get_by_role("link", name="14.13c").click()
    page.wait_for_url(re.compile(r"/rules/14\.13c/$"))
    history = page.locator(".clause-history")
    assert "renumbered from 14.13b to 14.13c" in history.inner_text()
    history.get_by_role("link", name="Release 1.1").click()
    page.wait_for_url(re.compile(r"/changes/#release-1\.1$"))
    assert page.locator('[id="release-1.1"]').is_visible()


def test_a_link_from_before_the_site_had_a_folder_per_game_resolves_too(page, site_root):
    page.goto(f"{site_root}/rules/14.13b/")
    page.wait_for_url(re.compile(r"/hecatomb/rules/14\.13b/$"))
    assert "the one now at 14.13c" in page.locator(".renumbered-note").inner_text()


def test_the_changelog_lists_what_charnel_diff_lists(page, site_url):
    result = CliRunner().invoke(app, ["diff", "1.0", "1.1", "--root", str(REPO), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    page.goto(f"{site_url}/")
    page.get_by_role("link", name="What changed").click()
    page.wait_for_url(re.compile(r"/changes/$"))
    listed = page.locator('[id="release-1.1"] li.change').evaluate_all(
        "items => items.map(li => ({...li.dataset}))"
    )
    clauses = [(c["old"] or None, c["new"] or None, c["kinds"].split(","))
               for c in listed if c["kind"] == "clause"]
    assert clauses == [(c["old_number"], c["new_number"], c["kinds"]) for c in data["clauses"]]
    terms = [(t["slug"], t["change"]) for t in listed if t["kind"] == "term"]
    assert terms == [(t["slug"], t["kind"]) for t in data["terms"]]
    cards = [(c["slug"], c["change"], c["functional"] == "true")
             for c in listed if c["kind"] == "card"]
    assert cards == [(c["slug"], c["kind"], c["functional"]) for c in data["cards"]]
    assert len(listed) == len(data["clauses"]) + len(data["terms"]) + len(data["cards"])
    bell = page.locator('li.change[data-slug="the-sunken-bell"]')
    assert "functional erratum" in bell.inner_text().lower()  # shown in small capitals
