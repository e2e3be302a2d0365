"""The Awakening Evil cards' own texts: what happens when one is revealed or awakens and how
it is beaten. The engine reads them from the card in play (`state.awakening`), not from its
name: the track stopping, the destruction at the second Reveal, the race to The Pit."""

from __future__ import annotations

from typing import Any

from charnel.games.cave_evil.engine.effects import effect, flag
from charnel.games.cave_evil.engine.state import Card, ExampleError, State


def card(state: State) -> Card | None:
    """The Awakening Evil card in play, if any (built once per state)."""
    if not state.awakening:
        return None
    key = ("awakening card", state.awakening)
    if key not in state.marks:
        try:
            state.marks[key] = state.cards.make(state.awakening, ("given", "awakening", "card"))
        except (ExampleError, AttributeError):
            state.marks[key] = None
    return state.marks[key]


def has(state: State, ability: str) -> Any:
    evil = card(state)
    found = evil.ability(ability) if evil is not None else []
    return found[0] if found else None


effect(
    "reveal_nothing",
    kinds=("awakening-evil",),
    clause="19.13a",
    role="the Awakening Evil whose reveal does nothing",
    check=flag,
    wording=lambda v: ["Nothing happens"],
    variables=lambda v: {"reveal_nothing": v},
)
effect(
    "stops_track",
    kinds=("awakening-evil",),
    clause=("17.2b", "17.5b"),  # their examples: the track stops
    role="the Awakening Evil that stops the track",
    check=flag,
    wording=lambda v: [
        "The Blood Eye no longer advances",
        "Put its marker on The Pit; the Blood Eye no longer advances",
    ],
)
DOOM = {
    "necromancers": "If nobody has done so when the Blood Eye reaches the Reveal icon a second "
    "time, every Necromancer is destroyed",
    "everyone": "If the Blood Eye reaches the Reveal icon a second time, everyone is destroyed",
}
effect(
    "doom",
    kinds=("awakening-evil",),
    clause=("16.1j", "19.13a"),
    role="the Awakening Evil that destroys everyone at the second Reveal",
    check=lambda v: None if v in DOOM else f"one of {', '.join(DOOM)}",
    wording=lambda v: [DOOM[v]],
)
effect(
    "kneel",
    kinds=("awakening-evil",),
    clause="17.3c",
    role="the evil that blesses a kneeling necromancer",
    check=lambda v: None if isinstance(v, int) and v > 0 else "the Enemy Kill Points it asks",
    wording=lambda n: [
        f"A player with {n} Enemy Kill Points whose Necromancer moves adjacent to it and kneels "
        "wins"
    ],
)
effect(
    "asleep",
    kinds=("awakening-evil",),
    clause="19.13e",
    role="the evil nobody may fight before it awakens",
    check=flag,
    wording=lambda v: [
        "Nobody may fight it yet, and moving next to it does not stop a Squad",
        "Nobody may fight it, and moving next to it does not stop a Squad",
    ],
)


def revealed(state: State) -> None:
    """An evil put on The Pit when revealed: whatever stands there moves to a free space
    beside it, where the current player chooses (`spawn_at`)."""
    from charnel.games.cave_evil.engine import hexes
    from charnel.games.cave_evil.engine.state import Illegal

    pit = state.cave.the_pit
    if has(state, "on_the_pit") is None or pit is None:
        return
    there = state.occupant(pit)
    if there is None:
        return
    to = hexes.parse(state.choices.take("spawn_at", f"where {there.key} makes way", state.path))
    if not hexes.adjacent(to, pit) or state.occupant(to) is not None or not state.cave.is_open(to):
        raise Illegal("no-room", f"{hexes.show(to)} is no free open space beside The Pit")
    there.at = to


effect(
    "on_the_pit",
    kinds=("awakening-evil",),
    clause="19.13e",
    role="the evil put on The Pit when revealed",
    check=flag,
    wording=lambda v: ["Put it on The Pit (anything there moves to adjacent spaces)"],
)
effect(
    "pit_race",
    kinds=("awakening-evil",),
    clause=("17.1c", "19.13a"),
    role="the Awakening Evil won by reaching The Pit",
    check=flag,
    wording=lambda v: [
        "Put its marker on The Pit. From the next cycle on, the first Necromancer to move onto "
        "The Pit wins"
    ],
)
effect(
    "pit_leap",
    kinds=("awakening-evil",),
    clause="17.1c",
    role="the Awakening Evil won by leaping into The Pit",
    check=flag,
    wording=lambda v: [
        "Move your Necromancer onto The Pit: enemies and Wandering Monsters adjacent to it do "
        "not stop that last step, and no Combat is needed"
    ],
)
