"""A build after an edit updates the last build's database (`charnel.database_update`) and
reuses the last build's example runs and card verifications (`charnel.run_keys`): the file is
the one a whole build of the edited sources writes, byte for byte, and what an edit changed
is run again."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
import yaml
from projects import BUNDLED, copy_project

from charnel import compile, examples, pipeline
from charnel.diagnostics import Problems
from charnel.engine import outcomes
from charnel.sources import loader
from charnel.verify import verify

FIXTURES = Path(__file__).parent / "fixtures" / "compile_update"
EDITS = yaml.safe_load((FIXTURES / "edits.yaml").read_text(encoding="utf-8"))


def _edit(root: Path, edit: dict) -> None:
    target = root / edit["file"]
    if "copy" in edit:
        shutil.copyfile(root / edit["copy"], target)
    text = target.read_text(encoding="utf-8")
    old, new = edit["replace"]
    assert old in text, f"{edit['name']}: the edit's text is not in {edit['file']}"
    target.write_text(text.replace(old, new, 1), encoding="utf-8")


def _build(root: Path, game: str, *, force: bool = False) -> bytes:
    out = root / "build"
    pipeline.build_all(root, [game], out, whole=False, force=force)
    return (out / f"{game}.db").read_bytes()


def _dump(data: bytes, tmp: Path) -> list[str]:
    path = tmp / "dumped.db"
    path.write_bytes(data)
    conn = sqlite3.connect(path)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


@pytest.mark.parametrize("edit", EDITS, ids=[e["name"] for e in EDITS])
def test_an_edit_gives_the_database_a_whole_build_gives(edit, tmp_path: Path, monkeypatch):
    root = copy_project(tmp_path / "project", BUNDLED)
    _build(root, edit["game"])
    _edit(root, edit)
    made_whole = []
    fill = compile.fill
    monkeypatch.setattr(compile, "fill", lambda *a: made_whole.append(1) or fill(*a))
    updated = _build(root, edit["game"])
    assert bool(made_whole) == edit.get("whole", False)
    whole = _build(root, edit["game"], force=True)
    assert _dump(updated, tmp_path) == _dump(whole, tmp_path)
    assert updated == whole


def _records(root: Path, game: str):
    problems = Problems()
    records = loader.load(root, game, problems)
    verify(records, problems)
    assert not problems
    return records


def _runs(root: Path, kept: dict, monkeypatch) -> tuple[list, list[str], list[str]]:
    """This load's outcomes, and the examples and cards run (not taken from `kept`)."""
    ran, verified = [], []
    run_example, verify_card = outcomes.run_example, outcomes.verify_card
    monkeypatch.setattr(outcomes, "run_example",
                        lambda g, e, r: ran.append(e.id) or run_example(g, e, r))
    monkeypatch.setattr(outcomes, "verify_card",
                        lambda g, c, r: verified.append(c.slug) or verify_card(g, c, r))
    made = examples.run_all(_records(root, "hecatomb"), kept=kept)
    monkeypatch.undo()
    return made, ran, verified


def test_runs_are_made_again_when_what_they_read_changed(tmp_path: Path, monkeypatch):
    root = copy_project(tmp_path, BUNDLED)
    kept: dict = {}
    first, ran, verified = _runs(root, kept, monkeypatch)
    assert ran and verified
    # nothing changed: nothing runs, and the outcomes are the same
    again, ran, verified = _runs(root, kept, monkeypatch)
    assert (ran, verified) == ([], [])
    assert again == first
    # one card's flavor: that card alone is verified again
    card = root / "cards/hecatomb/base/ash-hound.yaml"
    card.write_text(card.read_text("utf-8").replace("flavor: Set loose", "flavor: Let loose"),
                    "utf-8")
    _, ran, verified = _runs(root, kept, monkeypatch)
    assert (ran, verified) == ([], ["ash-hound"])
    # an example a card's keyword is checked against: it runs again, and the card is verified
    records = _records(root, "hecatomb")
    runs = outcomes.card_runs(records.game, _card(records, "ash-hound"), records)
    example = next(e for e in records.examples
                   if e.id == runs[0][1].example and e.owner_kind == "rule")
    clause_file = root / example.origin.path
    text = clause_file.read_text("utf-8")
    written = example.source.splitlines()[0]
    clause_file.write_text(text.replace(written, f"{written}  # edited", 1), "utf-8")
    fresh, ran, verified = _runs(root, kept, monkeypatch)
    assert example.id in ran
    assert "ash-hound" in verified
    assert fresh == examples.run_all(_records(root, "hecatomb"))


def _card(records, slug: str):
    return next(c for c in records.cards if c.slug == slug)


def test_a_database_not_the_one_kept_for_is_made_whole(tmp_path: Path, monkeypatch):
    root = copy_project(tmp_path / "project", BUNDLED)
    _build(root, "hecatomb")
    # the kept keys describe the last database; a file put in its place is not updated
    database = (root / "build" / "hecatomb.db").resolve()
    stranger = database.with_name("stranger.db")
    stranger.write_bytes(database.read_bytes())
    stranger.replace(database)
    _edit(root, EDITS[0])
    made_whole = []
    fill = compile.fill
    monkeypatch.setattr(compile, "fill", lambda *a: made_whole.append(1) or fill(*a))
    updated = _build(root, "hecatomb")
    assert made_whole
    assert updated == _build(root, "hecatomb", force=True)
