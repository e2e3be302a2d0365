"""Bombs: an item discarded, or a creature that gives itself, to kill every creature on the
spaces its text names, friend or foe (rule 3.9b). Setting one off is its squad's action."""

from __future__ import annotations

from typing import Any

from .. import death, hexes
from ..state import CONJURATION_DECKS, Illegal
from . import Resolution, effect

REACH = ("around", "one", "one-and-own")


def _check(value: Any) -> str | None:
    ok = (
        isinstance(value, dict)
        and value.get("reach") in REACH
        and set(value) <= {"reach", "called"}
    )
    return (
        None if ok else "{reach: around | one | one-and-own} (a creature: called: its short name)"
    )


def _wording(value: dict) -> list[str]:
    reach = value["reach"]
    if "called" in value:
        return [
            f"Bomb: as its Squad's action, the {value['called']} is discarded and every creature "
            "on one adjacent space dies"
        ]
    if reach == "around":
        return [
            "Bomb: discard it to kill every creature in its Squad's space and every space "
            "adjacent to it"
        ]
    if reach == "one-and-own":
        return [
            "Bomb: discard it to kill every creature in one space adjacent to its Squad, and "
            "every creature of its own Squad"
        ]
    return ["Bomb: discard it to kill every creature in one space adjacent to its Squad"]


def _spaces(done: Resolution, reach: str) -> set:
    here = done.squad.at  # type: ignore[union-attr]
    if reach == "around":
        return {here, *hexes.neighbours(here)}
    at = done.args.hex("at")
    if not hexes.adjacent(here, at):
        raise Illegal("not-adjacent", f"{list(at)} is not adjacent to {done.squad.key}")  # type: ignore[union-attr]
    return {at, here} if reach == "one-and-own" else {at}


def _detonate(done: Resolution, value: dict) -> None:
    state, squad, card = done.state, done.squad, done.card
    spaces = _spaces(done, value["reach"])
    if card in squad.items:  # type: ignore[union-attr]
        squad.items.remove(card)  # type: ignore[union-attr]
    else:
        squad.creatures.remove(card)  # type: ignore[union-attr]
    if card.deck in CONJURATION_DECKS:
        state.discards[card.deck].insert(0, card)
    else:
        state.box.append(card)
    for victim in list(state.squads.values()):
        if victim.at not in spaces or (victim.trapped and victim is not squad):
            continue  # trapped in a Collapse: immune (3.9b)
        mine = victim.owner == done.player
        death.kill_creatures(state, victim, list(victim.creatures), None if mine else done.player)
    if squad.key in state.squads and not squad.creatures:  # type: ignore[union-attr]
        death.kill_creatures(state, squad, [], None)  # type: ignore[arg-type]


effect(
    "bomb",
    kinds=("item", "creature"),
    clause="19.3a",
    role="the bomb",
    check=_check,
    wording=_wording,
    run=_detonate,
    when="use",
)
