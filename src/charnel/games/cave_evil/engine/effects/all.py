"""Every family of effects, imported once so each registers its effects and hooks; only the
engine's top (the runner, verification, the card checks) imports this module."""

from __future__ import annotations

from . import (  # noqa: F401  (they register)
    EFFECTS,
    abilities,
    aftermath,
    bombs,
    event_spawns,
    evil,
    evil_moves,
    goods,
    hiring,
    losses,
    marches,
    necromancers,
    protectors,
    spells,
    tiles_laid,
    track,
    upheavals,
)
