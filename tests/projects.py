"""Copies of the projects tests build on, all made one way, so a test that breaks its copy on
purpose never touches the sources or another test's copy."""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BUNDLED = REPO  # the bundled games' cards/, rules/ and releases/
SMALL = REPO / "tests" / "fixtures" / "project"  # a few cards and clauses of one game
DUEL = REPO / "tests" / "games" / "project"  # Dice Duel, the test suite's second game
SOURCES = ("cards", "rules")
WITH_RELEASES = (*SOURCES, "releases")


def copy_project(target: Path, source: Path = SMALL, parts: Iterable[str] = SOURCES) -> Path:
    """The `parts` of `source` that it has, copied into `target` (which may exist, and may
    already hold another project's games); returns `target`."""
    for part in parts:
        if (source / part).is_dir():
            shutil.copytree(source / part, target / part, dirs_exist_ok=True)
    return target


def only_game(project: Path) -> str:
    """The id of the one game a project holds (its one folder under rules/)."""
    (game,) = [p.name for p in (project / "rules").iterdir() if p.is_dir()]
    return game
