"""Hecatomb's edits give the database a whole build gives (tests/database_edits.py), and a
build reruns exactly the example runs and card verifications whose inputs changed
(`charnel.run_keys`)."""

from __future__ import annotations

from pathlib import Path

import database_edits
import pytest
from projects import BUNDLED, copy_project

from charnel import examples
from charnel.diagnostics import Problems
from charnel.engine import outcomes
from charnel.memo import Memo
from charnel.sources import loader
from charnel.verify import verify

GAME = "hecatomb"
EDITS = database_edits.edits(Path(__file__).parent / "fixtures" / "database_edits.yaml")


@pytest.mark.parametrize("in_memory", [False, True], ids=["plain", "memo"])
@pytest.mark.parametrize("edit", EDITS, ids=[e["name"] for e in EDITS])
def test_an_edit_gives_the_database_a_whole_build_gives(edit, in_memory, tmp_path: Path,
                                                        monkeypatch):
    root = copy_project(tmp_path / "project", BUNDLED)
    database_edits.check(root, GAME, edit, tmp_path, monkeypatch, Memo() if in_memory else None)


def test_a_database_not_the_one_kept_for_is_made_whole(tmp_path: Path, monkeypatch):
    root = copy_project(tmp_path / "project", BUNDLED)
    database_edits.build(root, GAME)
    # the kept keys describe the last database; a file put in its place is not updated
    database = (root / "build" / f"{GAME}.db").resolve()
    stranger = database.with_name("stranger.db")
    stranger.write_bytes(database.read_bytes())
    stranger.replace(database)
    database_edits.apply(root, EDITS[0])
    whole_builds = database_edits.made_whole(monkeypatch)
    updated = database_edits.build(root, GAME)
    assert whole_builds
    assert updated == database_edits.build(root, GAME, force=True)


def _records(root: Path):
    problems = Problems()
    records = loader.load(root, GAME, problems)
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
    made = examples.run_all(_records(root), kept=kept)
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
    records = _records(root)
    hound = next(c for c in records.cards if c.slug == "ash-hound")
    runs = outcomes.card_runs(records.game, hound, records)
    example = next(e for e in records.examples
                   if e.id == runs[0][1].example and e.owner_kind == "rule")
    clause_file = root / example.origin.path
    text = clause_file.read_text("utf-8")
    written = example.source.splitlines()[0]
    clause_file.write_text(text.replace(written, f"{written}  # edited", 1), "utf-8")
    fresh, ran, verified = _runs(root, kept, monkeypatch)
    assert example.id in ran
    assert "ash-hound" in verified
    assert fresh == examples.run_all(_records(root))
