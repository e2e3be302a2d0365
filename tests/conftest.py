"""Shared fixtures: a throwaway copy of the bundled project to break on purpose, and builds
that many tests only read or copy, made once."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from projects import BUNDLED, WITH_RELEASES, copy_project, made_once

REPO = Path(__file__).resolve().parent.parent
GAMES = REPO / "tests" / "games"  # the test suite's own games, beside the bundled ones

# Dice Duel is a game like any installed one: found through CHARNEL_GAMES, here and in the
# processes tests start.
sys.path.insert(0, str(GAMES))
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(GAMES), os.environ.get("PYTHONPATH")]))
os.environ["CHARNEL_GAMES"] = " ".join(
    filter(None, [os.environ.get("CHARNEL_GAMES"), "dice_duel:game"])
)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the bundled cards/ and rules/ in a temporary folder."""
    return copy_project(tmp_path, BUNDLED)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> tuple[Path, Path]:
    """(project, the game's folder of its built site): one build of the bundled sources with the
    hostile card (site_fixtures), shared by the test modules that only read it."""
    from site_fixtures import build, make_project

    project = make_project(tmp_path_factory.mktemp("shared-site"))
    return project, build(project, project / "build")


@pytest.fixture(scope="session")
def bundled_build(tmp_path_factory) -> Path:
    """The bundled project (cards, rules, releases) after a first `charnel build` of every game
    in a newcomer's environment: databases, sites, search indexes and PDFs. Made once for the
    whole run, however many workers share it; read only: copy it (`projects.copy_built`)
    to build on it, which lays out only the PDFs whose markup changed."""

    def make(project: Path) -> None:
        copy_project(project, BUNDLED, WITH_RELEASES)
        env = {k: v for k, v in os.environ.items()
               if k not in ("CI", "CHARNEL_GAMES", "PYTHONPATH")}
        done = subprocess.run(
            [sys.executable, "-m", "charnel.cli", "build", "--root", str(project),
             "--out", str(project / "build")],
            env=env, capture_output=True, text=True, timeout=1800,
        )
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]

    return made_once(tmp_path_factory, "bundled-build", make)


LONGEST = "test_readme_tour.py"  # the longest test (docs/performance.md)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest test first, then the other files with a slow test: run in parallel
    (scripts/test), a long test started last leaves the other workers idle while it ends."""
    slow = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: (item.path.name != LONGEST, item.path not in slow))
