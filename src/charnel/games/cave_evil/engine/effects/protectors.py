"""Protectors (advanced, rule 18.9): drawn when a Shrine or Temple is dug, they guard its
Spawn Pit. What wakes each one is its card's `guard`; the `protector_attacks` step carries out
the attack it starts, refused unless the trigger holds: the Protector is the attacker, returns
to its pit after winning, and killing it gives Wandering Kill Points (ruling 18.9h)."""

from __future__ import annotations

from typing import Any  # noqa: F401

from .. import death, hexes, spawn
from ..state import ExampleError, Illegal, Squad, State
from . import effect, flag, hook, whole

TRIGGERS = ("adjacent", "pick_up", "sight", "spellcaster", "ends_move")


def _check(value: Any) -> str | None:
    ok = (
        isinstance(value, dict)
        and value.get("trigger") in TRIGGERS
        and set(value) <= {"trigger", "range"}
    )
    if ok and value["trigger"] in ("sight", "spellcaster", "ends_move"):
        ok = whole(1, 12)(value.get("range")) is None
    return None if ok else f"{{trigger: {' | '.join(TRIGGERS)}, range: n}}"


def _wording(value: dict) -> list[str]:
    n = value.get("range")
    return [
        {
            "adjacent": "Protector: when a Squad becomes adjacent to its Spawn Pit, it attacks "
            "that Squad",
            "pick_up": "Protector: when a Squad picks up anything from its Spawn Pit or a space "
            "adjacent to it, it attacks that Squad",
            "sight": f"Protector: when a Squad moves into its line of sight within {n} spaces, it "
            "attacks that Squad",
            "spellcaster": f"Protector: when a Spellcaster comes within {n} spaces of its Spawn "
            "Pit, it attacks that Spellcaster's Squad from range",
            "ends_move": f"Protector: when a Squad ends its move within {n} spaces of its Spawn "
            "Pit, it moves to that Squad and attacks it",
        }[value["trigger"]]
    ]


effect(
    "guard",
    kinds=("protector",),
    clause="19.6b",
    role="the Protector",
    check=_check,
    wording=_wording,
    variables=lambda v: {"guard_range": v.get("range", 1)},
)


@hook("protector_arrives")
def arrive(state: State, pit: hexes.Hex) -> None:
    """The top Protector card takes the new Spawn Pit; a Wandering Monster spawned there moves
    beside it, where the digging player chooses (18.9c)."""
    deck = state.decks.get("protector") or []
    if not deck:
        raise ExampleError(
            ("given", "decks"), "a Protector is drawn, but the protector deck is empty"
        )
    card = deck.pop(0)
    there = state.occupant(pit)
    if there is not None:
        there.at = spawn.free_space_beside(state, pit, f"{there.key} makes way for the Protector")
    label = next(f"P{n}" for n in range(1, 99) if f"P{n}" not in state.squads)
    state.squads[label] = Squad(None, label, at=pit, creatures=[card], protector=True)


def _home(state: State, squad: Squad) -> hexes.Hex:
    pits = sorted(state.cave.pits, key=lambda h: hexes.distance(h, squad.at))
    if not pits:
        raise ExampleError(("given", "cave"), f"{squad.key} guards no Spawn Pit (give cave.pits)")
    return pits[0]


def attacks(state: State, args: Any) -> None:
    """The `protector_attacks` step: {protector, target, first, to}."""
    from .. import combat, sides
    from ..battle import sight

    guard_squad = args.squad("protector")
    if not guard_squad.protector:
        raise Illegal("not-a-protector", f"{guard_squad.key} is no Protector")
    card = guard_squad.creatures[0]
    guards = card.ability("guard")
    if not guards:
        raise Illegal("no-trigger", f"{card.name} has no Protector ability")
    guard = guards[0]
    pit = getattr(guard_squad, "home", None) or _home(state, guard_squad)
    guard_squad.home = pit
    target = args.squad("target")
    reach, on = guard.get("range", 1), guard["trigger"]
    held = {
        "adjacent": lambda: hexes.adjacent(target.at, pit),
        "sight": lambda: (
            hexes.distance(guard_squad.at, target.at) <= reach
            and sight(state, guard_squad.at, target.at)
        ),
        "spellcaster": lambda: (
            any(c.spellcaster for c in target.creatures) and hexes.distance(pit, target.at) <= reach
        ),
        "ends_move": lambda: hexes.distance(pit, target.at) <= reach,
        "pick_up": lambda: _picked_near(state, target, pit),
    }[on]()
    if not held:
        raise Illegal("not-triggered", f"nothing {target.key} did wakes {card.name}")
    if on == "ends_move":
        to = args.hex("to")
        if not hexes.adjacent(to, target.at) or state.occupant(to) not in (None, guard_squad):
            raise Illegal("no-room", f"{hexes.show(to)} is no free space beside {target.key}")
        guard_squad.at = to
    record = combat.run_fight(
        state,
        [sides.party(guard_squad)],
        [sides.party(target)],
        args.attribute("first"),
        "ranged" if on == "spellcaster" else "combat",
        ranged=on == "spellcaster",
    )
    record.attacker, record.defender = [guard_squad.key], [target.key]
    state.fights.append(record)
    if record.winner == "attacker":
        record.killed = [target.key]
        death.kill(state, target, None)
        guard_squad.at = pit  # back to its pit after winning
    else:
        record.killed = [guard_squad.key]
        death.kill(state, guard_squad, target.owner)


def picked_up(state: State, squad: Squad, where: hexes.Hex) -> None:
    """Remember where a squad picked something up this turn (an Ossuary Keeper wakes)."""
    state.marks.setdefault(("picked up", state.cycle, state.turn, squad.key), set()).add(where)


def _picked_near(state: State, squad: Squad, pit: hexes.Hex) -> bool:
    spots = state.marks.get(("picked up", state.cycle, state.turn, squad.key), set())
    return any(h == pit or hexes.adjacent(h, pit) for h in spots)


effect(
    "carry_more",
    kinds=("protector", "creature"),
    clause="19.6c",
    role="the subdued Protector that carries more",
    check=whole(1, 9),
    wording=lambda n: [f"Subdued: its Squad may carry {n} more Item{'s' if n > 1 else ''}"],
    variables=lambda n: {"carry_more": n},
)
effect(
    "survives_once",
    kinds=("protector", "creature"),
    clause="19.6c",
    role="the subdued Protector that survives a lost Combat",
    check=flag,
    wording=lambda v: [
        "Subdued: once, when her Squad loses a Combat, she alone survives",
        "Subdued: once, when its Squad loses a Combat, it alone survives",
    ],
)


@hook("spared")
def spared(state: State, losers: list[Squad]) -> list[tuple[Squad, Any]]:
    """Before a lost Combat's deaths: take out of each losing player's squad the subdued
    creature that survives once, unused (the others die as usual)."""
    out = []
    for squad in losers:
        if squad.owner is None or not squad.protector:  # not subdued: no subdued ability
            continue
        for card in squad.creatures:
            key = ("survived", id(card))
            if card.ability("survives_once") and key not in state.marks:
                state.marks[key] = True
                squad.creatures.remove(card)
                out.append((squad, card))
                break
    return out


@hook("restore_spared")
def restore(state: State, saved: list[tuple[Squad, Any]]) -> None:
    """After the deaths: the survivor stands alone on her squad's Control Card and space."""
    for squad, card in saved:
        squad.creatures.append(card)
        state.squads[squad.key] = squad


effect(
    "calm_monsters",
    kinds=("protector", "creature"),
    clause="19.6d",
    role="the subdued Protector that spares its squad the monsters' Phase 1 Combat",
    check=flag,
    wording=lambda v: [
        "Subdued: its Squad may not be attacked in Phase 1 by Wandering Monsters' Squads it is "
        "adjacent to"
    ],
)
