"""Spells that act on one target: an item lying in the cave, a creature in a discard pile, a
squad in sight, a deck. The step that casts names the target (`target`, `at`, `take`); what the
rules leave to a player is a scripted choice."""

from __future__ import annotations

from typing import Any

from .. import death, hexes, squads
from ..state import CONJURATION_DECKS, Illegal
from . import (
    DECK_NAMES,
    Resolution,
    effect,
    flag,
    hook,
    whole,
)


def find_card(*args: Any) -> Any:
    from ..args import find_card as find

    return find(*args)


def _within(done: Resolution, at: hexes.Hex, reach: int, what: str) -> None:
    far = hexes.distance(done.squad.at, at)  # type: ignore[union-attr,arg-type]
    if far > reach:
        raise Illegal(
            "out-of-range",
            f"{what} is {far} spaces from the caster; {done.card.name} reaches {reach}",
        )


def _unmake(done: Resolution, reach: int) -> None:
    at = done.args.hex("at")
    _within(done, at, reach, "the item")
    ground = done.state.ground.get(at)
    lying = ground.items if ground is not None else []
    item = find_card(
        lying, done.args.need("take"), done.args.at("take"), f"what lies at {list(at)}"
    )
    lying.remove(item)
    done.state.box.append(item)


effect(
    "unmake",
    kinds=("spell",),
    clause="19.2a",
    role="the spell that boxes an item",
    check=whole(1, 12),
    wording=lambda n: [
        f"Target one Item or Spell lying on the map within {n} spaces of the caster: put it in "
        "the box"
    ],
    run=_unmake,
)


def _raise(done: Resolution, deck: str) -> None:
    pile = done.state.discards[deck]
    creatures = [c for c in pile if c.is_creature]
    card = find_card(
        creatures,
        done.args.need("take"),
        done.args.at("take"),
        f"the creatures of the {DECK_NAMES[deck]} discard pile",
    )
    squad = done.squad
    squads.check_holds([*squad.creatures, card], squad.items, squad.key)  # type: ignore[union-attr]
    pile.remove(card)
    squad.creatures.append(card)  # type: ignore[union-attr]
    card.acted = True  # it joins a squad that has taken its action


effect(
    "raise_fallen",
    kinds=("spell",),
    clause="19.2b",
    role="the spell that raises a creature from a discard pile",
    check=lambda v: None if v in CONJURATION_DECKS else "a conjuration deck",
    wording=lambda deck: [
        f"Put one creature card from the {DECK_NAMES[deck]} discard pile into the caster's Squad "
        "if it has room. It does not advance the Blood Eye"
    ],
    run=_raise,
)


def _bolt(done: Resolution, value: dict) -> None:
    from ..battle import sight

    state = done.state
    target = done.args.squad("target")
    _within(done, target.at, value["range"], target.key)
    if not sight(state, done.squad.at, target.at):  # type: ignore[union-attr]
        raise Illegal("no-line-of-sight", f"the caster cannot see {target.key}")
    small = [c for c in target.creatures if c.size in ("small", "trinket")]
    if not small:
        return
    picked = state.choices.take(
        "card",
        f"the Small or Trinket creature of {target.key} that dies",
        state.path,
        default=small[0].name if len(small) == 1 else None,
    )
    victim = find_card(small, picked, state.path, f"the Smalls and Trinkets of {target.key}")
    death.kill_creatures(state, target, [victim], done.player)


effect(
    "slay_small",
    kinds=("spell",),
    clause="19.2c",
    role="the spell that kills a Small",
    check=lambda v: (
        None
        if isinstance(v, dict) and set(v) == {"range"} and whole(1, 12)(v["range"]) is None
        else "{range: n}"
    ),
    wording=lambda v: [
        f"Target a Squad or Wandering Monster within {v['range']} spaces of the caster, in line "
        "of sight: one of its Small or Trinket creatures, chosen by the target's player, dies"
    ],
    run=_bolt,
)


def _foresee(done: Resolution, n: int) -> None:
    deck = done.args.need("target")
    if deck not in CONJURATION_DECKS:
        raise Illegal("unknown-deck", f"'{deck}' is no Conjuration deck")
    pile = done.state.decks[deck]
    top = pile[:n]
    order = done.state.choices.take(
        "order",
        f"the order the top {n} cards go back",
        done.state.path,
        default=[c.name for c in top],
    )
    put: list = []
    for name in order:
        put.append(find_card(top, name, done.state.path, f"the top {n} cards", put))
    if len(put) != len(top):
        raise Illegal("order", f"the order names {len(put)} of the {len(top)} cards looked at")
    pile[: len(top)] = put


effect(
    "foresee",
    kinds=("spell",),
    clause="19.2d",
    role="the spell that reorders a deck",
    check=whole(1, 9),
    wording=lambda n: [
        f"Look at the top {n} cards of any one Conjuration deck and put them back in any order"
    ],
    run=_foresee,
)


def _enemy_beside(done: Resolution, at: hexes.Hex) -> bool:
    for squad in done.state.squads.values():
        if squad is done.squad or squad.at is None:
            continue
        if squad.owner != done.player and hexes.adjacent(squad.at, at):
            return True
    return False


def _gate(done: Resolution, reach: int) -> None:
    state = done.state
    to = done.args.hex("at")
    _within(done, to, reach, "that space")
    if not state.cave.is_open(to) or state.occupant(to) is not None:
        raise Illegal("not-open", f"{hexes.show(to)} is not an open, empty space")
    if to in state.cave.pits:
        raise Illegal("spawn-pit", "the gate may not open onto a Spawn Pit")
    if _enemy_beside(done, to):
        raise Illegal("beside-enemy", f"{hexes.show(to)} is beside an enemy or a Wandering Monster")
    done.squad.at = to  # type: ignore[union-attr]


effect(
    "gate",
    kinds=("spell",),
    clause="19.2e",
    role="the spell that moves its caster's squad",
    check=whole(1, 12),
    wording=lambda n: [
        f"Move the caster's Squad to any open space within {n} spaces that is not a Spawn Pit "
        "and not adjacent to an enemy Squad or Wandering Monster"
    ],
    run=_gate,
)


def _steal(done: Resolution, reach: int) -> None:
    from ..state import Squad

    state = done.state
    target = done.args.squad("target")
    if target.owner in (None, done.player) or target.label == "N":
        raise Illegal("not-a-target", f"{target.key} is not an enemy squad other than an N squad")
    _within(done, target.at, reach, target.key)
    card = find_card(
        target.creatures,
        done.args.need("take"),
        done.args.at("take"),
        f"the creatures of {target.key}",
    )
    label = state.free_control_card(done.player)
    if label is None:
        raise Illegal("no-control-card", f"{done.player} has no empty Control Card")
    at = done.args.hex("at")
    if (
        not hexes.adjacent(at, done.squad.at)
        or not state.cave.is_open(at)
        or state.occupant(at) is not None
    ):  # type: ignore[union-attr]
        raise Illegal("no-room", f"{hexes.show(at)} is no free open space beside the caster")
    target.creatures.remove(card)
    card.acted = True
    state.squads[f"{done.player} {label}"] = Squad(done.player, label, at=at, creatures=[card])
    if not target.creatures:
        death.kill_creatures(state, target, [], None)  # its goods fall where it stood


effect(
    "steal_creature",
    kinds=("spell",),
    clause="19.2e",
    role="the spell that takes an enemy creature",
    check=whole(1, 12),
    wording=lambda n: [
        f"Target an enemy Squad other than an N Squad within {n} spaces of the caster: put one "
        "of its creatures on an empty Control Card of yours, its marker adjacent to the caster"
    ],
    run=_steal,
)


@hook("silenced")
def silenced(state, squad) -> str | None:
    """The enemy creature whose Mind keeps `squad` from casting (a Brain Sentry), if any."""
    for other in state.squads.values():
        if other.owner == squad.owner or other.at is None or squad.at is None:
            continue
        for c in other.creatures:
            for reach in c.ability("silence"):
                if hexes.distance(other.at, squad.at) <= reach:
                    return c.name
    return None


effect(
    "silence",
    kinds=("creature",),
    clause="19.2f",
    role="the creature whose mind stops spells",
    check=whole(1, 12),
    wording=lambda n: [f"Mind: enemy Squads within {n} spaces of it cannot cast Spells"],
    variables=lambda n: {"silence": n},
)


def _summon(done: Resolution, value: bool) -> None:
    from ..state import RESOURCES

    state, caster = done.state, done.squad
    player = state.players[done.player]
    card = find_card(
        [c for c in player.hand if c.is_creature],
        done.args.need("take"),
        done.args.at("take"),
        f"the creatures in {done.player}'s hand",
    )
    into = done.args.squad("target")
    if into.owner != done.player or into is caster or not hexes.adjacent(into.at, caster.at):  # type: ignore[union-attr]
        raise Illegal("not-adjacent", f"{into.key} is not a squad of yours beside the caster")
    if any(caster.resources[r] < card.cost[r] for r in RESOURCES):  # type: ignore[union-attr]
        raise Illegal("cannot-pay", f"the caster's squad cannot pay for {card.name}")
    squads.check_holds([*into.creatures, card], into.items, into.key)
    for r in RESOURCES:
        caster.resources[r] -= card.cost[r]  # type: ignore[union-attr]
    player.hand.remove(card)
    into.creatures.append(card)
    card.invoked = True
    state.blood_eye += 1  # as for any creature invoked (16.1a)
    state.invoked_creatures_cycle += 1


effect(
    "summon_beside",
    kinds=("spell",),
    clause="19.2g",
    role="the spell that invokes beside the caster",
    check=flag,
    wording=lambda v: [
        "Invoke one creature from your hand into a Squad adjacent to the caster, paying its cost "
        "with resources of the caster's Squad. The Blood Eye advances as usual"
    ],
    run=_summon,
)
