"""Phase 4: the Events drawn this turn, carried out in the order drawn and then boxed
(rule 14.1a). An Event makes Spawn Rolls (`spawn`: at every Spawn Pit unless it says
where) and draws cards (`draw`): a conjuration card kept in hand, by the current player or
by each player in turn order, or an Excavation card whose tile the current player lays
next to the explored cave, its text ignored (14.1g, 14.1h). An Event drawn meanwhile is
ignored: boxed, and the next card drawn in its place (14.1b)."""

from __future__ import annotations

from typing import Any

from charnel.games.cave_evil.engine import excavation, hexes, spawn
from charnel.games.cave_evil.engine.conjure import draw_past_events, to_box
from charnel.games.cave_evil.engine.state import (
    CONJURATION_DECKS,
    Card,
    ExampleError,
    Illegal,
    State,
)

DRAW_FIELDS = {"deck", "each", "times", "collapse"}


def carry_out(state: State) -> None:
    player = state.players[state.turn]
    while player.events:
        card = player.events.pop(0)
        for spec in card.spawn:
            _spawn(state, card, spec)
        for spec in card.draw:
            _draw(state, card, spec)
        state.box.append(card)


def _spawn(state: State, card: Card, spec: Any) -> None:
    if not isinstance(spec, dict):
        spec = {"roll": str(spec)}
    kind = spec.get("roll", "regular")
    where = spec.get("at", "pits")
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
            _lay(state, card, bool(spec.get("collapse")))
        return
    i = state.order.index(state.turn)
    turn_order = state.order[i:] + state.order[:i]
    drawers = [p for p in turn_order if not state.players[p].out]
    for who in drawers if spec.get("each") else [state.turn]:
        for _ in range(times):
            state.players[who].hand.append(draw_past_events(state, deck, to_box(state)))


def _lay(state: State, event: Card, collapse: bool) -> None:
    """An Excavation card's tile, laid where the current player chooses next to the explored
    cave; the card's own text is not read, and the card goes to the box."""
    card = draw_past_events(state, "excavation", to_box(state))
    cells = excavation.tile_cells(state, card, None, state.path)
    touching = {n for h in cells for n in hexes.neighbours(h)} - set(cells)
    if not any(state.cave.is_open(n) for n in touching):
        raise Illegal(
            "not-adjacent",
            f"the tile {event.name} lays must touch the explored cave (rule 14.1g)",
        )
    excavation.lay_tile(state, card, cells)
    state.box.append(card)
    if collapse:
        excavation.collapse(state, cells)
    else:
        excavation.excavate(state, cells)
