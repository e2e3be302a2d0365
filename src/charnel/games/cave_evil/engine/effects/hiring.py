"""Cards that change a Hire: a spell that lets the caster's squad hire a Wandering Monster from
afar at half price, an item that takes Metals off the next Hire. What they grant lasts the
turn, kept in `state.marks` under (cycle, player, what, squad)."""

from __future__ import annotations

from typing import Any

from .. import hexes
from ..state import RESOURCES, Illegal, Squad, State
from . import (
    RESOURCE_NAMES,
    Resolution,
    effect,
    flag,
    hook,
    whole,
)


def _key(state: State, what: str, squad: Squad) -> tuple:
    return (state.cycle, state.turn, what, squad.key)


def _beckon(done: Resolution, reach: int) -> None:
    state = done.state
    monster = done.args.squad("target")
    if not monster.wandering or monster.protector:
        raise Illegal("not-wandering", f"{monster.key} is no Wandering Monster")
    far = hexes.distance(done.squad.at, monster.at)  # type: ignore[union-attr]
    if far > reach:
        raise Illegal(
            "out-of-range", f"{monster.key} is {far} spaces away; the spell reaches {reach}"
        )
    state.marks[_key(state, "beckoned", done.squad)] = monster.key  # type: ignore[arg-type]


effect(
    "beckon",
    kinds=("spell",),
    clause="19.12a",
    role="the spell that hires from afar",
    check=whole(1, 12),
    wording=lambda n: [
        f"Target a Wandering Monster within {n} spaces of the caster: the caster's Squad may "
        "Hire it this turn for half its cost, rounded up, without moving adjacent"
    ],
    run=_beckon,
)


def _haggle(done: Resolution, value: dict) -> None:
    state, squad = done.state, done.squad
    for r, n in value["pay"].items():
        if squad.resources[r] < n:  # type: ignore[union-attr]
            raise Illegal("cannot-pay", f"{done.card.name} asks {n} {r}")
    for r, n in value["pay"].items():
        squad.resources[r] -= n  # type: ignore[union-attr]
    key = _key(state, "discount", squad)  # type: ignore[arg-type]
    state.marks[key] = {r: state.marks.get(key, {}).get(r, 0) + n for r, n in value["less"].items()}


def _check_haggle(value: Any) -> str | None:
    ok = (
        isinstance(value, dict)
        and set(value) == {"pay", "less"}
        and all(
            isinstance(value[k], dict)
            and value[k]
            and all(r in RESOURCES and whole(1, 9)(n) is None for r, n in value[k].items())
            for k in ("pay", "less")
        )
    )
    return None if ok else "{pay: {metals: 2}, less: {metals: 2}}"


def _amounts(v: dict) -> str:
    return " and ".join(f"{n} {RESOURCE_NAMES[r]}" for r, n in v.items())


effect(
    "haggle",
    kinds=("item",),
    clause="19.12a",
    role="the item that lowers a Hire",
    check=_check_haggle,
    wording=lambda v: [
        f"Pay {_amounts(v['pay'])}: the next Hire its Squad makes this turn costs "
        f"{_amounts(v['less'])} less (never below 0)"
    ],
    run=_haggle,
    when="free",
)


@hook("may_hire_from_afar")
def may_hire_from_afar(state: State, squad: Squad, monster: Squad) -> bool:
    return state.marks.get(_key(state, "beckoned", squad)) == monster.key


@hook("hire_price")
def price(state: State, squad: Squad, monster: Squad, cost: dict[str, int]) -> dict[str, int]:
    """The Hire's cost after the cards: half, rounded up, for a beckoned monster; then the
    next-Hire discount, which is spent."""
    if may_hire_from_afar(state, squad, monster):
        cost = {r: (n + 1) // 2 for r, n in cost.items()}
    off = state.marks.pop(_key(state, "discount", squad), {})
    return {r: max(0, n - off.get(r, 0)) for r, n in cost.items()}


effect(
    "see_past_monsters",
    kinds=("creature",),
    clause="19.12c",
    role="the creature that sees past monsters",
    check=flag,
    wording=lambda v: ["Ability: its Squad's line of sight is not blocked by Wandering Monsters"],
)
