"""The Awakening Evil cards' own texts: what happens when one is revealed or awakens and how
it is beaten. The engine reads them from the card in play (`state.awakening`), not from its
name: the track stopping, the destruction at the second Reveal, the race to The Pit."""

from __future__ import annotations

from typing import Any

from ..state import Card, ExampleError, State
from . import effect, flag


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
    clause="19.13f",
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
    from .. import spawn

    pit, put = state.cave.the_pit, has(state, "on_the_pit")
    if put is None or pit is None or (put == "advanced" and not state.advanced):
        return  # beginners leave the Statue off the map
    there = state.occupant(pit)
    if there is None:
        return
    there.at = spawn.free_space_beside(state, pit, f"where {there.key} makes way")


effect(
    "on_the_pit",
    kinds=("awakening-evil",),
    clause="19.13f",
    role="the evil put on The Pit when revealed",
    check=lambda v: None if v in (True, "advanced") else "true, or advanced (advanced game only)",
    wording=lambda v: (
        ["Advanced game only: put it on The Pit"]
        if v == "advanced"
        else ["Put it on The Pit (anything there moves to adjacent spaces)"]
    ),
)
effect(
    "offering",
    kinds=("awakening-evil",),
    clause=("17.4b", "17.4c"),
    role="the evil bathed in Kill Points",
    check=lambda v: None if isinstance(v, int) and v > 0 else "the Kill Points it asks",
    wording=lambda n: [
        f"A Necromancer adjacent to it may discard Kill Point cards worth {n} or more to make it "
        "attack, at range, the first Squad or Wandering Monster along a path the player chooses"
    ],
)
effect(
    "no_kill_points",
    kinds=("awakening-evil",),
    clause=("17.4b", "17.4c"),
    role="the evil whose kills earn nothing",
    check=flag,
    wording=lambda v: ["Nobody earns Kill Points from its stare"],
)
effect(
    "awake_fight",
    kinds=("awakening-evil",),
    clause="19.13g",
    role="the evil fought with everything once awake",
    check=flag,
    wording=lambda v: [
        "No more offerings: players may fight it, with all Items, Spells and abilities, "
        "once-per-game abilities included"
    ],
)
effect(
    "glowing_eyes",
    kinds=("awakening-evil",),
    clause="19.13g",
    role="the evil that leaves its Eyes",
    check=lambda v: None if isinstance(v, int) and v >= 0 else "the Gore it leaves",
    wording=lambda n: [f"Kill it: its Glowing Eyes marker and {n} Gore stay on The Pit"],
)
effect(
    "eyes_race",
    kinds=("awakening-evil",),
    clause="19.13g",
    role="the evil whose Eyes win the race home",
    check=flag,
    wording=lambda v: [
        "The first Squad to carry the Eyes onto its own Chthonic Crystal wins (no once-per-game "
        "ability that turn)"
    ],
)
EYES = "Glowing Eyes"
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


effect(
    "hunts_weakest",
    kinds=("awakening-evil",),
    clause="17.2g",
    role="the evil that comes for the weakest necromancer",
    check=flag,
    wording=lambda v: [
        "At the start of each cycle she appears adjacent to the Necromancer with the fewest Enemy "
        "Kill Points (ties: each rolls a D12, lowest is chosen) and fights its whole N Squad"
    ],
)
effect(
    "n_squad_only",
    kinds=("awakening-evil",),
    clause="17.2g",
    role="the evil only the N squad fights",
    check=flag,
    wording=lambda v: [
        "She cannot be flanked; only the N Squad's creatures fight her, without Items or Spells; "
        "combat abilities count, once-per-game abilities do not"
    ],
)
effect(
    "beaten_by_n",
    kinds=("awakening-evil",),
    clause="17.2g",
    role="the evil beaten by an N squad",
    check=flag,
    wording=lambda v: ["Beat her in Combat with your N Squad"],
)
