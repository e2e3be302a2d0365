"""Phases and the passing of time: moving from phase to phase, Phase 4 (each Event drawn
this turn, in order: its Spawn Rolls, then the box), the end of a turn, the end of a Cycle
(the Blood Eye one space on; Reveal and Awaken), a Necromancer's death and the game's end."""

from __future__ import annotations

from charnel.games.cave_evil.engine import conjure, effects, hexes, spawn
from charnel.games.cave_evil.engine.args import Args
from charnel.games.cave_evil.engine.effects import evil
from charnel.games.cave_evil.engine.state import ExampleError, Illegal, State


def next_phase(state: State, args: Args) -> None:
    if state.phase == 2 and not state.conjured:
        raise Illegal("must-conjure", "Phase 2 is mandatory: conjure a card first")
    if state.phase >= 4:
        raise Illegal("wrong-phase", "Phase 4 is the last; end the turn")
    if state.phase == 1:
        conjure.must_fight(state, state.turn)
    state.phase += 1
    if state.phase == 4:
        events(state, args)


def events(state: State, args: Args) -> None:
    """Phase 4: the turn's Events in the order drawn."""
    player = state.players[state.turn]
    while player.events:
        card = player.events.pop(0)
        for spec in card.spawn:
            _event_spawn(state, args, card, spec)
        effects.resolve(state, args, card, None, state.turn)
        state.box.append(card)


def _event_spawn(state: State, args: Args, card, spec) -> None:
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


def end_turn(state: State, args: Args) -> None:
    if state.phase < 4 and state.players[state.turn].events:
        state.phase = 4
        events(state, args)
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
        state.revealed = True
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
