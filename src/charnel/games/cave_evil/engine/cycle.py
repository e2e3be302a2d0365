"""Phases and the passing of time: moving from phase to phase, Phase 4 (the turn's Events,
module `events`), the end of a turn, the end of a Cycle
(the Blood Eye one space on; Reveal and Awaken), a Necromancer's death and the game's end."""

from __future__ import annotations

from . import events, obligations
from .args import Args
from .effects import evil
from .state import Illegal, State


def next_phase(state: State, args: Args) -> None:
    if state.phase == 2 and not state.conjured:
        raise Illegal("must-conjure", "Phase 2 is mandatory: conjure a card first")
    if state.phase >= 4:
        raise Illegal("wrong-phase", "Phase 4 is the last; end the turn")
    if state.phase == 1:
        obligations.must_fight(state, state.turn)
    state.phase += 1
    if state.phase == 4:
        events.carry_out(state, args)


def end_turn(state: State, args: Args) -> None:
    if state.phase < 4 and state.players[state.turn].events:
        state.phase = 4
        events.carry_out(state, args)
    elif state.phase == 2 and not state.conjured:
        raise Illegal("must-conjure", "Phase 2 is mandatory: conjure a card first")
    _reveal_awaken(state)
    for squad in state.squads.values():
        squad.visited, squad.stopped, squad.one_step = set(), False, None
        if squad.dig is not None:
            squad.dig.begun_turn = False
        for c in squad.creatures:
            c.spent, c.acted, c.halted, c.invoked = 0, False, False, False
    player = state.players[state.turn]
    player.necromancer_moved = player.meditating = False
    player.invoked_into, player.moved_after_invoke, player.invoked_spells = set(), set(), []
    player.n_action = None
    state.obliged = set()
    state.conjured = False
    alive = [p for p in state.order if not state.players[p].out]
    if not alive:
        return
    i = state.order.index(state.turn)
    nxt = None
    for step in range(1, len(state.order) + 1):
        cand = state.order[(i + step) % len(state.order)]
        if not state.players[cand].out:
            nxt = cand
            wrapped = (i + step) >= len(state.order)
            break
    if wrapped:
        end_cycle(state)
    state.turn = nxt
    state.phase = 1


def end_cycle(state: State) -> None:
    longer = "longer-game" in state.advanced
    stopped = state.awakened and evil.has(state, "stops_track") is not None
    if not stopped and not (longer and state.invoked_creatures_cycle):
        state.blood_eye += 1
    state.invoked_creatures_cycle = 0
    _reveal_awaken(state)  # in the cycle that ends: it awakens before the next one begins
    state.cycle += 1


def _reveal_awaken(state: State) -> None:
    if state.reveal_at is not None and state.blood_eye >= state.reveal_at:
        if not state.revealed:
            state.revealed = True
            evil.revealed(state)
    if state.awaken_at is not None and state.blood_eye >= state.awaken_at:
        if not state.awakened:
            state.marks["awakened in cycle"] = state.cycle
        state.revealed = state.awakened = True
    if (
        state.track_length
        and state.reveal_at is not None
        and state.blood_eye >= state.track_length + state.reveal_at
        and evil.has(state, "doom") is not None
        and state.winner is None
    ):
        state.everyone_lost = True
        for p in state.players.values():
            p.out = True
