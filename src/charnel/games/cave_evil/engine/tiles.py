"""Tile shapes, as charnel's own data: the rulebook shows the tiles only in pictures (the
Lair alone is described: ten spaces, a mouth three hexes wide), so each shape here is a
list of axial offsets, with the index of its Spawn Pit where it has one. A tile may be laid
in any of its six turns, either face up."""

from __future__ import annotations

from typing import Any

from .hexes import Hex

FLOWER: list[Hex] = [(0, 0), (1, 0), (2, -1), (1, -1), (0, 1), (1, 1), (2, 0)]  # centre 1
SHAPES: dict[str, tuple[list[Hex], int | None]] = {
    "single-tile": ([(0, 0)], None),
    "alcove": ([(0, 0), (1, 0)], None),
    "antechamber": ([(0, 0), (1, 0), (0, 1)], None),
    "crook": ([(0, 0), (1, 0), (1, 1), (1, 2)], None),
    "tunnel": ([(0, 0), (1, 0), (2, 0), (3, 0)], None),
    "great-hall": ([(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)], None),
    "throneroom": (FLOWER, 1),
    "shrine": ([(0, 0), (1, 0), (0, 1), (1, -1)], 1),
    "temple": (FLOWER, 1),
}


def shape_of(tile: Any) -> tuple[list[Hex], int | None] | None:
    """(offsets, pit index) of a card's tile: a name above, or `{cells: [...], pit: i}`."""
    if isinstance(tile, str):
        return SHAPES.get(tile)
    if isinstance(tile, dict):
        if "cells" in tile:
            cells = [(int(q), int(r)) for q, r in tile["cells"]]
            return cells, tile.get("pit")
        if "name" in tile:
            return SHAPES.get(str(tile["name"]))
    return None
