"""Hecatomb's edits through the watcher of `charnel serve --watch`: each kind of edit, in turn in
one process, makes the site a separate build of the same sources makes."""

from __future__ import annotations

import gc
import re
import shutil
from pathlib import Path

from site_fixtures import make_project

from charnel import output_record, outputs, pipeline
from charnel.serve import rebuild
from charnel.serve.live import Live

GAME = "hecatomb"


# What the home and search pages say of the search index, which differs as the index does
READING = re.compile(rb'<script type="application/json" id="search-reading">.*?</script>', re.S)


def _pages(site: Path) -> dict[str, bytes]:
    """Every file of a built site but the search index's (a rebuild adds a delta bundle to the
    kept one; a build from nothing makes one bundle), what lists its files or reads them, and
    the build's own bookkeeping."""
    return {
        rel: READING.sub(b"", path.read_bytes()) for path in sorted(site.rglob("*"))
        if path.is_file() and "pagefind" not in (rel := path.relative_to(site).as_posix())
        and not rel.startswith(".charnel-") and rel not in ("assets/search.json", "sw.js")
    }


def _moved(site: Path) -> dict[str, bytes]:
    """The pages at the game's unprefixed URLs (the site's own: Hecatomb's are unprefixed)."""
    return {f"moved:{rel}": path.read_bytes() for path in sorted(site.rglob("index.html"))
            if (rel := path.relative_to(site).as_posix()).split("/", 1)[0] not in (GAME, "assets")
            and "/" in rel}


def _listed(site: Path) -> bytes:
    """The offline worker's addresses but the search index's (a rebuild adds a delta bundle)."""
    files = re.search(r"const FILES = (\[.*?\]);", (site / "sw.js").read_text(), re.S)[1]
    return "\n".join(u for u in files.split('"')[1::2] if "/pagefind" not in u).encode()


def _flavor(card: Path) -> None:
    card.write_text(card.read_text().replace("flavor: ", "flavor: Still ", 1))


def _ruling(card: Path) -> None:
    card.write_text(card.read_text() + "- date: '2026-10-01'\n  source: charnel\n"
                    "  text: Counted once.\n  rules: [10.6a]\n")


def _renamed(card: Path) -> None:
    card.write_text(card.read_text().replace("name: Grave Hound", "name: Aardvark Hound", 1))


def _removed(card: Path) -> None:
    card.with_name("ash-hound.yaml").unlink()


def _added(card: Path) -> None:
    text = card.read_text().replace("name: Aardvark Hound", "name: Zebra Hound", 1)
    card.with_name("zebra-hound.yaml").write_text(text.replace("number: 83", "number: 199", 1))


def _rule_text(card: Path) -> None:
    rules = card.parents[3] / "rules" / GAME / "14-keywords.md"
    rules.write_text(rules.read_text().replace("it reaps N more souls", "it reaps N souls more"))


def _doom(card: Path) -> None:
    """Moved from one doom's card list to another's, every list as long as it was."""
    card.write_text(card.read_text().replace("doom: greed", "doom: deceit", 1))


def _term(card: Path) -> None:
    glossary = card.parents[3] / "rules" / GAME / "glossary.yaml"
    glossary.write_text(glossary.read_text().replace(
        "reaps N more souls whenever it reaps", "reaps N more souls each time it reaps", 1))


def test_each_kind_of_edit_in_one_process_makes_what_a_build_from_nothing_makes(tmp_path):
    """The watcher's builds run in the server's process, which keeps what the last build read
    and wrote (card keys, the deck's entries) and uses it for the cards it still describes:
    after each kind of edit, in turn in one process, the site is the one a separate build of
    the same sources makes, deck data and lists included, and the record of the outputs is
    the one a visit of every file gives. The separate builds come after the watcher's (each
    of the sources as they were), so that nothing the watcher's process keeps is replaced by
    theirs in between."""
    project = make_project(tmp_path / "p")
    out = project / "build"
    said: list[str] = []
    watcher = rebuild.Rebuilder(project, [GAME], out, Live(out), said.append, said.append)
    watcher.build()
    card = project / "cards" / GAME / "base" / "grave-hound.yaml"
    edits = (_flavor, _ruling, _renamed, _removed, _added, _rule_text, _doom, _term, _flavor)
    made = []
    for step, edit in enumerate(edits):
        edit(card)
        watcher.build()
        assert said[-1].startswith("rebuilt in"), (edit.__name__, said[-3:])
        assert gc.get_freeze_count() == 0, "a long-lived server keeps no build's objects frozen"
        made.append({**_pages(out / "site" / GAME), "sw.js": _listed(out / "site" / GAME),
                     **_moved(out / "site")})
        shutil.copytree(project, tmp_path / f"sources-{step}",
                        ignore=lambda folder, names: ["build"] if folder == str(project) else [])
    shown = outputs.visible(out)
    assert output_record.read(shown) == output_record.make(shown, None)["files"]
    assert b"Aardvark Hound" in made[edits.index(_renamed)]["cards/grave-hound/index.html"]
    for step, (edit, mine) in enumerate(zip(edits, made, strict=True)):
        fresh = tmp_path / f"sources-{step}"
        pipeline.build_all(fresh, [GAME], fresh / "build", whole=False, site=True)
        site = fresh / "build" / "site"
        theirs = {**_pages(site / GAME), "sw.js": _listed(site / GAME), **_moved(site)}
        assert sorted(mine) == sorted(theirs), edit.__name__
        assert [rel for rel in mine if mine[rel] != theirs[rel]] == [], edit.__name__
    assert b"Zebra Hound" in made[-1]["assets/deck-pool.json"]
    assert "moved:cards/zebra-hound/index.html" in made[-1]
    assert "moved:cards/ash-hound/index.html" not in made[edits.index(_removed)]
    assert b"Counted once." in made[-1]["assets/deck-rulings.json"]
    assert b"it reaps N souls more" in made[-1]["assets/deck-rulings.json"]
    moved = made[edits.index(_doom)]
    assert b"Aardvark Hound" in moved["cards/by-doom/deceit/index.html"]
    assert b"Aardvark Hound" not in moved["cards/by-doom/greed/index.html"]
    assert b"each time it reaps" in made[edits.index(_term)]["glossary/reaper/index.html"]


def test_a_flavor_edit_does_not_make_the_deck_rulings_clauses_again(tmp_path, monkeypatch):
    """The deck rulings' clauses name the cards resting on each: kept in the server's process
    while every card rests on the clauses it did and the rulebook is the same, and made again
    (the same bytes as a build from nothing) when a ruling cites a clause it did not rest on."""
    from charnel import deckrulings

    project = make_project(tmp_path / "p")
    out = project / "build"
    said: list[str] = []
    watcher = rebuild.Rebuilder(project, [GAME], out, Live(out), said.append, said.append)
    watcher.build()
    calls = []
    touched = deckrulings.touched
    monkeypatch.setattr(deckrulings, "touched", lambda *a: calls.append(1) or touched(*a))
    card = project / "cards" / GAME / "base" / "grave-hound.yaml"
    _flavor(card)
    watcher.build()
    assert said[-1].startswith("rebuilt in") and calls == []
    card.write_text(card.read_text() + "- date: '2026-10-02'\n  source: charnel\n"
                    "  text: Played by one player.\n  rules: [1.1a]\n")
    watcher.build()
    assert said[-1].startswith("rebuilt in") and calls == [1]
    fresh = tmp_path / "fresh"
    shutil.copytree(project, fresh, ignore=lambda d, names: ["build"] if d == str(project) else [])
    pipeline.build_all(fresh, [GAME], fresh / "build", whole=False, site=True)
    for name in ("assets/deck-rulings.json", "assets/deck-pool.json"):
        mine = (out / "site" / GAME / name).read_bytes()
        assert mine == (fresh / "build" / "site" / GAME / name).read_bytes(), name
