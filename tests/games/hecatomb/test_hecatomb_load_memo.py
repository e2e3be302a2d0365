"""Hecatomb's records, kept in the watcher's memory from one build to the next
(`charnel.memo`), are left as loaded by every stage after the load: the checks, the engine's
example runs and card verifications, the database and the site."""

from __future__ import annotations

from pathlib import Path

from loads import recorded, snapshot
from projects import BUNDLED, copy_project

from charnel.serve import rebuild
from charnel.serve.live import Live

GAME = "hecatomb"


def test_the_stages_leave_the_kept_records_as_loaded(tmp_path: Path, monkeypatch):
    project = copy_project(tmp_path / "project", BUNDLED)
    loads = recorded(monkeypatch)
    out = project / "build"
    said: list[str] = []
    watcher = rebuild.Rebuilder(project, [GAME], out, Live(out), said.append, said.append)
    watcher.build()
    card = project / "cards" / GAME / "base" / "grave-hound.yaml"
    card.write_text(card.read_text().replace("flavor: ", "flavor: Still ", 1))
    watcher.build()
    assert said[-1].startswith("rebuilt in"), said[-3:]
    (first, after_first), (second, after_second) = loads
    assert snapshot(first) == after_first
    assert snapshot(second) == after_second
    kept = {id(card) for card in first.cards}
    assert [c.slug for c in second.cards if id(c) not in kept] == ["grave-hound"]
