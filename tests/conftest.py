"""Shared fixtures: a throwaway copy of the bundled project to break on purpose."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the bundled cards/ and rules/ in a temporary folder."""
    for part in ("cards", "rules"):
        shutil.copytree(REPO / part, tmp_path / part)
    return tmp_path
