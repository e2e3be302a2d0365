"""Cards that lay excavation tiles without a dig: the cards are drawn from the Excavation deck
(an Event drawn is boxed and another drawn), only their tiles count (14.1h), and the tile goes
where the card laying it says, as the current player chooses (14.1g; the `tile` choice)."""

from __future__ import annotations

from typing import Any

from .. import hexes
from ..state import ExampleError, Illegal
from . import Resolution, effect

BESIDE = {
    "caster": "adjacent to the caster",
    "pit-room": "adjacent to The Pit room",
    "explored": "adjacent to an explored area",
}
COUNTS = {1: "an Excavation card", 2: "2 Excavation cards", 3: "3 Excavation cards"}


def _check(value: Any) -> str | None:
    ok = (
        isinstance(value, dict)
        and value.get("beside") in BESIDE
        and value.get("side", "excavate") in ("excavate", "collapse")
        and value.get("count", 1) in COUNTS
        and set(value) <= {"beside", "side", "count"}
    )
    return None if ok else f"{{beside: {' | '.join(BESIDE)}, side: excavate | collapse, count: n}}"


def _wording(v: dict) -> list[str]:
    n, beside = v.get("count", 1), BESIDE[v["beside"]]
    if v["beside"] == "caster":
        return [
            f"Draw a card from the Excavation deck and place the tile it shows {beside}. "
            "Ignore any Events drawn"
        ]
    each = "places each tile as a Collapse" if v.get("side") == "collapse" else "places its tile"
    whose = "Their" if n > 1 else "Its"
    return [
        f"The current player draws {COUNTS[n]} and {each} {beside}. {whose} text is ignored; "
        "Events drawn this way are put in the box and another card is drawn"
    ]


def _lay(done: Resolution, value: dict) -> None:
    from ..conjure import draw_past_events, to_box
    from ..excavation import collapse, excavate, lay_tile, tile_cells

    state = done.state
    side = value.get("side", "excavate")
    written = done.args.get("tile") if done.args is not None and done.args.has("tile") else None
    for _ in range(value.get("count", 1)):
        card = draw_past_events(state, "excavation", to_box(state))
        cells = tile_cells(state, card, written, state.path)
        written = None  # a second tile is a choice
        _first(done, value["beside"], cells[0])
        lay_tile(state, card, cells)
        state.box.append(card)
        if side == "collapse":
            collapse(state, cells)
        else:
            excavate(state, cells)


def _first(done: Resolution, beside: str, first: hexes.Hex) -> None:
    cave = done.state.cave
    if not cave.is_undug(first):
        raise Illegal("first-space", "a tile laid this way begins on an undug space")
    if beside == "caster":
        near = {done.squad.at}  # type: ignore[union-attr]
    elif beside == "pit-room":
        near = cave.pit_room
        if not near:
            raise ExampleError(("given", "cave"), "give the cave's pit_room")
    else:
        near = {h for h in hexes.neighbours(first) if cave.is_open(h)}
    if not any(hexes.adjacent(first, h) for h in near):
        raise Illegal("not-adjacent", f"the tile's first space must be {BESIDE[beside]}")


effect(
    "lay_tiles",
    kinds=("event", "spell"),
    clause="19.11a",
    role="the card that lays tiles",
    check=_check,
    wording=_wording,
    run=_lay,
)
