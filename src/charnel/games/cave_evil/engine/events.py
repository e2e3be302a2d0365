"""Phase 4: the Events drawn this turn, carried out in the order drawn and then boxed
(rule 14.1a). An Event makes Spawn Rolls (`spawn`: at every Spawn Pit unless it says
where) and draws cards (`draw`): a conjuration card kept in hand, by the current player or
by each player in turn order, or an Excavation card whose tile the current player lays
next to the explored cave, its text ignored (14.1g, 14.1h). An Event drawn meanwhile is
ignored: boxed, and the next card drawn in its place (14.1b).

Where an Event counts spaces from a point (`from:` a hex or `the-pit`, `spaces:` a number or
a die), each space counted lies farther from the point than the last (14.1e), so the count
ends exactly that many hexes away; the current player picks the space (ruling 14.1j): an
open one there, or, when none there is open, an open one as near as can be beyond."""

from __future__ import annotations

from typing import Any

from . import excavation, hexes, spawn
from .conjure import draw_past_events, to_box
from .state import (
    CONJURATION_DECKS,
    Card,
    ExampleError,
    Illegal,
    State,
)

DRAW_FIELDS = {"deck", "each", "times", "collapse", "from", "spaces"}
DICE = {"d4": 4, "d12": 12}


def carry_out(state: State, args: Any = None) -> None:
    """Each Event in the order drawn: its spawns, its draws, then what else its card says
    (`effects`), and to the box."""
    from . import effects

    player = state.players[state.turn]
    while player.events:
        card = player.events.pop(0)
        for spec in card.spawn:
            _spawn(state, card, spec)
        for spec in card.draw:
            _draw(state, card, spec)
        effects.resolve(state, args, card, None, state.turn)
        state.box.append(card)


def _spawn(state: State, card: Card, spec: Any) -> None:
    if not isinstance(spec, dict):
        spec = {"roll": str(spec)}
    kind = spec.get("roll", "regular")
    where = spec.get("at", "pits")
    if "from" in spec:
        for _ in range(int(spec.get("times", 1))):
            spawn_counted(state, card, kind, spec)
        return
    if where == "pits":
        places = sorted(state.cave.pits)
    elif where == "the-pit":
        places = [state.cave.the_pit] if state.cave.the_pit else []
    else:
        places = [hexes.parse(where)]
    if not places:
        raise ExampleError(
            ("given", "cave"),
            f"the Event {card.name} spawns at {where}, which the cave does not have",
        )
    for at in places:
        for _ in range(int(spec.get("times", 1))):
            spawn.roll(state, kind, at)


def spawn_counted(state: State, card: Card, kind: str, spec: dict) -> None:
    """One Spawn Roll a count of spaces from a point (`from`, `spaces`): the count is rolled
    first (19.8a), the space picked once what the roll makes is known."""
    origin, spaces = _count(state, card, spec)
    spawn.roll(state, kind, lambda: counted_space(state, origin, spaces))


def _draw(state: State, card: Card, spec: Any) -> None:
    if not isinstance(spec, dict):
        spec = {"deck": str(spec)}
    unknown = set(spec) - DRAW_FIELDS
    deck = spec.get("deck")
    if unknown or deck not in (*CONJURATION_DECKS, "excavation"):
        raise ExampleError(
            state.path,
            f"the Event {card.name} draws {spec}: a draw is a deck "
            f"({', '.join((*CONJURATION_DECKS, 'excavation'))}) with each, times, collapse",
        )
    times = int(spec.get("times", 1))
    if deck == "excavation":
        for _ in range(times):
            _lay(state, card, spec)
        return
    each = spec.get("each")
    draw_into_hands(state, deck, state.in_turn_order(state.turn) if each else [state.turn], times)


def draw_into_hands(state: State, deck: str, players: list[str], times: int = 1) -> None:
    """Each of `players` in the order given draws `times` cards of a conjuration deck and keeps
    them; an Event drawn so is boxed and the next card drawn in its place (14.1b)."""
    for who in players:
        for _ in range(times):
            state.players[who].hand.append(draw_past_events(state, deck, to_box(state)))


def _lay(state: State, event: Card, spec: dict) -> None:
    """An Excavation card's tile, laid where the current player chooses next to the explored
    cave; the card's own text is not read, and the card goes to the box."""
    card = draw_past_events(state, "excavation", to_box(state))
    counted = _count(state, event, spec) if "from" in spec else None
    cells = excavation.tile_cells(state, card, None, state.path)
    if counted is not None and hexes.distance(counted[0], cells[0]) != counted[1]:
        origin, spaces = counted
        raise Illegal(
            "not-counted",
            f"the tile's first space must be {spaces} spaces from {hexes.show(origin)}, not "
            f"{hexes.distance(origin, cells[0])} (ruling 14.1l)",
        )
    touching = {n for h in cells for n in hexes.neighbours(h)} - set(cells)
    if not any(state.cave.is_open(n) for n in touching):
        raise Illegal(
            "not-adjacent",
            f"the tile {event.name} lays must touch the explored cave (rule 14.1g)",
        )
    excavation.lay_tile(state, card, cells)
    state.box.append(card)
    if spec.get("collapse"):
        excavation.collapse(state, cells)
    else:
        excavation.excavate(state, cells)


def _count(state: State, card: Card, spec: dict) -> tuple[hexes.Hex, int]:
    """The point counted from and how many spaces (a die is rolled here)."""
    written = spec["from"]
    if written == "the-pit":
        if state.cave.the_pit is None:
            raise ExampleError(("given", "cave"), f"{card.name} counts from The Pit: give `pit`")
        origin = state.cave.the_pit
    else:
        try:
            origin = hexes.parse(written)
        except ValueError as exc:
            raise ExampleError(state.path, f"{card.name}: {exc}") from None
    spaces = spec.get("spaces", 0)
    if spaces in DICE:
        spaces = state.dice.roll(
            DICE[spaces], f"{card.name}: how many spaces from {hexes.show(origin)}", state.path
        )
    if not isinstance(spaces, int) or isinstance(spaces, bool) or spaces < 0:
        raise ExampleError(state.path, f"{card.name}: spaces is a number, d4 or d12")
    return origin, spaces


def counted_space(state: State, origin: hexes.Hex, spaces: int) -> hexes.Hex:
    """The open space a count of `spaces` from `origin` ends on, as the current player picks
    it (the choice `spawn_at`): that many hexes away, or the nearest open beyond."""
    at = state.choices.take_hex(
        "spawn_at", f"the space {spaces} spaces from {hexes.show(origin)}", state.path
    )
    far = hexes.distance(origin, at)
    if not state.cave.is_open(at):
        raise Illegal("undug", f"{hexes.show(at)} is not open: the count ends on open ground")
    nearer = next(
        (r for r in range(spaces, far) if any(map(state.cave.is_open, _ring(origin, r)))), None
    )
    if far < spaces or nearer is not None:
        raise Illegal(
            "not-counted",
            f"{hexes.show(at)} is {far} spaces from {hexes.show(origin)}; the count of {spaces} "
            f"ends on an open space {spaces if far < spaces else nearer} spaces away",
        )
    return at


def _ring(origin: hexes.Hex, r: int) -> list[hexes.Hex]:
    q0, r0 = origin
    return [
        (q0 + dq, r0 + dr)
        for dq in range(-r, r + 1)
        for dr in range(max(-r, -dq - r), min(r, -dq + r) + 1)
        if hexes.distance((0, 0), (dq, dr)) == r
    ]
