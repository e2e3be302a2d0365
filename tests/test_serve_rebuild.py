"""The watcher of `charnel serve --watch`: one build at a time, the saves made during a build
gathered into the one after it, and a failed build's problems published, located."""

from __future__ import annotations

import threading
from pathlib import Path

from projects import DUEL, copy_project

from charnel import pipeline
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


def test_the_edited_cards_page_is_shown_before_the_build_commits(tmp_path):
    """With the real build: the saved card's page, face and JSON file are handed to the open
    pages while the visible site still has the old ones, and they are the bytes committed."""
    project = copy_project(tmp_path / "project", DUEL)
    out = project / "build"
    shown: list[dict[str, tuple[bytes, bytes | None]]] = []

    class Watching(Live):
        def preview(self, files):
            visible = {rel: (out / "site" / rel).read_bytes() if (out / "site" / rel).is_file()
                       else None for rel in files}
            shown.append({rel: (data, visible[rel]) for rel, data in files.items()})
            super().preview(files)

    said: list[str] = []
    rebuilder = rebuild.Rebuilder(project, None, out, Watching(out), said.append, said.append)
    rebuilder.build()
    assert said[-1].startswith("rebuilt in"), said
    shown.clear()  # the first build: every page is new, none is shown early
    card = project / "cards/dice-duel/embers/ash-page.yaml"
    card.write_text(card.read_text() + "flavor: Cinders remember.\n")
    rebuilder.build()
    assert said[-1].startswith("rebuilt in"), said
    first = shown[0]
    page = "dice-duel/cards/ash-page/index.html"
    assert set(first) == {page, "dice-duel/cards/ash-page/card.svg",
                          "dice-duel/cards/ash-page/card.json"}
    new, before = first[page]
    assert b"Cinders remember." in new and b"Cinders remember." not in before
    for rel, (data, _) in first.items():
        assert (out / "site" / rel).read_bytes() == data  # what the build committed

    # a server started on outputs built already: its first save is shown early too
    shown.clear()
    started = rebuild.Rebuilder(project, None, out, Watching(out), said.append, said.append)
    started.build()
    assert said[-1].startswith("up to date"), said
    card.write_text(card.read_text().replace("Cinders remember.", "Ash forgets."))
    started.build()
    assert b"Ash forgets." in shown[0][page][0]
