"""Dice Duel (tests/games/), a game sharing nothing with the bundled ones, through every
stage: check, examples with scripted dice, card verification, the database, Datasette, the
search language, the site and print. What it needs of the core is only what the core promises
every game."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from projects import DUEL, copy_project
from typer.testing import CliRunner

from charnel import registry
from charnel.cli import app
from charnel.query import search
from charnel.serve import describe

REPO = Path(__file__).resolve().parent.parent
PROJECT = REPO / "tests" / "games" / "project"


def run(*args: str):
    return CliRunner().invoke(app, list(args))


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("duel")
    copy_project(root, DUEL)
    result = run("build", "--root", str(root), "--out", str(root / "build"))
    assert result.exit_code == 0, result.output
    return root


def test_check_and_examples_pass():
    assert run("check", "--root", str(PROJECT)).exit_code == 0
    result = run("examples", "--root", str(PROJECT))
    assert result.exit_code == 0, result.output
    # 3 examples, then each of 3 cards against the 2 examples of clause 2.1
    assert "9/9 example runs pass" in result.output


def test_the_database_has_the_declared_fields_and_no_others(built: Path):
    conn = sqlite3.connect(built / "build" / "dice-duel.db")
    columns = [r[1] for r in conn.execute("pragma table_info(cards)")]
    assert {"might", "clan"} <= set(columns)
    others = {c.name for g in registry.available().values() if g.id != "dice-duel"
              for f in g.fields for c in f.stored()} - {"might", "clan"}
    assert others and not others & set(columns)
    assert conn.execute("select might from cards where id = 'cinder-knight'").fetchone() == (3,)


def test_datasette_facets_come_from_the_declarations(built: Path):
    described = describe.database(registry.get("dice-duel"), built / "build" / "dice-duel.db")
    # no keywords declared: no keyword facet, query or visible keyword table
    assert described["tables"]["cards"]["facets"] == ["type", "clan", "set_code"]
    assert not any("cost" in name for name in described["queries"])  # no cost, no curve
    assert "cards_with_keyword" not in described["queries"]
    assert all(described["tables"][t].get("hidden") for t in ("keywords", "card_keywords"))
    assert described["tables"]["glossary_terms"]["facets"] == ["lore"]


def test_search_language_knows_the_fields(built: Path):
    fields = registry.get("dice-duel").search_fields()
    database = built / "build" / "dice-duel.db"
    _, _, rows = search(database, "m>=2 clan:ember", fields, 10, ["id"])
    assert [r[0] for r in rows] == ["cinder-knight"]
    assert "cost" not in fields and "r" not in fields
    assert "kw" not in fields and "keyword" not in fields  # a game without keywords


def test_site_shows_the_game_facets_and_no_cost(built: Path):
    site = built / "build" / "site" / "dice-duel"
    page = next(site.rglob("cinder-knight/index.html")).read_text("utf-8")
    assert "might 3" in page and "clan Ember" in page
    listing = next(p for p in site.rglob("index.html") if p.parent.name == "cards")
    text = listing.read_text("utf-8")
    assert 'data-sort="might"' in text and 'data-sort="cost"' not in text
    assert 'data-sort="number"' not in text and ">Number</dt>" not in page  # no ordinal
    # its groups are bands, and its lists say so
    assert (site / "cards" / "by-band" / "embers" / "index.html").exists()
    assert "<dt data-pagefind-ignore>Band<span" in page
    search_page = next(site.rglob("search/index.html")).read_text("utf-8")
    assert 'data-order="kind band type clan"' in search_page
    # no keywords: no page, link, count or section for them
    assert not (site / "keywords").exists()
    home = (site / "index.html").read_text("utf-8")
    assert "keywords/" not in home and "keywords/" not in page and "keywords" not in home
    assert "No keyword abilities" not in page


def test_print_writes_a_checklist_per_group(built: Path):
    printed = sorted(p.name for p in (built / "build").rglob("*.pdf"))
    assert {"dice-duel-checklist-embers.pdf", "dice-duel-checklist-frosts.pdf"} <= set(printed)


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (("rules/dice-duel/game.yaml", "id: dice-duel", "id: dice-dual"),
         "rules/dice-duel/game.yaml:1:5: id 'dice-dual' is not its folder's name, 'dice-duel'"),
        (("cards/dice-duel/frosts/rime-warden.yaml", "might: 2", "might: 2\ncolour: grey"),
         "cards/dice-duel/frosts/rime-warden.yaml:4:1: unknown field 'colour'"),
        (("cards/dice-duel/frosts/rime-warden.yaml", "clan: frost", "clan: hail"),
         "cards/dice-duel/frosts/rime-warden.yaml:4:7: clan: input should be"),
        (("cards/dice-duel/frosts/rime-warden.yaml", "might: 2", "might: 2\nkeywords: [ward]"),
         "cards/dice-duel/frosts/rime-warden.yaml:4:1: game 'dice-duel' has no keywords"),
    ],
    ids=["id differs from folder", "undeclared field", "facet value", "keyword, none declared"],
)
def test_bad_input_is_located(tmp_path: Path, edit, expected):
    copy_project(tmp_path, DUEL)
    rel, old, new = edit
    path = tmp_path / rel
    path.write_text(path.read_text("utf-8").replace(old, new, 1), "utf-8")
    result = run("check", "--root", str(tmp_path))
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert any(line.startswith(expected) for line in result.stderr.splitlines()), result.stderr


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        ("broken_duel:twice", "tests/games/broken_duel/__init__.py:12:19: card field 'might' "
                              "is declared twice"),
        ("dice_duel.game:game", "tests/games/dice_duel/game.py:1:1: game package "
                                "'dice_duel.game' has no 'game'"),
        ("broken_duel:engineless", "tests/games/broken_duel/__init__.py:19:1: game 'dice-duel' "
                                   "has no 'engine' hook, but its rules have examples to run"),
        ("broken_duel:clashing", "tests/games/broken_duel/__init__.py:34:72: search name 's' is "
                                 "claimed by two fields: every game's search has it already"),
    ],
    ids=["field declared twice", "package missing its game", "game missing its engine hook",
         "search name taken"],
)
def test_a_broken_game_package_is_located(entry: str, expected: str):
    """A game package is checked like an authored file: its problems are located, in one run,
    never a traceback."""
    env = {**os.environ, "CHARNEL_GAMES": entry}
    done = subprocess.run(
        [sys.executable, "-m", "charnel.cli", "check", "--root", str(PROJECT)],
        capture_output=True, text=True, env=env, timeout=120, cwd=REPO,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    first = done.stderr.splitlines()
    assert expected in first[0], done.stderr
    assert first[1].lstrip().split(" | ")[0].isdigit(), "the package's line is shown"


def test_checklist_columns_come_from_the_declarations():
    from charnel.diagnostics import Problems
    from charnel.printing import documents
    from charnel.printing.layout import PrintLayout
    from charnel.sources import loader
    from charnel.verify import verify

    problems = Problems()
    verified = verify(loader.load(PROJECT, "dice-duel", problems), problems)
    assert not problems
    lists = documents.checklists(verified, registry.get("dice-duel"), PrintLayout())
    embers = lists["embers"]
    assert embers["fields"] == ["Clan", "Might"] and embers["number"] is None
    assert [r["name"] for r in embers["rows"]] == ["Ash Page", "Cinder Knight"]
    assert [f["text"] for f in embers["rows"][1]["fields"]] == ["Ember", "3"]
