"""The necromancers' own abilities: once per game (rule 15.1a), used with the `once_per_game`
step, or permanent and read where the rule applies (the Blood Sorcerer's four items)."""

from __future__ import annotations

from typing import Any

from .. import death, hexes
from ..state import Illegal
from . import Resolution, effect, flag, hook, whole


def _burn(done: Resolution, value: Any) -> None:
    state, here = done.state, done.squad.at  # type: ignore[union-attr]
    around = set(hexes.neighbours(here))
    for victim in list(state.squads.values()):
        if victim.at in around and victim is not done.squad:
            death.kill_creatures(state, victim, list(victim.creatures), None)


effect(
    "burn_adjacent",
    kinds=("necromancer",),
    clause="19.4b",
    role="the necromancer that burns its surroundings",
    check=flag,
    wording=lambda v: [
        "Once per game: every creature on a space adjacent to it dies, friendly Squads and enemy "
        "Necromancers included. Its own Squad is spared; no Item, Spell or resource is destroyed"
    ],
    run=_burn,
    when="once",
)


def _teleport(done: Resolution, reach: int) -> None:
    state, squad = done.state, done.squad
    to = done.args.hex("to")
    far = hexes.distance(squad.at, to)  # type: ignore[union-attr]
    if far > reach:
        raise Illegal(
            "out-of-range", f"{list(to)} is {far} spaces away; the teleport reaches {reach}"
        )
    if not state.cave.is_open(to) or to in state.cave.lair - {squad.at}:  # type: ignore[union-attr]
        raise Illegal("not-excavated", f"{list(to)} is not an excavated space")
    if to in state.cave.pits:
        raise Illegal("spawn-pit", "a teleport may not end on a Spawn Pit")
    if state.occupant(to) is not None:
        raise Illegal("occupied", f"{list(to)} is occupied")
    squad.at = to  # type: ignore[union-attr]


effect(
    "teleport",
    kinds=("necromancer",),
    clause="19.4d",
    role="the necromancer that teleports",
    check=whole(1, 12),
    wording=lambda n: [
        f"Once per game: teleport its whole N Squad up to {n} spaces. On its own turn it may move "
        "and then teleport, or teleport and then move. It may pass through undug areas, but must "
        "end on an excavated space that is not a Spawn Pit"
    ],
    run=_teleport,
    when="once",
)

effect(
    "permanent_carry",
    kinds=("necromancer",),
    clause="19.4e",
    role="the necromancer that carries more",
    check=whole(1, 9),
    wording=lambda n: [
        f"Permanent: may carry and use up to {n} Items and Spells, in any mix. Not a "
        "once-per-game ability, so it may be used against an Awakened Evil"
    ],
    variables=lambda n: {"carry": n},
)


def use_once(state, args) -> None:
    """The `once_per_game` step: the acting player's necromancer uses its ability, at any
    moment, in anyone's turn (15.1a), once."""
    from .. import effects

    player = state.players[args.actor]
    n = state.n_squad(args.actor)
    necromancer = n.necromancer() if n is not None else None
    if necromancer is None or not effects.of(necromancer, "once"):
        raise Illegal("no-ability", f"{args.actor}'s necromancer has no once-per-game ability")
    if player.once_used:
        raise Illegal("used", "the once-per-game ability has been used already")
    player.once_used = True
    state.marks[("once used", state.cycle, args.actor)] = True  # no Eyes won this turn
    effects.resolve(state, args, necromancer, n, args.actor, "once")


def _split(done: Resolution, halves: list[str]) -> None:
    from .. import squads
    from ..state import Squad

    state, n, args = done.state, done.squad, done.args
    first, second = (state.cards.make(h, args.path) for h in halves)
    for card in (first, second):
        card.kind, card.size, card.spellcaster = "necromancer", "small", True
    if args.has("into"):
        host = args.squad("into")
        if host.owner != done.player or host is n or not hexes.adjacent(host.at, n.at):
            raise Illegal("not-adjacent", f"{host.key} is not a squad of yours beside the N squad")
        squads.check_holds([*host.creatures, second], host.items, host.key)
        host.creatures.append(second)
    else:
        label = state.free_control_card(done.player)
        if label is None:
            raise Illegal("no-control-card", f"{done.player} has no empty Control Card")
        at = args.hex("at")
        if (
            not hexes.adjacent(at, n.at)
            or not state.cave.is_open(at)
            or state.occupant(at) is not None
        ):
            raise Illegal("no-room", f"{hexes.show(at)} is no free open space beside the N squad")
        state.squads[f"{done.player} {label}"] = Squad(
            done.player, label, at=at, creatures=[second]
        )
    n.creatures[n.creatures.index(done.card)] = first  # type: ignore[union-attr]


effect(
    "split",
    kinds=("necromancer",),
    clause="19.4f",
    role="the necromancer that splits",
    check=lambda v: (
        None
        if isinstance(v, list) and len(v) == 2 and all(isinstance(x, str) for x in v)
        else "the names of its two split cards"
    ),
    wording=lambda v: [
        "Once per game: split into two smaller Black Wizards (its two split cards), the second on "
        "an empty Control Card or in an adjacent Squad with room. They never rejoin. Between them "
        "they take one Necromancer action a turn (Conjure, Invoke or Secondary Conjuration). If "
        "the one on Control Card N dies, the other takes its place"
    ],
    run=_split,
    when="once",
)


@hook("successor")
def successor(state, squad) -> bool:
    """A split necromancer's other half lives on: if the dead one held Control Card N, the
    other's squad takes it (the markers change places, the squads do not move). True when a
    necromancer of the player is still alive."""
    others = [
        s for s in state.squads_of(squad.owner) if s is not squad and s.necromancer() is not None
    ]
    if not others:
        return squad.necromancer() is not None
    if squad.label == "N":
        heir = others[0]
        del state.squads[heir.key]
        state.squads.pop(squad.key, None)
        heir.label, squad.label = "N", heir.label
        state.squads[heir.key] = heir
        if squad.creatures:
            state.squads[squad.key] = squad
    return True


def _enthrall(done: Resolution, reach: int) -> None:
    state = done.state
    target = done.args.squad("target")
    if target.owner in (None, done.player) or target.label == "N":
        raise Illegal("not-a-target", f"{target.key} is not an enemy squad other than an N squad")
    far = hexes.distance(done.squad.at, target.at)  # type: ignore[union-attr]
    if far > reach:
        raise Illegal("out-of-range", f"{target.key} is {far} spaces away; she reaches {reach}")
    label = state.free_control_card(done.player)
    if label is None:
        raise Illegal("no-control-card", f"{done.player} has no empty Control Card")
    del state.squads[target.key]
    target.owner, target.label = done.player, label
    state.squads[target.key] = target
    from .. import obligations

    for other in list(state.squads.values()):  # its old friends beside it must fight it
        if other.owner not in (None, done.player) and not other.acted and other.at is not None:
            if hexes.adjacent(other.at, target.at):
                obligations.owe(state, other)


effect(
    "enthrall",
    kinds=("necromancer",),
    clause="19.4g",
    role="the necromancer that takes an enemy squad",
    check=whole(1, 12),
    wording=lambda n: [
        f"Once per game: take permanent control of one enemy Squad within {n} spaces, other than "
        "an N Squad, onto an empty Control Card of yours. Usable on another player's turn, even "
        "on the Squad attacking her. An enemy Squad adjacent to the taken Squad that has not "
        "acted must fight it"
    ],
    run=_enthrall,
    when="once",
)
