"""Games are plugins: data under rules/<game>/ plus a package registered under the
`charnel.games` entry point. The core asks this module for a game by id and never names one.
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import entry_points

from charnel.games.base import Game


@cache
def available() -> dict[str, Game]:
    found = {}
    for ep in entry_points(group="charnel.games"):
        game = ep.load()
        found[game.id] = game
    return dict(sorted(found.items()))


def get(game_id: str) -> Game | None:
    return available().get(game_id)


__all__ = ["Game", "available", "get"]
