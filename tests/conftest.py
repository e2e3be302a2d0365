"""Shared fixtures: a throwaway copy of the bundled project to break on purpose."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from projects import BUNDLED, copy_project

REPO = Path(__file__).resolve().parent.parent
GAMES = REPO / "tests" / "games"  # the test suite's own games, beside Hecatomb

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
