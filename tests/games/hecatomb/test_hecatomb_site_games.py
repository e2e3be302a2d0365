"""Several games in one build (Hecatomb's small project and Dice Duel, the test suite's toy
game): one home listing them, a folder per game, a database per game, the old unprefixed
URLs sent to the game that had them, and a build of one game keeping the others."""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
from pathlib import Path

import httpx
import pytest
from projects import DUEL, copy_project, only_game

from charnel import pipeline
from charnel.serve.app import application, make_datasette
from charnel.site import linkcheck

SMALL = Path(__file__).parent / "fixtures" / "project"  # Hecatomb's small project
FIRST = only_game(SMALL)  # the game whose site had unprefixed URLs
SECOND = "dice-duel"
BOTH = [FIRST, SECOND]
CARD = "cinder-knight"  # a Dice Duel card


def make_project(root: Path) -> Path:
    for project in (SMALL, DUEL):
        copy_project(root, project)
    info = root / "rules" / FIRST / "game.yaml"
    info.write_text(info.read_text() + "unprefixed_urls: true\n")
    return root


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    project = make_project(tmp_path_factory.mktemp("games"))
    pipeline.build_all(project, BOTH, project / "build", site=True)
    return project


def test_the_home_lists_every_game(built: Path):
    site = built / "build" / "site"
    home = (site / "index.html").read_text()
    assert f'href="/{FIRST}/"' in home and f'href="/{SECOND}/"' in home
    listed = json.loads((site / "assets" / "games.json").read_text())
    assert [g["id"] for g in listed] == sorted(BOTH)
    assert (site / FIRST / "cards" / "bone-hauler" / "index.html").is_file()
    assert (site / SECOND / "cards" / CARD / "index.html").is_file()
    for game in BOTH:
        assert (site / game / "index.html").is_file()
        bundles = json.loads((site / game / "assets" / "search.json").read_text())["bundles"]
        assert bundles and all(b.startswith(f"/{game}/pagefind") for b in bundles)
        assert f'data-home="/{game}/"' in (site / game / "search" / "index.html").read_text()


def test_no_broken_links_across_games(built: Path):
    assert linkcheck.check(built / "build" / "site") == []


def test_pages_link_within_their_game(built: Path):
    site = built / "build" / "site"
    page = (site / SECOND / "cards" / CARD / "index.html").read_text()
    assert f'href="/{SECOND}/cards/by-' in page and f'href="/{FIRST}/' not in page


def test_old_urls_lead_to_the_game_that_had_them(built: Path):
    site = built / "build" / "site"
    moved = (site / "cards" / "bone-hauler" / "index.html").read_text()
    assert f'<link rel="canonical" href="/{FIRST}/cards/bone-hauler/">' in moved
    assert f'content="0; url=/{FIRST}/cards/bone-hauler/"' in moved
    assert (site / "rules" / "1.1a" / "index.html").is_file()
    # every page of the game that had the unprefixed URLs has one
    folder = site / FIRST
    game_pages = {p.relative_to(folder) for p in folder.rglob("*/index.html")
                  if not p.relative_to(folder).parts[0].startswith("pagefind")}
    assert game_pages and all((site / p).is_file() for p in game_pages)


def test_one_database_per_game_linking_to_its_pages(built: Path):
    out = built / "build"
    for game in BOTH:
        conn = sqlite3.connect(f"file:{out / f'{game}.db'}?mode=ro", uri=True)
        (html,) = conn.execute("select text_html from rules where text_html like '%href%'"
                               " limit 1").fetchone()
        conn.close()
        assert f'href="/{game}/' in html
    ds = make_datasette({g: out / f"{g}.db" for g in BOTH}, out / "datasette", site=True)
    app = application(ds, out / "site")

    async def get(path: str) -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
            return await c.get(path)

    for game, card in ((FIRST, "bone-hauler"), (SECOND, CARD)):
        row = asyncio.run(get(f"/sql/{game}/cards/{card}"))
        assert f'href="/{game}/cards/{card}/"' in row.text
    for old in ("/cards/bone-hauler/card.svg", "/cards/bone-hauler/", "/rules/1.1a/"):
        moved = asyncio.run(get(old))
        assert (moved.status_code, moved.headers["location"]) == (301, f"/{FIRST}{old}")
    assert asyncio.run(get("/")).status_code == 200
    assert asyncio.run(get("/assets/games.json")).status_code == 200
    assert asyncio.run(get("/nothing/")).status_code == 404
    assert asyncio.run(get(f"/{SECOND}/")).status_code == 200


def test_building_one_game_keeps_the_others(tmp_path: Path):
    project = make_project(tmp_path / "p")
    out = project / "build"
    pipeline.build_all(project, BOTH, out, site=True)
    card = project / "cards" / SECOND / "embers" / f"{CARD}.yaml"
    lines = [ln for ln in card.read_text().splitlines() if not ln.startswith("flavor:")]
    card.write_text("\n".join([*lines, "flavor: Only here."]) + "\n")
    results = pipeline.build_all(project, [SECOND], out, whole=False, site=True)
    assert [r.game for r in results] == [SECOND]
    site = out / "site"
    assert "Only here." in (site / SECOND / "cards" / CARD / "index.html").read_text()
    assert (site / FIRST / "index.html").is_file() and (out / f"{FIRST}.db").is_file()
    assert f'href="/{FIRST}/"' in (site / "index.html").read_text()
    # a whole-project build after a game is gone drops its outputs
    shutil.rmtree(project / "rules" / SECOND)
    shutil.rmtree(project / "cards" / SECOND)
    pipeline.build_all(project, [FIRST], out, site=True)
    assert not (site / SECOND).exists() and not (out / f"{SECOND}.db").exists()
    assert f'href="/{SECOND}/"' not in (site / "index.html").read_text()
    assert linkcheck.check(site) == []


def test_every_command_runs_over_both_games(tmp_path: Path):
    from typer.testing import CliRunner

    from charnel.cli import app

    project = make_project(tmp_path / "p")
    root = ["--root", str(project)]
    for command in (["check"], ["examples"]):
        result = CliRunner().invoke(app, [*command, *root])
        assert result.exit_code == 0, result.output
    checked = CliRunner().invoke(app, ["check", *root]).stdout
    assert f"{FIRST}:" in checked and f"{SECOND}:" in checked
    out = ["--out", str(project / "build")]
    result = CliRunner().invoke(app, ["build", *root, *out, "--no-site"])
    assert result.exit_code == 0, result.output
    for game in BOTH:
        assert f"{game}: wrote" in result.stdout
        assert (project / "build" / "print" / f"{game}-rules.pdf").is_file()
    one = CliRunner().invoke(app, ["build", *root, *out, "--game", SECOND, "--force",
                                   "--no-site", "--no-print"])
    assert one.exit_code == 0 and FIRST not in one.stdout, one.output


def test_two_games_cannot_both_have_the_unprefixed_urls(tmp_path: Path):
    from typer.testing import CliRunner

    from charnel.cli import app

    project = make_project(tmp_path / "p")
    info = project / "rules" / SECOND / "game.yaml"
    info.write_text(info.read_text() + "unprefixed_urls: true\n")
    line = len((project / "rules" / FIRST / "game.yaml").read_text().splitlines())
    for command in (["check"], ["build", "--out", str(project / "build")]):
        result = CliRunner().invoke(app, [*command, "--root", str(project)])
        assert result.exit_code == 1
        assert (f"rules/{FIRST}/game.yaml:{line}:18: unprefixed_urls: game '{SECOND}' has the "
                "site's unprefixed URLs already; one game may") in result.stderr
    assert not (project / "build" / "current").exists()


def test_keyword_pages_only_for_a_game_that_declares_keywords(built: Path):
    """Keywords are one kind of ability a game may declare: the first game does, Dice Duel does
    not, so only the first game's site has their page, link, count and a card's section."""
    from charnel import registry

    site = built / "build" / "site"
    for game in BOTH:
        has = registry.get(game).has_keywords
        card = next((site / game / "cards").glob("*/index.html")).read_text("utf-8")
        home = (site / game / "index.html").read_text("utf-8")
        assert (site / game / "keywords" / "index.html").is_file() == has
        assert (f'href="/{game}/keywords/"' in home) == has
        assert ("keywords</a>" in home) == has  # the count
        assert ('id="kw-h"' in card) == has
    assert [g for g in BOTH if registry.get(g).has_keywords] == [FIRST]


def test_each_game_s_syntax_page_lists_its_own_fields(built: Path):
    """The language is the core's; the field table and the example searches are each game's,
    made from what it declares."""
    from charnel import registry

    site = built / "build" / "site"
    pages = {g: (site / g / "search" / "syntax" / "index.html").read_text("utf-8") for g in BOTH}
    assert "<code>m, might</code>" in pages[SECOND]
    assert "<code>clan:ember m&gt;=2</code>" in pages[SECOND]
    named = next(f.search.names for f in registry.get(FIRST).fields if f.search)
    assert f"<code>{', '.join(named)}</code>" in pages[FIRST]
    for game, page in pages.items():
        other = next(g for g in BOTH if g != game)
        own = set(registry.get(game).search_fields())
        for name in set(registry.get(other).search_fields()) - own:
            assert f"<code>{name}, " not in page and f"<code>{name}</code>" not in page.split(
                'id="fields-h"')[1], (game, name)
    assert "kw, keyword" not in pages[SECOND]


def test_a_game_s_syntax_page_begins_with_its_own_search_document(built: Path):
    """A game with a docs/search.md of its own opens its page with it, the language a level
    down; a game without one gets the language alone. Neither shows the authors' sections."""
    from charnel import registry
    from charnel.site import syntax

    site = built / "build" / "site"
    own = {g: syntax.game_document(registry.get(g).docs_dir) for g in BOTH}
    assert own[FIRST] is not None and own[SECOND] is None
    for game in BOTH:
        page = (site / game / "search" / "syntax" / "index.html").read_text("utf-8")
        if own[game]:
            title = own[game].read_text("utf-8").splitlines()[0].removeprefix("# ")
            assert f"<h1>{title}</h1>" in page and "<h2>Searching the card pool</h2>" in page
            assert page.index(f"<h1>{title}</h1>") < page.index("<h2>Searching the card pool")
        else:
            assert "<h1>Searching the card pool</h1>" in page
        assert page.count("<h1>") == 1
        assert "For game authors" not in page and "How a static copy" not in page
