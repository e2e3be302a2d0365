"""Shared fixtures: a throwaway copy of the bundled project to break on purpose."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from projects import BUNDLED, copy_project

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
