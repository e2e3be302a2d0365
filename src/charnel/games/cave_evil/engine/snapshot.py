"""A state as plain data for pictures: the hexes an example uses (its squads' spaces, its
goods, the cave it wrote, and one ring round them), the squads on them, the players."""

from __future__ import annotations

from . import hexes
from .setup import FAR
from .state import State


def _near(h: hexes.Hex) -> bool:
    return abs(h[0]) < FAR // 2 and abs(h[1]) < FAR // 2  # not a squad set far away


def snapshot(state: State) -> dict:
    cave = state.cave
    used = {s.at for s in state.squads.values() if s.at is not None and _near(s.at)}
    used |= {h for h, g in state.ground.items() if g.items or any(g.resources.values())}
    used |= cave.open | cave.undug | cave.collapsed | cave.pits | cave.lair
    used = {h for h in used if _near(h)}
    shown = set(used)
    for h in used:
        shown |= set(hexes.neighbours(h))
    cells = []
    for q, r in sorted(shown):
        h = (q, r)
        kind = "open" if cave.is_open(h) else "collapsed" if h in cave.collapsed else "undug"
        g = state.ground.get(h)
        cells.append(
            {
                "q": q,
                "r": r,
                "kind": kind,
                "pit": h in cave.pits,
                "ground": bool(g and (g.items or any(g.resources.values()))),
            }
        )
    squads = [
        {
            "key": s.key,
            "owner": s.owner,
            "label": s.label,
            "at": list(s.at),
            "creatures": [c.name for c in s.creatures],
        }
        for s in sorted(state.squads.values(), key=lambda s: s.key)
        if s.at is not None and _near(s.at)
    ]
    return {"players": list(state.order), "hexes": cells, "squads": squads}
