"""The history on the site, built from a copy of the bundled sources with their releases:
the changelog lists exactly what `charnel diff` lists, a clause's permalink shows its history
and the notes of a renumbering, a card's page its errata; a game with no release shows none."""

from __future__ import annotations

import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from projects import copy_project
from site_fixtures import GAME, build, make_project
from typer.testing import CliRunner

from charnel.cli import app
from charnel.site.urls import GameUrls

SMALL = Path(__file__).parent / "fixtures" / "project"  # Hecatomb's small project

U = GameUrls(GAME)  # where the game's pages are
P = U.prefix


@pytest.fixture(scope="module")
def built(built_site):
    return built_site


class Changes(HTMLParser):
    """The data-* of each change listed on the changelog page, by release."""

    def __init__(self):
        super().__init__()
        self.release: str | None = None
        self.found: dict[str, list[dict[str, str]]] = {}

    def handle_starttag(self, tag, attrs):
        data = dict(attrs)
        if tag == "section" and (data.get("id") or "").startswith("release-"):
            self.release = data["id"].removeprefix("release-")
            self.found[self.release] = []
        if tag == "li" and "change" in (data.get("class") or "").split():
            self.found[self.release].append(
                {k.removeprefix("data-"): v for k, v in data.items() if k.startswith("data-")}
            )


def page(site: Path, path: str) -> str:
    return (site / path / "index.html").read_text(encoding="utf-8")


def words(html: str) -> str:
    """The page's text, its tags dropped (rule numbers in it are links)."""
    return re.sub(r"<[^>]+>", "", html)


def test_the_changelog_lists_exactly_what_charnel_diff_lists(built):
    project, site = built
    result = CliRunner().invoke(app, ["diff", "1.0", "1.1", "--root", str(project), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    parser = Changes()
    parser.feed(page(site, "changes"))
    assert set(parser.found) == {"1.0", "1.1"}
    assert parser.found["1.0"] == []  # the first release changes nothing: it is the start
    listed = parser.found["1.1"]
    clauses = [(c["old"] or None, c["new"] or None, c["kinds"].split(","))
               for c in listed if c["kind"] == "clause"]
    assert clauses == [(c["old_number"], c["new_number"], c["kinds"]) for c in data["clauses"]]
    terms = [(t["slug"], t["change"]) for t in listed if t["kind"] == "term"]
    assert terms == [(t["slug"], t["kind"]) for t in data["terms"]]
    cards = [(c["slug"], c["change"], c["functional"] == "true")
             for c in listed if c["kind"] == "card"]
    assert cards == [(c["slug"], c["kind"], c["functional"]) for c in data["cards"]]
    assert len(listed) == len(data["clauses"]) + len(data["terms"]) + len(data["cards"])


def test_the_changelog_shows_diffs_and_reasons_and_is_linked(built):
    _, site = built
    changes = page(site, "changes")
    assert "<del>soul.</del><ins>soul,</ins>" in changes  # Pay the Ferryman's wording
    assert "functional erratum" in changes and "wording erratum, not functional" in changes
    assert "whether a Ripper may leave damage unassigned" in changes
    for index in ("rules", ""):
        assert f'href="{U.CHANGES}"' in page(site, index)


def test_a_renumbered_number_shows_its_clause_now_and_where_the_old_one_went(built):
    _, site = built
    b = page(site, "rules/14.13b")
    assert "http-equiv=\"refresh\"" not in b
    assert re.search(rf'Until <a href="{P}/changes/#release-1\.1">release 1\.1</a>, '
                     rf'<a href="{P}/rules/14\.13b/">14\.13b</a> was another clause: '
                     rf'the one now at <a href="{P}/rules/14\.13c/">14\.13c</a>', b)
    assert "Ripper" in b and 'data-kinds="added"' in b
    c = page(site, "rules/14.13c")
    assert "renumbered from 14.13b to 14.13c" in words(c)
    assert 'data-release="1.0" data-kinds="added"' in c  # its whole history, from 1.0


def test_a_changed_clause_shows_the_words_that_changed(built):
    _, site = built
    text = page(site, "rules/11.1c")
    assert 'data-release="1.1" data-kinds="changed"' in text
    assert "<ins> One that happens &#34;at the end of your turn&#34;" in text


def test_an_unchanged_clause_still_sends_the_reader_to_its_place(built):
    _, site = built
    text = page(site, "rules/13.1a")
    assert 'http-equiv="refresh"' in text
    # its history, for a reader whose browser does not follow the refresh
    assert "in the first release, as 13.1a" in words(text)


def test_a_card_page_lists_its_errata(built):
    _, site = built
    bell = page(site, "cards/the-sunken-bell")
    assert 'data-release="1.1" data-functional="true"' in bell
    assert "effects[0].on: &#34;end_of_turn&#34; -&gt; &#34;end_of_your_turn&#34;" in bell
    ferryman = page(site, "cards/pay-the-ferryman")
    assert 'data-functional="false"' in ferryman and "wording erratum" in ferryman
    assert "Errata" not in page(site, "cards/grave-hound")


def test_a_game_with_no_release_has_a_changelog_saying_so(tmp_path):
    project = make_project(tmp_path / "p")
    shutil.rmtree(project / "releases")
    site = build(project, project / "build")
    assert "No release has been cut yet" in page(site, "changes")
    assert 'http-equiv="refresh"' in page(site, "rules/14.13b")
    assert "History" not in page(site, "rules/14.13b")
    assert "Errata" not in page(site, "cards/the-sunken-bell")




def test_an_old_number_leads_to_the_clause_now_and_a_removed_clause_keeps_its_text(tmp_path):
    from test_history_releases import cut, edit

    root = tmp_path / "p"
    copy_project(root, SMALL)
    assert cut(root, "0.1").exit_code == 0
    stacks = f"rules/{GAME}/02-stacks.md"
    edit(root, stacks, "2.1b Each new minion goes on top. [pp. 8-9]\n\n", "")
    edit(root, stacks, "(compare 2.1a). [p. 9]\n",
         "(compare 2.1a). [p. 9]\n\n2.2b Each new minion goes on top. [pp. 8-9]\n")
    edit(root, stacks, "2.3a A stack without minions is gone. [p. 9]", "")
    result = cut(root, "0.2", "renumbered:\n  2.1b: 2.2b\nclauses:\n  2.3a: Said nothing.\n")
    assert result.exit_code == 0, result.output
    site = build(root, root / "build")
    moved = page(site, "rules/2.1b")
    assert "Rule 2.1b is now" in moved and f'href="{U.clause_permalink("2.2b")}"' in moved
    assert "renumbered 2.2b in" in words(moved) and U.release("0.2") in moved
    assert f'rel="canonical" href="{U.clause_permalink("2.2b")}"' in moved
    removed = page(site, "rules/2.3a")
    assert "Rule 2.3a was removed" in removed and "A stack without minions is gone." in removed
    assert 'data-release="0.2" data-kinds="removed"' in removed and "Said nothing." in removed
    now = page(site, "rules/2.2b")
    assert "renumbered from 2.1b to 2.2b" in words(now)
    listed = Changes()
    listed.feed(page(site, "changes"))
    assert {(c["old"], c["new"], c["kinds"]) for c in listed.found["0.2"]} == {
        ("2.1b", "2.2b", "renumbered"), ("2.3a", "", "removed")}


def test_a_game_with_one_release_calls_it_the_first_and_prints_no_changes(tmp_path):
    from test_history_releases import cut

    from charnel import pipeline, registry
    from charnel.diagnostics import Problems
    from charnel.printing import documents

    root = tmp_path / "p"
    copy_project(root, SMALL)
    assert cut(root, "0.1").exit_code == 0
    site = build(root, root / "build")
    changes = page(site, "changes")
    assert "Release 0.1" in changes and "The first release, with" in changes
    assert 'class="change"' not in changes
    assert 'http-equiv="refresh"' in page(site, "rules/2.1a")  # nothing to tell: on it goes
    assert "in the first release, as 2.1a" in words(page(site, "rules/2.1a"))
    prepared = pipeline.prepare(root, GAME, Problems())
    booklet = documents.booklet(prepared.verified, prepared.outcomes, registry.get(GAME))
    assert booklet["changes"] is None
