"""A built site over a copy of the bundled sources plus a card that tries to inject HTML."""

from __future__ import annotations

import shutil
from pathlib import Path

from projects import BUNDLED, DUEL, FIXTURES, SMALL, WITH_RELEASES, copy_project, only_game

from charnel import pipeline

GAME = only_game(SMALL)  # the game the hostile card is written for

# A card of that game whose name, text, flavor and ruling try to inject HTML
HOSTILE_CARD = FIXTURES / "hostile" / "mischief.yaml"


def make_project(target: Path) -> Path:
    copy_project(target, BUNDLED, WITH_RELEASES)
    shutil.copy(HOSTILE_CARD, target / "cards" / GAME / "base" / "mischief.yaml")
    return target


def build(project: Path, out: Path) -> Path:
    """The game's folder of the built site (the site itself is its parent)."""
    pipeline.build_all(project, [GAME], out, force=True, site=True)
    return out / "site" / GAME


def build_duel(target: Path) -> Path:
    """Dice Duel's folder of the built site, built from a copy of its project."""
    copy_project(target, DUEL)
    pipeline.build_all(target, ["dice-duel"], target / "build", force=True, site=True)
    return target / "build" / "site" / "dice-duel"
