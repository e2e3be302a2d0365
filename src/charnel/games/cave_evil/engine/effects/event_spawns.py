"""Events whose Spawn Rolls land somewhere other than every Spawn Pit: The Pit and the
Thronerooms, beside squads, a counted number of spaces from The Pit (counted as every Event
counts, `events.spawn_counted`). A space the rules leave to a player is a scripted `spawn_at`
choice, checked."""

from __future__ import annotations

from typing import Any

from .. import death, events, hexes, spawn
from ..state import Illegal
from . import Resolution, effect, whole
from .goods import places

WHERE = {
    "the-pit": "at The Pit",
    "pit-and-thronerooms": "at The Pit and at the Spawn Pit of every Throneroom",
    "each-throneroom": "and places the result on the Spawn Pit of each Throneroom",
    "beside-leader-squads": "for a space adjacent to each of their Squads other than the N Squad",
    "d12-from-pit": "and places each result D12 spaces from The Pit, on an explored space",
    "beside-digger": "on an explored space adjacent to the excavating Squad",
}
ROLL_NAMES = {"regular": "regular Spawn Roll", "resource": "Resource Spawn Roll"}
COUNTS = {1: "a", 2: "two", 3: "three"}


def _check(value: Any) -> str | None:
    ok = (
        isinstance(value, dict)
        and value.get("roll") in ROLL_NAMES
        and value.get("at") in WHERE
        and set(value) <= {"roll", "at", "times"}
        and whole(1, 3)(value.get("times", 1)) is None
    )
    return None if ok else f"{{roll: regular | resource, at: {' | '.join(WHERE)}, times: n}}"


def _wording(value: dict) -> list[str]:
    n = value.get("times", 1)
    roll = ROLL_NAMES[value["roll"]]
    rolls = f"{COUNTS[n]} {roll}{'s' if n > 1 else ''}"
    who = (
        "The player with the most Enemy Kill Points"
        if value["at"] == "beside-leader-squads"
        else "The current player"
    )
    return [f"{who} makes {rolls} {WHERE[value['at']]}"]


def _space(done: Resolution, why: str, ok) -> hexes.Hex:
    state = done.state
    at = state.choices.take_hex("spawn_at", why, state.path)
    if not state.cave.is_open(at) or not ok(at):
        raise Illegal("not-there", f"{hexes.show(at)} is not {why}")
    return at


def digger(done: Resolution):
    key = done.state.dug_by.get(id(done.card))
    squad = done.state.squads.get(key) if key else None
    if squad is None:
        raise Illegal("no-digger", f"{done.card.name} was turned up by no squad still in play")
    return squad


def _spawn(done: Resolution, value: dict) -> None:
    state, kind, where = done.state, value["roll"], value["at"]
    for _ in range(value.get("times", 1)):
        if where == "the-pit":
            spawn.roll(state, kind, places(done, "the-pit")[0])
        elif where == "pit-and-thronerooms":
            for at in places(done, "the-pit") + places(done, "thronerooms"):
                spawn.roll(state, kind, at)
        elif where == "each-throneroom":
            first, *rest = places(done, "thronerooms")
            made = spawn.roll(state, kind, first)
            for at in rest:
                if "resource" in made:
                    state.ground_at(at).resources[made["resource"]] += made["amount"]
                    state.spawned.append({**made, "at": hexes.show(at)})
        elif where == "beside-leader-squads":
            who = death.by_enemy_points(state)
            for squad in [s for s in state.squads_of(who) if s.label != "N"]:
                at = _space(
                    done, f"a space beside {squad.key}", lambda h, s=squad: hexes.adjacent(h, s.at)
                )
                spawn.roll(state, kind, at)
        elif where == "d12-from-pit":
            events.spawn_counted(state, done.card, kind, {"from": "the-pit", "spaces": "d12"})
        else:
            squad = digger(done)
            at = _space(
                done,
                f"an explored space beside {squad.key}",
                lambda h, s=squad: hexes.adjacent(h, s.at),
            )
            spawn.roll(state, kind, at)


effect(
    "spawn_where",
    kinds=("event",),
    clause=("19.8a", "19.9a"),
    role="the event that spawns in named places",
    check=_check,
    wording=_wording,
    run=_spawn,
)
