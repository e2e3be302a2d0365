"""A build after an edit updates the last build's database (`charnel.database_update`): the
file is the one a whole build of the edited sources writes, byte for byte. Each game's tests
give their edits as a fixture file (`fixtures/database_edits.yaml` in the game's tests). An
edit marked `problems: true` breaks the sources: the build after it reports what a forced
build of the edited sources reports, problem for problem, though it checks again only what
changed (`charnel.verify`). Each edit is also made in a process that keeps what its last build
loaded (`charnel.memo`, as `charnel serve --watch` does): the same database, the same
problems."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest
import yaml

from charnel import compile, kept, pipeline
from charnel.diagnostics import InputError
from charnel.memo import Memo
from charnel.sources import parsed


def edits(fixture: Path) -> list[dict]:
    return yaml.safe_load(fixture.read_text(encoding="utf-8"))


def apply(root: Path, edit: dict) -> None:
    target = root / edit["file"]
    if "copy" in edit:
        shutil.copyfile(root / edit["copy"], target)
    text = target.read_text(encoding="utf-8")
    old, new = edit["replace"]
    assert old in text, f"{edit['name']}: the edit's text is not in {edit['file']}"
    before = target.stat()
    target.write_text(text.replace(old, new, 1), encoding="utf-8")
    if edit.get("same_size_and_time"):  # only the inode's change time tells the edit
        assert len(old.encode()) == len(new.encode()), f"{edit['name']}: not the same size"
        os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))


def build(root: Path, game: str, *, force: bool = False, memo: Memo | None = None) -> bytes:
    out = root / "build"
    pipeline.build_all(root, [game], out, whole=False, force=force, memo=memo)
    return (out / f"{game}.db").read_bytes()


def dump(data: bytes, tmp: Path) -> list[str]:
    path = tmp / "dumped.db"
    path.write_bytes(data)
    conn = sqlite3.connect(path)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


def made_whole(monkeypatch) -> list:
    """A list that gains an item each time a database is made whole, not updated."""
    made: list = []
    fill = compile.fill
    monkeypatch.setattr(compile, "fill", lambda *a: made.append(1) or fill(*a))
    return made


def reported(root: Path, game: str, *, force: bool = False,
             memo: Memo | None = None) -> list[str]:
    """The problems a build reports, as the command line shows them, in its order."""
    with pytest.raises(InputError) as failed:
        build(root, game, force=force, memo=memo)
    return [f"{p.origin}: {p.message}\n{p.detail}" for p in failed.value.problems]


def check(root: Path, game: str, edit: dict, tmp: Path, monkeypatch,
          memo: Memo | None = None) -> None:
    """Build, edit, build again: the second build updates (or, for `whole: true`, makes
    whole) the database, and gives the bytes of a whole build of the edited sources; or,
    for `problems: true`, reports what a forced build of them reports (twice: a bad file is
    never kept as a good one). `memo`: the builds before the whole one keep what they load
    in it, as the watcher's do."""
    # the files just copied are trusted by their metadata, as files not touched for a while
    # are: the edit, a whole build later, still changes them
    monkeypatch.setattr(parsed, "RACY_NS", 0)
    # the store of runs and rows keeps an edit's changes beside it (`kept.Layered`), as it does
    # in a large pool; a pool this small would have it written whole each time
    monkeypatch.setattr(kept.Layered, "_FOLD", 0)
    build(root, game, memo=memo)
    apply(root, edit)
    if edit.get("problems"):
        found = reported(root, game, memo=memo)
        assert found
        assert found == reported(root, game, memo=memo)
        assert found == reported(root, game, force=True)
        return
    whole_builds = made_whole(monkeypatch)
    updated = build(root, game, memo=memo)
    assert bool(whole_builds) == edit.get("whole", False)
    whole = build(root, game, force=True)
    assert dump(updated, tmp) == dump(whole, tmp)
    assert updated == whole
