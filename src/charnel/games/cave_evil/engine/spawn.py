"""Spawn Rolls. Regular (and Excavation): a d4 for the kind (1 Metals, 2 Gore,
3 Shadowflame, 4 a card), then a d4 for the amount, or for the deck (1 Bribe, 2 Construct,
3 Summon, 4 Abyss), drawing past Events (boxed). Resource roll: a d4 for the resource
(4 rolls again), a d4 for the amount. Card roll: one d4 for the deck.

A drawn Creature becomes a Wandering Monster (joining one already there if the squad stays
legal, else beside it; never on a player's squad); an Item or Spell lies on the space."""

from __future__ import annotations

from typing import Any

from . import death, hexes, squads
from .conjure import draw_past_events, to_box
from .state import (
    CONJURATION_DECKS,
    RESOURCES,
    Card,
    ExampleError,
    Illegal,
    Squad,
    State,
)

KINDS = ("regular", "excavation", "resource", "card")


def roll(state: State, kind: str, at, *, resources_to: Squad | None = None) -> dict[str, Any]:
    """Make one Spawn Roll whose things appear at `at` (a hex, or a function giving the hex
    a drawn card goes to), resources onto `resources_to` for an Excavation Spawn."""
    if kind not in KINDS:
        raise ExampleError(state.path, f"unknown spawn roll '{kind}' (known: {', '.join(KINDS)})")
    why = f"a {kind} Spawn Roll"
    if kind in ("regular", "excavation"):
        first = state.dice.roll(4, f"{why}: its kind", state.path)
        if first < 4:
            return _resource(state, RESOURCES[first - 1], at, why, resources_to)
        deck = CONJURATION_DECKS[state.dice.roll(4, f"{why}: the deck", state.path) - 1]
        return _card(state, deck, at)
    if kind == "resource":
        while True:
            first = state.dice.roll(4, f"{why}: the resource (4 rolls again)", state.path)
            if first < 4:
                return _resource(state, RESOURCES[first - 1], at, why, resources_to)
    deck = CONJURATION_DECKS[state.dice.roll(4, f"{why}: the deck", state.path) - 1]
    return _card(state, deck, at)


def _resource(state: State, resource: str, at, why: str, to: Squad | None) -> dict[str, Any]:
    amount = state.dice.roll(4, f"{why}: how much {resource}", state.path)
    if callable(at) and to is None:  # where it goes is decided only once it is known
        at = at()
    if to is not None:
        to.resources[resource] += amount
        made = {"resource": resource, "amount": amount, "to": to.key}
    else:
        state.ground_at(at).resources[resource] += amount
        made = {"resource": resource, "amount": amount, "at": hexes.show(at)}
    state.spawned.append(made)
    return made


def _card(state: State, deck: str, at) -> dict[str, Any]:
    card = draw_past_events(state, deck, to_box(state))
    if callable(at):  # where a card goes is decided only once one is drawn
        at = at()
    made: dict[str, Any] = {"deck": deck, "card": card.name}
    if card.is_creature:
        where = place_monster(state, card, at)
        made["at"] = hexes.show(where)
        made["monster"] = next(s.key for s in state.squads.values() if card in s.creatures)
    else:
        death.drop_items(state, at, [card])
        made["at"] = hexes.show(at)
        made["marker"] = state.ground_at(at).marker
    state.spawned.append(made)
    return made


def place_monster(state: State, card: Card, at: hexes.Hex) -> hexes.Hex:
    there = state.occupant(at)
    if there is not None and there.wandering and squads.fits(there.creatures + [card]):
        there.creatures.append(card)
        return at
    if there is not None:
        at = free_space_beside(
            state,
            at,
            f"{card.name} cannot stand with {there.key}: the spawning player picks a space "
            "beside it",
        )
    squad = Squad(None, death.next_marker(state), at=at, creatures=[card])
    state.squads[squad.key] = squad
    return at


def free_space_beside(state: State, at: hexes.Hex, why: str) -> hexes.Hex:
    """The free open space beside `at` a player picks (the choice `spawn_at`) for what cannot
    stand there."""
    to = state.choices.take_hex("spawn_at", why, state.path)
    if not hexes.adjacent(to, at) or state.occupant(to) is not None or not state.cave.is_open(to):
        raise Illegal(
            "no-room", f"{hexes.show(to)} is not a free open space next to {hexes.show(at)}"
        )
    return to
