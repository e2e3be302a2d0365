"""Cave Evil's edits give the database a whole build gives (tests/database_edits.py): its
deck-composition table is made again with the rest."""

from __future__ import annotations

from pathlib import Path

import database_edits
import pytest
from projects import BUNDLED, copy_project

from charnel.memo import Memo

EDITS = database_edits.edits(Path(__file__).parent / "fixtures" / "database_edits.yaml")


@pytest.mark.parametrize("in_memory", [False, True], ids=["plain", "memo"])
@pytest.mark.parametrize("edit", EDITS, ids=[e["name"] for e in EDITS])
def test_an_edit_gives_the_database_a_whole_build_gives(edit, in_memory, tmp_path: Path,
                                                        monkeypatch):
    root = copy_project(tmp_path / "project", BUNDLED)
    database_edits.check(root, "cave-evil", edit, tmp_path, monkeypatch,
                         Memo() if in_memory else None)
