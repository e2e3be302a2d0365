"""Events that move Wandering Monsters, or every squad, some spaces toward or away from a
place. The current player chooses each path (rule 14.1f) as a scripted `path` choice, one per
mover in turn; the engine holds it to the card: every step is open, empty and one space nearer
the goal (or farther from The Pit), and it stops only when it must: at the count, beside a
player's squad (13.2), or with no such step left."""

from __future__ import annotations

from typing import Any

from .. import hexes, squads
from ..state import ExampleError, Illegal, Squad
from . import Resolution, effect, whole
from .event_spawns import digger
from .goods import places

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
    path = state.choices.take_path("path", f"the path {mover.key} takes", state.path)
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

    def options(at: hexes.Hex) -> list[hexes.Hex]:
        return [h for h in hexes.neighbours(at) if _free(done, mover, h) and farther(at, h)]

    if not options(mover.at):
        return
    path = state.choices.take_path("path", f"the path {mover.key} is blown along", state.path)
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


def _spawned_march(done: Resolution, value: dict) -> None:
    """The creature the card's own Spawn Roll just made, if any, moves toward the goal."""
    state = done.state
    made = state.spawned[-1] if state.spawned else {}
    mover = state.squads.get(made.get("monster", ""))
    if mover is None:
        return
    goals = _goals(done, mover, value["goal"])
    if not goals:
        return
    steps = state.dice.roll(4, f"{done.card.name}: how far {mover.key} moves", state.path)

    def nearer(a, b):
        return any(hexes.distance(b, g) == hexes.distance(a, g) - 1 for g in goals)

    walk(done, mover, steps, nearer)


effect(
    "spawned_march",
    kinds=("event",),
    clause="19.9a",
    role="the event whose spawned creature moves",
    check=lambda v: (
        None
        if isinstance(v, dict) and v.get("goal") in GOALS and v.get("steps") == "d4"
        else "{goal: nearest, steps: d4}"
    ),
    wording=lambda v: [f"A creature so spawned moves D4 spaces toward {GOALS[v['goal']]}"],
    run=_spawned_march,
)


def _river(done: Resolution, steps: int) -> None:
    state = done.state
    pit = places(done, "the-pit")[0]
    for mover in [s for s in state.squads.values() if s.owner is not None]:
        if mover.at not in state.cave.tunnels:
            continue

        def nearer(a, b):
            return hexes.distance(b, pit) == hexes.distance(a, pit) - 1

        _blown(done, mover, steps, nearer)


effect(
    "river",
    kinds=("event",),
    clause="19.9c",
    role="the event that carries squads toward The Pit",
    check=whole(1, 3),
    wording=lambda n: [
        f"Every Squad standing on a Tunnel moves {n} space{'s' if n > 1 else ''}, chosen by the "
        "current player, toward The Pit"
    ],
    run=_river,
)


def _romance(done: Resolution, reach: int) -> None:
    state = done.state
    chosen = state.choices.take("monsters", "the two Wandering Monsters drawn together", state.path)
    pair = [state.squads.get(str(k)) for k in (chosen if isinstance(chosen, list) else [])]
    if len(pair) != 2 or any(m is None or not m.wandering or m.protector for m in pair):
        raise ExampleError(state.path, "choose two Wandering Monsters by their markers")
    still, mover = sorted(pair, key=lambda m: m.label)  # type: ignore[union-attr]
    if hexes.distance(still.at, mover.at) > reach:
        raise Illegal("out-of-range", f"{mover.key} and {still.key} are more than {reach} apart")
    fits = squads.fits(still.creatures + mover.creatures)

    def nearer(a, b):
        return hexes.distance(b, still.at) == hexes.distance(a, still.at) - 1 and b != still.at

    if not hexes.adjacent(mover.at, still.at):
        at = mover.at
        for h in state.choices.take_path("path", f"the path {mover.key} takes", state.path):
            if not (_free(done, mover, h) and nearer(at, h)):
                raise Illegal("off-course", f"{hexes.show(h)} is no step toward {still.key}")
            at = h
        if not hexes.adjacent(at, still.at):
            raise Illegal("too-short", f"{mover.key} must come beside {still.key}")
        mover.at = at
    if fits:
        still.creatures += mover.creatures
        state.ground_at(mover.at).items.extend(mover.items)
        del state.squads[mover.key]


effect(
    "romance",
    kinds=("event",),
    clause="19.9d",
    role="the event that draws two monsters together",
    check=whole(1, 12),
    wording=lambda n: [
        f"The current player chooses two Wandering Monsters within {n} spaces of each other: "
        "they move to each other and form one Wandering squad if that is legal, or stand "
        "adjacent if it is not"
    ],
    run=_romance,
)
