"""Games are plugins: data under rules/<game>/ plus a package registered under the
`charnel.games` entry point. The core asks this module for a game by id and never names one.

Besides installed entry points, `CHARNEL_GAMES` may name further games as `module:attribute`
entries separated by spaces or commas (as PYTEST_PLUGINS names plugins): a game under
development, or the test suite's own games, without installing a package.
"""

from __future__ import annotations

import os
import re
from functools import cache
from importlib import import_module
from importlib.metadata import entry_points

from charnel.games.base import Game

GAME_ID = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


def package_name(game_id: str) -> str:
    """The Python package a game's id names: 'cave-evil' -> 'cave_evil'."""
    return game_id.replace("-", "_")


@cache
def available() -> dict[str, Game]:
    found = {}
    for ep in entry_points(group="charnel.games"):
        game = ep.load()
        found[game.id] = game
    for entry in re.split(r"[\s,]+", os.environ.get("CHARNEL_GAMES", "").strip()):
        if entry:
            module, _, attribute = entry.partition(":")
            game = getattr(import_module(module), attribute or "game")
            found[game.id] = game
    return dict(sorted(found.items()))


def get(game_id: str) -> Game | None:
    return available().get(game_id)


__all__ = ["GAME_ID", "Game", "available", "get", "package_name"]
