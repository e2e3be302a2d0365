"""Events that move Wandering Monsters, or every squad, some spaces toward or away from a
place. The current player chooses each path (rule 14.1f) as a scripted `path` choice, one per
mover in turn; the engine holds it to the card: every step is open, empty and one space nearer
the goal (or farther from The Pit), and it stops only when it must: at the count, beside a
player's squad (13.2), or with no such step left."""

from __future__ import annotations

from typing import Any

from charnel.games.cave_evil.engine import hexes, squads
from charnel.games.cave_evil.engine.effects import Resolution, effect, whole
from charnel.games.cave_evil.engine.effects.event_spawns import digger
from charnel.games.cave_evil.engine.effects.goods import places
from charnel.games.cave_evil.engine.state import ExampleError, Illegal, Squad

GOALS = {
    "nearest": "the nearest player's Squad",
    "most-gore": "the Squad with the most Gore on its Control Card",
    "digger": "the Squad that finished this excavation",
}


def _players(done: Resolution) -> list[Squad]:
    return [s for s in done.state.squads.values() if s.owner is not None and s.at is not None]


def _goals(done: Resolution, mover: Squad, goal: str) -> list[hexes.Hex]:
    mine = _players(done)
    if goal == "digger":
        return [digger(done).at]
    if goal == "most-gore":
        most = max((s.resources["gore"] for s in mine), default=0)
        return [s.at for s in mine if s.resources["gore"] == most]
    near = min((hexes.distance(mover.at, s.at) for s in mine), default=None)
    return [s.at for s in mine if hexes.distance(mover.at, s.at) == near]


def _free(done: Resolution, mover: Squad, h: hexes.Hex) -> bool:
    state = done.state
    return state.cave.is_open(h) and state.occupant(h) in (None, mover)


def _beside_player(done: Resolution, mover: Squad, h: hexes.Hex) -> bool:
    return any(hexes.adjacent(h, s.at) for s in _players(done) if s is not mover)


def walk(done: Resolution, mover: Squad, steps: int, nearer) -> None:
    """Move `mover` along the scripted path; `nearer(a, b)`: b is one step on from a."""
    state = done.state

    def options(at: hexes.Hex) -> list[hexes.Hex]:
        return [h for h in hexes.neighbours(at) if _free(done, mover, h) and nearer(at, h)]

    if not steps or not options(mover.at) or _beside_player(done, mover, mover.at):
        return
    written = state.choices.take("path", f"the path {mover.key} takes", state.path)
    if not isinstance(written, list):
        raise ExampleError(state.path, "a path is a list of hexes")
    try:
        path = [hexes.parse(h) for h in written]
    except ValueError as exc:
        raise ExampleError(state.path, str(exc)) from None
    at = mover.at
    for n, h in enumerate(path):
        if n >= steps or _beside_player(done, mover, at) and n:
            raise Illegal("too-far", f"{mover.key} moves no farther than {hexes.show(at)}")
        if h not in options(at):
            raise Illegal("off-course", f"{hexes.show(h)} is no open step on from {hexes.show(at)}")
        at = h
    if len(path) < steps and options(at) and not _beside_player(done, mover, at):
        raise Illegal("too-short", f"{mover.key} must go on from {hexes.show(at)}")
    mover.at = at


def _toward(done: Resolution, value: dict) -> None:
    state = done.state
    movers = [s for s in state.squads.values() if s.wandering and not s.protector]
    for mover in sorted(movers, key=lambda s: s.label):
        goals = _goals(done, mover, value["goal"])
        if not goals:
            continue
        steps = squads.rate(mover) if value["steps"] == "full" else value["steps"]

        def nearer(a, b, goals=goals):
            return any(hexes.distance(b, g) == hexes.distance(a, g) - 1 for g in goals)

        walk(done, mover, steps, nearer)


def _check_toward(value: Any) -> str | None:
    ok = (
        isinstance(value, dict)
        and set(value) == {"goal", "steps"}
        and value["goal"] in GOALS
        and (value["steps"] == "full" or whole(1, 12)(value["steps"]) is None)
    )
    return None if ok else f"{{goal: {' | '.join(GOALS)}, steps: n | full}}"


def _toward_text(value: dict) -> list[str]:
    how = (
        "moves its full movement"
        if value["steps"] == "full"
        else f"moves {value['steps']} space{'s' if value['steps'] > 1 else ''}"
    )
    return [f"Every Wandering Monster {how} toward {GOALS[value['goal']]}"]


effect(
    "monsters_march",
    kinds=("event",),
    clause="19.9a",
    role="the event that moves the Wandering Monsters",
    check=_check_toward,
    wording=_toward_text,
    run=_toward,
)


def _blow(done: Resolution, value: Any) -> None:
    state = done.state
    pit = places(done, "the-pit")[0]
    for mover in list(state.squads.values()):
        if mover.at is None or mover.at in state.cave.lair or mover.protector:
            continue
        steps = state.dice.roll(4, f"{done.card.name}: how far {mover.key} is blown", state.path)

        def farther(a, b):
            return hexes.distance(b, pit) == hexes.distance(a, pit) + 1

        _blown(done, mover, steps, farther)


def _blown(done: Resolution, mover: Squad, steps: int, farther) -> None:
    """As `walk`, but a squad beside an enemy is blown on all the same."""
    state = done.state
    options = lambda at: [h for h in hexes.neighbours(at) if _free(done, mover, h) and farther(at, h)]  # noqa: E731
    if not options(mover.at):
        return
    written = state.choices.take("path", f"the path {mover.key} is blown along", state.path)
    try:
        path = [hexes.parse(h) for h in written]
    except (ValueError, TypeError) as exc:
        raise ExampleError(state.path, str(exc)) from None
    at = mover.at
    for n, h in enumerate(path):
        if n >= steps or h not in options(at):
            raise Illegal("off-course", f"{mover.key} cannot be blown to {hexes.show(h)}")
        at = h
    if len(path) < steps and options(at):
        raise Illegal("too-short", f"{mover.key} is blown on from {hexes.show(at)}")
    mover.at = at


effect(
    "blow_away",
    kinds=("event",),
    clause="19.9b",
    role="the event that blows everything away from The Pit",
    check=lambda v: None if v == 4 else "4 (a D4)",
    wording=lambda v: [
        "Every Squad and Wandering Monster outside a Lair is blown D4 spaces straight away from "
        "The Pit, stopping before any undug area or occupied space"
    ],
    run=_blow,
)
