"""The fighting actions: Combat (with flanks, Ranged, the Attacktite's rip apart, a
Chthonic Crystal), Subdue and Hire of Wandering Monsters."""

from __future__ import annotations

from . import combat, death, effects, hexes, sides, squads
from .args import Args
from .combat import adjacent
from .sides import Party
from .state import (
    ATTRIBUTES,
    RESOURCES,
    Card,
    ExampleError,
    Illegal,
    Squad,
    State,
)


def _ready(state: State, squad: Squad, actor: str) -> None:
    if squad.owner != actor:
        raise Illegal("not-yours", f"{squad.key} is not {actor}'s squad")
    if squad.acted:
        raise Illegal("already-acted", f"{squad.key} has already taken its action this turn")
    if squad.trapped:
        raise Illegal("trapped", f"{squad.key} is trapped in a Collapse and cannot fight")
    if squad.label == "N":
        player = state.players[actor]
        if player.n_action is not None:
            raise Illegal("already-acted", "the N squad has already taken its action")
        player.n_action = "combat"
    if squad.dig is not None:  # another action discards the dig (rules 10.2e, 10.2k)
        state.box.append(squad.dig.card)
        squad.dig = None


def _firsts(args: Args, count: int) -> list[str]:
    written = args.need("first")
    firsts = written if isinstance(written, list) else [written] * count
    for a in firsts:
        if a not in ATTRIBUTES:
            raise ExampleError(
                args.at("first"), f"unknown attribute '{a}' (known: {', '.join(ATTRIBUTES)})"
            )
    if len(firsts) < count:
        raise ExampleError(
            args.at("first"), f"{count} separate fights need {count} first attributes"
        )
    return firsts


def ranged_creatures(state: State, squad: Squad, target_at: hexes.Hex) -> list[Card]:
    """Its creatures with a Ranged ability that reach `target_at` (hex distance)."""
    out = []
    for c in squad.creatures:
        for r in c.ability("ranged"):
            if hexes.distance(squad.at, target_at) <= int(r.get("range", 0)):
                out.append(c)
                break
    return out


def sight(state: State, a: hexes.Hex, b: hexes.Hex) -> bool:
    looker = state.occupant(a)
    past_monsters = looker is not None and any(
        c.ability("see_past_monsters") for c in looker.creatures
    )

    def blocks(h: hexes.Hex) -> bool:
        there = state.occupant(h)
        if not state.cave.is_open(h):
            return True
        if there is not None and not (past_monsters and there.wandering):
            return True
        g = state.ground.get(h)
        return g is not None and any(i.large for i in g.items)

    return hexes.line_of_sight(a, b, blocks)


def _second(state: State, args: Args) -> None:
    """The defender's round-two pick may be written in the step (`second:`) instead of as
    a choice."""
    state.second = args.attribute("second") if args.has("second") else None


def attack(state: State, args: Args) -> None:
    _second(state, args)
    if args.has("crystal"):
        return crystal(state, args)
    principal = args.squad()
    flankers = args.squads("with")
    attackers = [principal, *flankers]
    target = args.squad("target")
    for s in attackers:
        _ready(state, s, args.actor)
    if target.owner == args.actor:
        raise Illegal("own-squad", "a player never attacks their own squad")
    if target.trapped:
        raise Illegal("trapped", f"{target.key} is trapped in a Collapse: no Combat with it")
    ranged = bool(args.get("ranged", False))
    if ranged:
        return ranged_attack(state, args, attackers, target)
    for s in attackers:
        if not adjacent(s, target):
            raise Illegal("not-adjacent", f"{s.key} is not next to {target.key}")
    enemies = combat.in_contact(state, attackers)
    if len(attackers) >= 2 and len(enemies) >= 2 and combat.pairing_exists(attackers, enemies):
        raise Illegal(
            "separate-combats",
            "each attacking squad can be matched with its own adjacent enemy: they fight "
            "separate Combats, not a flank",
        )
    helpers = []
    if not target.wandering:
        helpers = [
            m
            for m in state.squads.values()
            if m.wandering
            and not m.trapped
            and adjacent(m, target)
            and not any(adjacent(m, a) for a in attackers)
        ]
    defenders = [target, *[e for e in enemies if e is not target]]
    if args.get("separately", False):  # the Attacktite's choice, never forced (rule 11.4c)
        if not any(c.ability("rip_apart") for c in principal.creatures):
            raise Illegal(
                "cannot-rip-apart",
                f"no creature of {principal.key} rips squads apart: it fights the squad whole",
            )
        if flankers or len(defenders) > 1 or helpers:
            raise Illegal(
                "cannot-rip-apart",
                "a squad fights each creature separately only alone, against one squad",
            )
        return _rip_apart(state, args, principal, target)
    first = args.attribute("first") if args.has("first") else None
    record = combat.run_fight(
        state,
        [sides.party(s) for s in (*attackers, *helpers)],
        [sides.party(s) for s in defenders],
        first,
        "combat",
    )
    combat.exhaust(attackers)
    combat.conclude(state, record, [*attackers, *helpers], defenders)


def _rip_apart(state: State, args: Args, attacker: Squad, target: Squad) -> None:
    """The attacking squad fights each enemy creature on its own, in the order chosen."""
    order = args.get("order")
    creatures = list(target.creatures)
    if order is not None:
        creatures = args.cards_in("order", target.creatures, target.key)
        if len(creatures) != len(target.creatures):
            raise ExampleError(args.at("order"), "the order names every creature of the squad")
    firsts = _firsts(args, len(creatures))
    combat.exhaust([attacker])
    parent = None
    for card, first in zip(creatures, firsts, strict=False):
        record = combat.run_fight(
            state, [sides.party(attacker)], [Party(target, [card], items=False)], first, "combat"
        )
        record.defender = [f"{target.key}: {card.name}"]
        state.fights.append(record)
        if parent is None:
            parent = record
        if record.winner == "attacker":
            if effects.HOOKS["stitched"](state, target, card):
                continue
            death.kill_creatures(state, target, [card], attacker.owner)
            record.killed.append(card.name)
        else:
            victor = target.owner
            record.killed.append(attacker.key)
            death.kill(state, attacker, victor)
            return


def _ranged_sides(
    state: State, attackers: list[Squad], target: Squad
) -> tuple[list[Party], list[Party], bool]:
    """The Ranged creatures of each attacking squad that reach the target (in range, with
    line of sight), and the target's side: all of it, or, if it so chooses, only its own
    Ranged creatures that reach the attacker."""
    parties = []
    for s in attackers:
        shooters = ranged_creatures(state, s, target.at)
        if not shooters:
            raise Illegal("out-of-range", f"no creature of {s.key} has {target.key} in range")
        if not sight(state, s.at, target.at):
            raise Illegal("no-line-of-sight", f"{s.key} has no line of sight to {target.key}")
        parties.append(Party(s, shooters))
    answer = ranged_creatures(state, target, attackers[0].at)
    defence = False
    if answer:
        defence = bool(
            state.choices.take(
                "ranged_defence",
                "does the defender fight with only its Ranged creatures in range",
                state.path,
                default=False,
            )
        )
    defenders = [Party(target, answer)] if defence else [sides.party(target)]
    return parties, defenders, defence


def _ranged_first(args: Args, parties: list[Party]) -> str:
    forced = sorted(
        {
            r["first"]
            for p in parties
            for c in p.creatures
            for r in c.ability("ranged")
            if r.get("first")
        }
    )
    first = args.attribute("first") if args.has("first") or not forced else forced[0]
    if forced and first not in forced:
        raise Illegal(
            "ranged-attribute", f"these Ranged creatures fight first with {' or '.join(forced)}"
        )
    return first


def ranged_attack(state: State, args: Args, attackers: list[Squad], target: Squad) -> None:
    parties, defenders, defence = _ranged_sides(state, attackers, target)
    first = _ranged_first(args, parties)
    record = combat.run_fight(state, parties, defenders, first, "ranged", ranged_defence=defence)
    combat.exhaust(attackers)
    combat.conclude(state, record, attackers, [target])


def crystal(state: State, args: Args) -> None:
    """An attack on a Chthonic Crystal is a fight with the Necromancer's astral shadow: its
    own attributes only; its friendly squads next to the Crystal may flank in defence."""
    owner = args.get("crystal")
    if owner not in state.players:
        raise ExampleError(args.at("crystal"), f"no player '{owner}'")
    at = state.players[owner].crystal
    if at is None:
        raise ExampleError(
            args.at("crystal"), f"given.crystals does not place {owner}'s Chthonic Crystal"
        )
    squad = args.squad()
    _ready(state, squad, args.actor)
    if not hexes.adjacent(squad.at, at) and not ranged_creatures(state, squad, at):
        raise Illegal("not-adjacent", f"{squad.key} is neither next to nor in range of the Crystal")
    n = state.n_squad(owner)
    necro = n.necromancer() if n else None
    if necro is None:
        raise Illegal("no-necromancer", f"{owner} has no Necromancer")
    if n.at == at:  # the N squad stands on its Crystal: an ordinary Combat (ruling 14.3e)
        args.raw = {k: v for k, v in args.raw.items() if k != "crystal"} | {"target": n.key}
        player = state.players[args.actor]
        if squad.label == "N":
            player.n_action = None
        return attack(state, args)
    shadow = Squad(owner, "crystal", at=at)
    flank = [
        s
        for s in state.squads_of(owner)
        if s.at is not None and hexes.adjacent(s.at, at) and s is not n
    ]
    record = combat.run_fight(
        state,
        [sides.party(squad)],
        [Party(shadow, [necro], items=False, abilities=False), *[sides.party(s) for s in flank]],
        args.attribute("first"),
        "crystal",
    )
    record.defender = [f"{owner} crystal", *[s.key for s in flank]]
    combat.exhaust([squad])
    state.fights.append(record)
    if record.winner == "attacker":
        for s in flank:
            death.kill(state, s, args.actor)
        death.necromancer_dies(state, owner, args.actor)
        record.killed = [f"{owner} crystal", *[s.key for s in flank]]
    else:
        record.killed = [squad.key]
        death.kill(state, squad, owner)


def _monster(state: State, args: Args, squad: Squad) -> Squad:
    monster = args.squad("monster")
    if not monster.wandering:
        raise Illegal(
            "not-wandering", f"{monster.key} is a player's squad, not a Wandering Monster"
        )
    return monster


def _take_control(state: State, args: Args, squad: Squad, monster: Squad, *, subdued: bool) -> None:
    """The monsters go onto an empty Control Card; off a Spawn Pit at once, one step (or
    into the acting squad, if there is room)."""
    label = args.get("into") or state.free_control_card(squad.owner)
    if label is None or f"{squad.owner} {label}" in state.squads:
        raise Illegal("no-control-card", f"{squad.owner} needs an empty Control Card")
    to = None
    on_pit = monster.at in state.cave.pits
    if on_pit and not args.get("join"):
        free = [
            h
            for h in hexes.neighbours(monster.at)
            if state.cave.is_open(h) and state.occupant(h) is None and h not in state.cave.pits
        ]
        if not free:
            if subdued:  # it cannot leave the pit: killed by the subduing squad
                death.kill(state, monster, squad.owner)
                return
            raise Illegal(
                "cannot-leave-pit",
                "the hired creatures cannot step off the Spawn Pit: fight instead",
            )
        if not args.has("step"):
            raise ExampleError(
                args.path,
                "the creatures must step off the Spawn Pit: say where with 'step: [q, r]' "
                "(or 'join: true')",
            )
        to = args.hex("step")
        if to not in free:
            raise Illegal("no-room", f"{hexes.show(to)} is not a free space next to the Spawn Pit")
    del state.squads[monster.key]
    monster.owner, monster.label = squad.owner, label
    state.squads[monster.key] = monster
    for c in monster.creatures:
        c.acted = c.halted = subdued
        c.spent = 0
    if on_pit and args.get("join"):
        squads.check_holds(
            squad.creatures + monster.creatures, squad.items + monster.items, squad.key
        )
        squad.creatures += monster.creatures
        squad.items += monster.items
        for r in RESOURCES:
            squad.resources[r] += monster.resources[r]
        del state.squads[monster.key]
    elif to is not None:
        monster.at = to  # free: this step costs no movement


def hire(state: State, args: Args) -> None:
    squad = args.squad()
    monster = _monster(state, args, squad)
    from_afar = effects.HOOKS["may_hire_from_afar"](state, squad, monster)
    if not from_afar:
        _ready(state, squad, args.actor)
    elif squad.owner != args.actor:  # hiring a beckoned monster finishes the spell's action
        raise Illegal("not-yours", f"{squad.key} is not {args.actor}'s squad")
    if monster.protector:
        raise Illegal("protector", "a Protector cannot be Hired")
    if not adjacent(squad, monster) and not from_afar:
        raise Illegal("not-adjacent", f"{squad.key} is not next to {monster.key}")
    cost = {r: sum(c.cost[r] for c in monster.creatures) for r in RESOURCES}
    cost = effects.HOOKS["hire_price"](state, squad, monster, cost)
    for r in RESOURCES:
        if squad.resources[r] < cost[r]:
            raise Illegal(
                "cannot-pay",
                f"hiring {monster.key} costs {cost[r]} {r}; {squad.key} carries "
                f"{squad.resources[r]}",
            )
    if state.free_control_card(squad.owner) is None and not args.has("into"):
        raise Illegal("no-control-card", f"{squad.owner} needs an empty Control Card to Hire")
    for r in RESOURCES:
        squad.resources[r] -= cost[r]
    combat.exhaust([squad])
    _take_control(state, args, squad, monster, subdued=False)


def subdue(state: State, args: Args) -> None:
    _second(state, args)
    squad = args.squad()
    _ready(state, squad, args.actor)
    monster = _monster(state, args, squad)
    ranged = bool(args.get("ranged", False))
    if not ranged and not adjacent(squad, monster):
        raise Illegal("not-adjacent", f"{squad.key} is not next to {monster.key}")
    if state.free_control_card(squad.owner) is None and not args.has("into"):
        raise Illegal("no-control-card", f"{squad.owner} needs an empty Control Card to Subdue")
    if ranged:  # a subdue from range is a Ranged Combat (ruling 12.5i)
        attackers, defenders, defence = _ranged_sides(state, [squad], monster)
        record = combat.run_fight(
            state,
            attackers,
            defenders,
            _ranged_first(args, attackers),
            "subdue",
            ranged=True,
            ranged_defence=defence,
        )
    else:
        record = combat.run_fight(
            state,
            [sides.party(squad)],
            [sides.party(monster)],
            args.attribute("first") if args.has("first") else None,
            "subdue",
        )
    combat.exhaust([squad])
    combat.conclude(state, record, [squad], [monster])
    if record.winner == "attacker":
        _take_control(state, args, squad, monster, subdued=True)
