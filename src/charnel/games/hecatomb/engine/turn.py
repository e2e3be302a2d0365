"""The turn: the ready phase (gain a soul, untap, draw two) and the end of the turn (pool
lost, end-of-turn abilities in seating order, one-time stat changes and overrides end)."""

from __future__ import annotations

from charnel.engine.errors import Illegal

from . import combat, effects, movement, souls
from .refs import Args
from .state import State


def ready(state: State, a: Args | None = None) -> None:
    if state.winner is not None:
        raise Illegal("game-over", f"the game is over: {state.winner} won")
    name = state.turn
    p = state.player(name)
    souls.gain(state, name, 1)
    if state.winner is not None:
        return
    for abom in state.abominations.values():
        if abom.owner == name:
            abom.tapped = False
    for card in p.mana:
        card.tapped = False
    first = state.first_turn and name == state.order[0]
    movement.draw(state, name, 1 if first else 2)
    effects.timed_abilities(state, "ready", player=name)


def end_turn(state: State, a: Args | None = None) -> None:
    if state.winner is not None:
        raise Illegal("game-over", f"the game is over: {state.winner} won")
    if state.combat is not None:
        combat.fight(state)
    effects.timed_abilities(state, "end_of_turn")
    for name in state.order:
        p = state.player(name)
        p.pool.clear()
        p.mana_added = False
    state.temporary.clear()
    for abom in state.abominations.values():
        abom.added = False
    state.turn = state.next_player(state.turn)
    state.first_turn = False
    if state.winner is None:
        ready(state)
