"""The watcher of `charnel serve --watch`: one build at a time, the saves made during a build
gathered into the one after it, and a failed build's problems published, located."""

from __future__ import annotations

import gc
import re
import shutil
import threading
from pathlib import Path

from projects import DUEL, copy_project
from site_fixtures import GAME, make_project

from charnel import output_record, outputs, pipeline
from charnel.diagnostics import InputError, Origin, Problems
from charnel.serve import rebuild
from charnel.serve.live import Live

WAIT_S = 120  # a bound for a stuck test, never a measured time


class Builds:
    """A stand-in for `pipeline.build_all` that holds its first build until released and
    notes how many ran, and at most how many at once."""

    def __init__(self):
        self.calls = 0
        self.running = self.most = 0
        self.release = threading.Event()
        self.started = threading.Event()
        self.second = threading.Event()
        self.fail_with: Problems | None = None
        self.guard = threading.Lock()

    def __call__(self, root, game_ids, out, **options):
        with self.guard:
            self.calls += 1
            self.running += 1
            self.most = max(self.most, self.running)
            call = self.calls
        try:
            if call == 1:
                self.started.set()
                assert self.release.wait(WAIT_S)
            if self.fail_with is not None:
                raise InputError(self.fail_with)
            return [pipeline.BuildResult(g, out / f"{g}.db") for g in game_ids]
        finally:
            with self.guard:
                self.running -= 1
            if call == 2:
                self.second.set()


def _rebuilder(tmp_path: Path, monkeypatch, builds: Builds):
    project = copy_project(tmp_path / "project", DUEL)
    monkeypatch.setattr(pipeline, "build_all", builds)
    said: list[str] = []
    live = Live(project / "build")
    found = rebuild.Rebuilder(project, None, project / "build", live, said.append,
                              lambda problems: said.append(problems.summary()))
    return project, found, live, said


def test_saves_during_a_build_make_one_build_after_it(tmp_path, monkeypatch):
    builds = Builds()
    project, rebuilder, _, _ = _rebuilder(tmp_path, monkeypatch, builds)
    cards = sorted((project / "cards").glob("*/*/*.yaml"))
    rebuilder.start()
    try:
        cards[0].write_text(cards[0].read_text() + "\n")
        assert builds.started.wait(WAIT_S)
        for card in cards:  # saved while the first build runs
            card.write_text(card.read_text() + "\n")
        builds.release.set()
        assert builds.second.wait(WAIT_S)
    finally:
        rebuilder.stop()
    assert builds.calls == 2 and builds.most == 1


def test_a_failed_build_publishes_its_problems_located(tmp_path, monkeypatch):
    builds = Builds()
    builds.release.set()
    problems = Problems()
    builds.fail_with = problems
    project, rebuilder, live, said = _rebuilder(tmp_path, monkeypatch, builds)
    card = next((project / "cards").glob("*/*/cinder-knight.yaml")).relative_to(project)
    problems.add(Origin(card.as_posix(), 3, 8), "might: not a number")
    rebuilder.build()
    assert live.problems["summary"] == "1 problem in 1 file"
    shown = live.problems["problems"][0]
    assert shown.startswith(f"{card.as_posix()}:3:8: might: not a number")
    assert "\n    3 | might: 3" in shown  # the line itself, under the location
    builds.fail_with = None
    rebuilder.build()
    assert live.problems["problems"] == []
    assert said[0] == "1 problem in 1 file" and said[-1].startswith("rebuilt in")


def test_a_builds_garbage_is_collected_once_nothing_is_saved(tmp_path, monkeypatch):
    """The collection waits for a quiet moment of the watch, not the page reloads a build
    causes: after a build its objects are left to it, and the watch collects them when idle."""
    builds = Builds()
    builds.release.set()
    monkeypatch.setattr(rebuild, "IDLE_MS", 100)
    _, rebuilder, _, _ = _rebuilder(tmp_path, monkeypatch, builds)
    collected = threading.Event()
    monkeypatch.setattr(rebuild.gc, "collect", lambda *a: collected.set())
    rebuilder.build()
    assert rebuilder.garbage and not collected.is_set()
    rebuilder.start()
    try:
        assert collected.wait(WAIT_S)
    finally:
        rebuilder.stop()
    assert not rebuilder.garbage


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
        made.append(_pages(out / "site" / GAME))
        shutil.copytree(project, tmp_path / f"sources-{step}",
                        ignore=lambda folder, names: ["build"] if folder == str(project) else [])
    shown = outputs.visible(out)
    assert output_record.read(shown) == output_record.make(shown, None)["files"]
    assert b"Aardvark Hound" in made[edits.index(_renamed)]["cards/grave-hound/index.html"]
    for step, (edit, mine) in enumerate(zip(edits, made, strict=True)):
        fresh = tmp_path / f"sources-{step}"
        pipeline.build_all(fresh, [GAME], fresh / "build", whole=False, site=True)
        theirs = _pages(fresh / "build" / "site" / GAME)
        assert sorted(mine) == sorted(theirs), edit.__name__
        assert [rel for rel in mine if mine[rel] != theirs[rel]] == [], edit.__name__
    assert b"Zebra Hound" in made[-1]["assets/deck-pool.json"]
    assert b"Counted once." in made[-1]["assets/deck-rulings.json"]
    assert b"it reaps N souls more" in made[-1]["assets/deck-rulings.json"]
    moved = made[edits.index(_doom)]
    assert b"Aardvark Hound" in moved["cards/by-doom/deceit/index.html"]
    assert b"Aardvark Hound" not in moved["cards/by-doom/greed/index.html"]
    assert b"each time it reaps" in made[edits.index(_term)]["glossary/reaper/index.html"]
