"""Cards that put resources into the cave or on a squad's Control Card, or give back a dig's
Rock Markers."""

from __future__ import annotations

from typing import Any

from ..state import RESOURCES, ROCKS, ExampleError
from . import RESOURCE_NAMES, Resolution, effect, whole

PLACES = {
    "pits": "on every Spawn Pit, The Pit included",
    "the-pit": "on The Pit",
    "thronerooms": "on the Spawn Pit of each Throneroom",
}


def _check_place(value: Any) -> str | None:
    ok = (
        isinstance(value, list)
        and value
        and all(
            isinstance(v, dict)
            and set(v) == {"resource", "amount", "at"}
            and v["resource"] in RESOURCES
            and v["at"] in PLACES
            and whole(1, 9)(v["amount"]) is None
            for v in value
        )
    )
    return None if ok else ("a list of {resource, amount, at}, at one of " + ", ".join(PLACES))


def _place_text(value: list[dict]) -> list[str]:
    parts = [f"{v['amount']} {RESOURCE_NAMES[v['resource']]} {PLACES[v['at']]}" for v in value]
    return ["Place " + " and ".join(parts)]


def places(done: Resolution, where: str) -> list:
    cave = done.state.cave
    if where == "pits":
        found = sorted(cave.pits)
    elif where == "the-pit":
        found = [cave.the_pit] if cave.the_pit is not None else []
    else:
        found = sorted(getattr(cave, "thronerooms", set()))
    if not found:
        raise ExampleError(
            ("given", "cave"), f"{done.card.name} needs {PLACES[where][3:]}, which the cave lacks"
        )
    return found


def _place(done: Resolution, value: list[dict]) -> None:
    for part in value:
        for at in places(done, part["at"]):
            done.state.ground_at(at).resources[part["resource"]] += part["amount"]


effect(
    "place",
    kinds=("event",),
    clause="19.1b",
    role="the event that places resources",
    check=_check_place,
    wording=_place_text,
    run=_place,
)


def _check_gain(value: Any) -> str | None:
    ok = (
        isinstance(value, dict)
        and value
        and all(r in RESOURCES and whole(1, 9)(n) is None for r, n in value.items())
    )
    return None if ok else "{resource: amount}, such as {shadowflame: 5}"


def _gain(done: Resolution, value: dict) -> None:
    for r, n in value.items():
        done.squad.resources[r] += n  # type: ignore[union-attr]


effect(
    "gain",
    kinds=("spell",),
    clause="19.1b",
    role="the spell that gives resources",
    check=_check_gain,
    wording=lambda v: [
        "Put "
        + " and ".join(f"{n} {RESOURCE_NAMES[r]}" for r, n in v.items())
        + " on the caster's Control Card"
    ],
    run=_gain,
)


def _rocks_back(done: Resolution, n: int) -> None:
    for squad in done.state.squads.values():
        if squad.dig is not None:
            squad.dig.rocks = min(ROCKS, squad.dig.rocks + n)


effect(
    "rocks_back",
    kinds=("event",),
    clause="19.1d",
    role="the event that undoes digging",
    check=whole(1, 3),
    wording=lambda n: [
        f"Every Squad that has begun to dig puts {n} Rock Marker{'s' if n > 1 else ''} back on "
        "its Excavation card"
    ],
    run=_rocks_back,
    variables=lambda n: {"rocks_back": n},
)


def _species_gore(done: Resolution, value: dict) -> None:
    for squad in done.state.squads.values():
        if squad.owner is None:
            continue
        count = sum(value["species"] in c.species for c in squad.creatures)
        squad.resources[value["resource"]] += value["amount"] * count


def _check_species(value: Any) -> str | None:
    ok = (
        isinstance(value, dict)
        and set(value) == {"resource", "amount", "species"}
        and value["resource"] in RESOURCES
        and isinstance(value["species"], str)
        and whole(1, 9)(value["amount"]) is None
    )
    return None if ok else "{resource, amount, species}"


effect(
    "species_goods",
    kinds=("event",),
    clause="19.1b",
    role="the event that pays for a species",
    check=_check_species,
    wording=lambda v: [
        f"Each player places {v['amount']} {RESOURCE_NAMES[v['resource']]} on each of their "
        f"Control Cards for every {v['species']} in that Squad"
    ],
    run=_species_gore,
)


def _chosen(done: Resolution, n: int) -> None:
    resource = done.state.choices.take(
        "resource", f"the resource {done.card.name} gives", done.state.path
    )
    if resource not in RESOURCES:
        raise ExampleError(
            done.state.path, f"unknown resource '{resource}' (known: {', '.join(RESOURCES)})"
        )
    n_squad = done.state.n_squad(done.player)
    if n_squad is not None:
        n_squad.resources[resource] += n


effect(
    "chosen_resource",
    kinds=("event",),
    clause="19.1b",
    role="the event that gives a resource of the player's choice",
    check=whole(1, 9),
    wording=lambda n: [
        f"The current player takes {n} resource{'s' if n > 1 else ''} of their choice onto "
        "their N Squad"
    ],
    run=_chosen,
)
