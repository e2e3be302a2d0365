"""Copies of the projects tests build on, all made one way, so a test that breaks its copy on
purpose never touches the sources or another test's copy."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Iterable
from pathlib import Path

from filelock import FileLock

REPO = Path(__file__).resolve().parent.parent
BUNDLED = REPO  # the bundled games' cards/, rules/ and releases/
# One bundled game's small project, deck lists and broken files, kept in that game's folder
FIXTURES = REPO / "tests/games/hecatomb/fixtures"
SMALL = FIXTURES / "project"  # a few cards and clauses of one game
DUEL = REPO / "tests" / "games" / "project"  # Dice Duel, the test suite's second game
SOURCES = ("cards", "rules")
WITH_RELEASES = (*SOURCES, "releases")


def copy_project(target: Path, source: Path, parts: Iterable[str] = SOURCES) -> Path:
    """The `parts` of `source` that it has, copied into `target` (which may exist, and may
    already hold another project's games); returns `target`."""
    for part in parts:
        if (source / part).is_dir():
            shutil.copytree(source / part, target / part, dirs_exist_ok=True)
    return target


def copy_built(source: Path, target: Path) -> Path:
    """A copy of a built project (`source`: its sources and build/) at `target`, hard links
    between the build's generations kept (cp -a), so that a build of the copy sees what a build
    of the original would; returns `target`."""
    subprocess.run(["cp", "-a", str(source), str(target)], check=True)
    return target


def made_once(tmp_path_factory, name: str, make: Callable[[Path], None]) -> Path:
    """The folder `name`, made by `make` once per test run: the parallel workers of a run
    (pytest-xdist) share it, the first to ask makes it while the others wait on a file lock.
    A folder left by a `make` that failed is made again."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the run's folder, above each worker's own
    target, done = base / name, base / f"{name}.done"
    with FileLock(str(base / f"{name}.lock")):
        if not done.exists():
            shutil.rmtree(target, ignore_errors=True)
            target.mkdir()
            make(target)
            done.touch()
    return target


def only_game(project: Path) -> str:
    """The id of the one game a project holds (its one folder under rules/)."""
    (game,) = [p.name for p in (project / "rules").iterdir() if p.is_dir()]
    return game
