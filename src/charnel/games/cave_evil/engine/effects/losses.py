"""Cards that take from the squads: Gore lost from Control Cards, creatures lost to a roll."""

from __future__ import annotations

from typing import Any

from .. import death
from ..state import RESOURCES, SIZES, ExampleError
from . import RESOURCE_NAMES, Resolution, effect, whole

SIZE_NAMES = {"large": "Large", "medium": "Medium", "small": "Small", "trinket": "Trinket"}


def _check_loss(value: Any) -> str | None:
    ok = (
        isinstance(value, dict)
        and set(value) == {"resource", "amount", "sizes"}
        and value["resource"] in RESOURCES
        and whole(1, 9)(value["amount"]) is None
        and isinstance(value["sizes"], list)
        and value["sizes"]
        and all(s in SIZES for s in value["sizes"])
    )
    return None if ok else "{resource, amount, sizes: [small, trinket]}"


def _loss(done: Resolution, value: dict) -> None:
    for squad in done.state.squads.values():
        if squad.owner is None or not squad.creatures:
            continue
        if all(c.size in value["sizes"] for c in squad.creatures):
            r = value["resource"]
            squad.resources[r] = max(0, squad.resources[r] - value["amount"])


effect(
    "squad_loss",
    kinds=("event",),
    clause="19.1f",
    role="the event that takes from small squads",
    check=_check_loss,
    wording=lambda v: [
        "Each Squad made only of "
        + " and ".join(SIZE_NAMES[s] for s in v["sizes"])
        + f" creatures loses {v['amount']} {RESOURCE_NAMES[v['resource']]} from its Control "
        "Card, if it has any"
    ],
    run=_loss,
)

WHERE = {
    "pit-room": "Roll a D12 for each creature standing in The Pit room",
    "digger": "The excavating Squad's player rolls a D12 for each creature of that Squad",
}


def _check_roll(value: Any) -> str | None:
    ok = (
        isinstance(value, dict)
        and set(value) == {"where", "dies_on"}
        and value["where"] in WHERE
        and whole(1, 11)(value["dies_on"]) is None
    )
    return None if ok else "{where: pit-room, dies_on: n}"


def _on(n: int) -> str:
    return "on a 1" if n == 1 else "on " + ", ".join(str(i) for i in range(1, n)) + f" or {n}"


def _deadly_roll(done: Resolution, value: dict) -> None:
    state = done.state
    if value["where"] == "digger":
        from .event_spawns import digger

        hit = [digger(done)]
    else:
        room = state.cave.pit_room
        if not room:
            raise ExampleError(("given", "cave"), f"{done.card.name} needs the cave's pit_room")
        hit = [s for s in state.squads.values() if s.at in room]
    for squad in hit:
        dead = [
            c
            for c in list(squad.creatures)
            if state.dice.roll(12, f"{done.card.name}: {c.name}", state.path) <= value["dies_on"]
        ]
        if dead:
            death.kill_creatures(state, squad, dead, None)  # no Kill Points: to the box


effect(
    "deadly_roll",
    kinds=("event",),
    clause="19.1f",
    role="the event that kills on a roll",
    check=_check_roll,
    wording=lambda v: [
        f"{WHERE[v['where']]}: {_on(v['dies_on'])} it dies. No Kill Points are earned"
    ],
    run=_deadly_roll,
)
