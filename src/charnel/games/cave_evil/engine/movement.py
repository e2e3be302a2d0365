"""Movement and the other free activities of Phase 3: moving a squad hex by hex at its
slowest creature's pace, stopping beside enemies, never stopping on a Spawn Pit, merging,
splitting, creatures stepping into an adjacent squad, picking up and passing goods."""

from __future__ import annotations

from . import death, hexes, obligations, squads
from .args import Args
from .state import RESOURCES, Card, Illegal, Squad, State


def beside_enemy(
    state: State, squad: Squad, at: hexes.Hex, passing: bool = False
) -> Squad | None:
    """What `squad` must stop beside at `at`; `passing`, on its way on, not the Wandering
    Monsters a squad that flies through them goes by (ruling 13.1p)."""
    past = passing and through(squad, "through_wandering")
    return next(
        (
            s
            for s in obligations.stoppers(state, squad)
            if hexes.adjacent(s.at, at) and not (past and s.wandering)
        ),
        None,
    )


def through(squad: Squad, ability: str) -> bool:
    """Whether every creature of the squad has a movement ability: a squad moves as one, so
    one creature's way through what stops the others takes none of them along (13.1o-p)."""
    return bool(squad.creatures) and all(c.ability(ability) for c in squad.creatures)


def can_move(state: State, squad: Squad) -> None:
    player = state.players.get(squad.owner) if squad.owner else None
    if squad.dig is not None:
        raise Illegal(
            "digging", f"{squad.key} is digging and may not move until it finishes or abandons"
        )
    if squad.trapped:
        raise Illegal("trapped", f"{squad.key} is trapped in a Collapse")
    if player is not None and squad.label == "N" and player.meditating:
        raise Illegal(
            "meditating",
            "the Necromancer performed Secondary Conjuration: it does not move this turn",
        )
    if player is not None:
        others = player.invoked_into - {squad.key, f"{squad.owner} N"}
        if squad.label == "N" and any(
            state.squads.get(k) and state.squads[k].creatures and k in player.moved_after_invoke
            for k in others
        ):
            raise Illegal(
                "invoke-movement",
                "a squad that received Invoked cards has moved: the Necromancer may not",
            )
        if squad.label != "N" and squad.key in player.invoked_into and player.necromancer_moved:
            raise Illegal(
                "invoke-movement",
                f"the Necromancer moved this turn, so {squad.key}, which received Invoked "
                "cards, may not move",
            )


def step_into(state: State, squad: Squad, to: hexes.Hex, path: tuple) -> None:
    """One step; every creature spends one movement point."""
    if not hexes.adjacent(squad.at, to):
        raise Illegal("not-adjacent", f"{hexes.show(to)} is not next to {hexes.show(squad.at)}")
    onto = squad.one_step
    if onto is not None:
        if to not in onto:
            raise Illegal("one-step", f"after digging {squad.key} may only step onto the new tile")
        squad.one_step = None  # the one step onto the new ground, and no more
    elif squads.movement_left(squad) < 1:
        raise Illegal(
            "out-of-movement", f"{squad.key} has no movement left (rate {squads.rate(squad)})"
        )
    if not state.cave.is_open(to) and not (
        state.cave.is_undug(to) and through(squad, "through_rock")
    ):
        raise Illegal("undug", f"{hexes.show(to)} is undug rock or a Collapse")
    other = state.occupant(to)
    if other is not None and other.wandering and through(squad, "through_wandering"):
        pass  # flies over it; it may not stop there (13.1p)
    elif other is not None:
        if other.owner != squad.owner or "crowded-tunnels" not in state.advanced:
            raise Illegal("occupied", f"{hexes.show(to)} holds {other.key}")
        if not squads.fits(squad.creatures + other.creatures):
            raise Illegal("crowded", f"{squad.key} and {other.key} together do not fit one space")
    for c in squad.creatures:
        c.spent += 1
    squad.at = to
    squad.visited.add(to)
    from .effects.evil_moves import after_step

    after_step(state, squad)  # the awakened Goat's neighbours; the Statue's Eyes brought home


def move(state: State, args: Args) -> None:
    """A player's squad, or a Wandering Monster squad that an event moves (the current
    player choosing its path, rule 14.1f)."""
    squad = args.squad()
    _phase(state, squad)
    if not squad.wandering:
        _mine(state, squad, args.actor)
    route = args.path_of("path")
    if not route:
        raise Illegal("no-path", "a move names at least one hex")
    can_move(state, squad)
    if squad.one_step is None and any(c.halted for c in squad.creatures):
        raise Illegal("halted", f"{squad.key} may not move again this turn")
    for n, to in enumerate(route):
        enemy = beside_enemy(state, squad, squad.at, passing=n > 0)
        if enemy is not None and (n > 0 or squad.stopped):
            raise Illegal("must-stop", f"{squad.key} is beside {enemy.key} and must stop")
        step_into(state, squad, to, args.at("path"))
    if not state.cave.is_open(squad.at):
        raise Illegal(
            "stops-in-rock", f"{squad.key} may pass through undug rock but not stop in it"
        )
    if state.occupant_count(squad.at) > 1:
        raise Illegal(
            "occupied", f"{squad.key} may pass through a squad but not stop on it"
        )
    if squad.at in state.cave.pits and not _wins_at_pit(state, squad):
        raise Illegal("spawn-pit", f"a squad never stops on a Spawn Pit ({hexes.show(squad.at)})")
    if beside_enemy(state, squad, squad.at) is not None:
        squad.stopped = True
        if not squad.wandering:
            obligations.owe(state, squad)
    _moved(state, squad)


def _phase(state: State, squad: Squad) -> None:
    """Squads move in Phase 3; in Phase 4 only Wandering Monsters, as events move them."""
    if state.phase == 4 and not squad.wandering:
        raise Illegal("wrong-phase", "in Phase 4 only Wandering Monsters move, as events say")


def _wins_at_pit(state: State, squad: Squad) -> bool:
    """Under the awakened Pit of Infinite Shadow a Necromancer ends its move on The Pit and
    wins."""
    from .effects import evil

    if (
        state.awakened
        and evil.has(state, "pit_race") is not None
        and state.marks.get("awakened in cycle", 0) < state.cycle  # from the next cycle on
        and squad.label == "N"
        and squad.at == state.cave.the_pit
    ):
        state.winner = squad.owner
        return True
    return False


def _moved(state: State, squad: Squad) -> None:
    player = state.players.get(squad.owner) if squad.owner else None
    if player is None:
        return
    if squad.label == "N":
        player.necromancer_moved = True
        for key in player.invoked_into - {squad.key}:
            other = state.squads.get(key)
            if other is not None:
                for c in other.creatures:
                    c.halted = True
    elif squad.key in player.invoked_into:
        player.moved_after_invoke.add(squad.key)


def _mine(state: State, squad: Squad, actor: str) -> None:
    if squad.owner != actor:
        raise Illegal("not-yours", f"{squad.key} is not {actor}'s squad")


def join(state: State, args: Args) -> None:
    """Creatures (and the items they bring) step into an adjacent friendly squad: one
    movement point each; the joined squad moves on at what its creatures have left."""
    source = args.squad("from")
    target = args.squad("into")
    _mine(state, source, args.actor)
    _mine(state, target, args.actor)
    movers = (
        args.cards_in("creatures", source.creatures, source.key)
        if args.has("creatures")
        else list(source.creatures)
    )
    items = (
        args.cards_in("items", source.items, source.key)
        if args.has("items")
        else (list(source.items) if len(movers) == len(source.creatures) else [])
    )
    _transfer(state, source, target, movers, items, step=True)


def merge(state: State, args: Args) -> None:
    source, target = args.squad("squad"), args.squad("into")
    _mine(state, source, args.actor)
    _mine(state, target, args.actor)
    _transfer(state, source, target, list(source.creatures), list(source.items), step=True)


def _transfer(
    state: State, source: Squad, target: Squad, movers: list[Card], items: list[Card], *, step: bool
) -> None:
    if source is target:
        raise Illegal("same-squad", "a squad cannot join itself")
    if not hexes.adjacent(source.at, target.at):
        raise Illegal("not-adjacent", f"{source.key} and {target.key} are not next to each other")
    if any(c.kind == "necromancer" for c in movers):
        raise Illegal("necromancer-stays", "a Necromancer never leaves Control Card N")
    if source.trapped or target.trapped:
        raise Illegal("trapped", "nothing moves into or out of a Collapse")
    player = state.players[source.owner]
    if source.label == "N" and player.necromancer_moved and any(c.invoked for c in movers):
        raise Illegal(
            "invoke-movement",
            "the Necromancer moved: creatures Invoked into its squad may not split off",
        )
    for c in movers:
        if c.halted or c.left() < 1:
            raise Illegal(
                "out-of-movement", f"{c.name} has no movement left to step into {target.key}"
            )
    squads.check_holds(target.creatures + movers, target.items + items, target.key)
    rest = [c for c in source.creatures if c not in movers]
    rest_items = [i for i in source.items if i not in items]
    if rest and len(rest_items) > squads.carry_capacity(rest):
        raise Illegal("cannot-carry", f"{source.key} could not carry what it keeps")
    for c in movers:
        c.spent += 1
        source.creatures.remove(c)
        target.creatures.append(c)
    for i in items:
        source.items.remove(i)
        target.items.append(i)
    if source.dig is not None and not squads.excavators(source):
        source.dig = None  # no digger left: the excavation is abandoned
    if not source.creatures:
        for r in RESOURCES:
            target.resources[r] += source.resources[r]
        del state.squads[source.key]


def split(state: State, args: Args) -> None:
    """Creatures break away into a new squad (an empty Control Card; for Wandering Monsters,
    the next free Wandering Marker) and move off."""
    source = args.squad()
    _phase(state, source)
    if not source.wandering:
        _mine(state, source, args.actor)
    player = state.players.get(source.owner) if source.owner else None
    movers = args.cards_in("creatures", source.creatures, source.key)
    if not movers:
        raise Illegal("no-creature", "a new squad needs at least one creature")
    if len(movers) == len(source.creatures):
        raise Illegal("whole-squad", "that is the whole squad: move it instead")
    if any(c.kind == "necromancer" for c in movers):
        raise Illegal("necromancer-stays", "a Necromancer never leaves Control Card N")
    if (
        player
        and source.label == "N"
        and player.necromancer_moved
        and any(c.invoked for c in movers)
    ):
        raise Illegal(
            "invoke-movement",
            "the Necromancer moved: creatures Invoked into its squad may not split off",
        )
    items = args.cards_in("items", source.items, source.key)
    if source.wandering:
        label = death.next_marker(state)
    else:
        label = args.get("into") or state.free_control_card(source.owner)
    if label is None:
        raise Illegal(
            "no-control-card", f"{source.owner} has no empty Control Card for a new squad"
        )
    if not source.wandering and f"{source.owner} {label}" in state.squads:
        raise Illegal("no-control-card", f"Control Card {label} is not empty")
    new = Squad(source.owner, label, at=source.at, creatures=movers, items=items)
    squads.check_holds(movers, items, new.key)
    for c in movers:
        source.creatures.remove(c)
    for i in items:
        source.items.remove(i)
    new.resources = args.resources("resources")
    for r in RESOURCES:
        if new.resources[r] > source.resources[r]:
            raise Illegal("not-enough", f"{source.key} carries only {source.resources[r]} {r}")
        source.resources[r] -= new.resources[r]
    if source.dig is not None and not squads.excavators(source):
        source.dig = None
    state.squads[new.key] = new
    route = args.path_of("path")
    if not route:
        raise Illegal("same-space", "two squads never share a space: the new squad must move off")
    can_move(state, new)
    for n, to in enumerate(route):
        if n > 0 and beside_enemy(state, new, new.at) is not None:
            raise Illegal("must-stop", f"{new.key} is beside an enemy and must stop")
        step_into(state, new, to, args.at("path"))
    if state.occupant_count(new.at) > 1:
        raise Illegal("occupied", f"{new.key} may not stop on another squad")
    if new.at in state.cave.pits:
        raise Illegal("spawn-pit", "a squad never stops on a Spawn Pit")
    if beside_enemy(state, new, new.at) is not None:
        new.stopped = True
        if not new.wandering:
            obligations.owe(state, new)


def pick_up(state: State, args: Args) -> None:
    squad = args.squad()
    _mine(state, squad, args.actor)
    where = args.hex("from") if args.has("from") else squad.at
    if where != squad.at and where not in squad.visited:
        raise Illegal("not-there", f"{squad.key} is not on and did not pass {hexes.show(where)}")
    ground = state.ground_at(where)
    taken = args.resources(whole=ground.resources)
    for r in RESOURCES:
        if taken[r] > ground.resources[r]:
            raise Illegal("not-there", f"only {ground.resources[r]} {r} lie on {hexes.show(where)}")
    items = args.cards_in("items", ground.items, f"the goods on {hexes.show(where)}")
    squads.check_holds(squad.creatures, squad.items + items, squad.key)
    for r in RESOURCES:
        ground.resources[r] -= taken[r]
        squad.resources[r] += taken[r]
    for i in items:
        ground.items.remove(i)
        squad.items.append(i)
    from .effects import protectors

    protectors.picked_up(state, squad, where)


def pass_goods(state: State, args: Args) -> None:
    source, target = args.squad("from"), args.squad("to")
    _mine(state, source, args.actor)
    _mine(state, target, args.actor)
    if not hexes.adjacent(source.at, target.at):
        raise Illegal("not-adjacent", f"{source.key} and {target.key} are not next to each other")
    if source.trapped or target.trapped:
        raise Illegal("trapped", "nothing is passed to or from a squad trapped in a Collapse")
    given = args.resources(whole=source.resources)
    for r in RESOURCES:
        if given[r] > source.resources[r]:
            raise Illegal("not-enough", f"{source.key} carries only {source.resources[r]} {r}")
    items = args.cards_in("items", source.items, source.key)
    squads.check_holds(target.creatures, target.items + items, target.key)
    for r in RESOURCES:
        source.resources[r] -= given[r]
        target.resources[r] += given[r]
    for i in items:
        source.items.remove(i)
        target.items.append(i)


def abandon(state: State, args: Args) -> None:
    """Advanced: creatures, a whole squad, or items and spells left to the cave. A creature
    with movement left walks all of it away from its squad (each step farther off); one with
    none left stands beside it (`at:`). Either way it is a Wandering Monster."""
    if "abandoning" not in state.advanced:
        raise Illegal("advanced", "abandoning is an advanced rule (advanced: [abandoning])")
    squad = args.squad()
    _mine(state, squad, args.actor)
    if squad.protector:
        raise Illegal("protector", "a Protector is never abandoned")
    items = args.cards_in("items", squad.items, squad.key)
    for item in items:
        squad.items.remove(item)
    death.drop_items(state, squad.at, items)
    if args.has("items") and not args.has("creatures"):
        return
    movers = (
        args.cards_in("creatures", squad.creatures, squad.key)
        if args.has("creatures")
        else list(squad.creatures)
    )
    if any(c.kind == "necromancer" for c in movers):
        raise Illegal("necromancer-stays", "a Necromancer is never abandoned")
    if len(movers) == len(squad.creatures):  # the whole squad: it wanders where it stands
        del state.squads[squad.key]
        squad.owner, squad.label = None, death.next_marker(state)
        state.squads[squad.key] = squad
        return
    if len(squad.items) > squads.carry_capacity([c for c in squad.creatures if c not in movers]):
        raise Illegal("cannot-carry", f"{squad.key} could not carry its items without them")
    left = min(c.left() for c in movers)
    for c in movers:
        squad.creatures.remove(c)
    monster = Squad(None, death.next_marker(state), at=squad.at, creatures=movers)
    state.squads[monster.key] = monster
    if left == 0:
        at = args.hex("at")
        if (
            not hexes.adjacent(at, squad.at)
            or not state.cave.is_open(at)
            or state.occupant(at) is not None
        ):
            raise Illegal(
                "no-room", f"{hexes.show(at)} is not a free open space beside {squad.key}"
            )
        monster.at = at
        return
    route = args.path_of("path")
    if len(route) != left:
        raise Illegal("whole-move", f"an abandoned creature walks all its {left} spaces away")
    for to in route:
        if hexes.distance(to, squad.at) <= hexes.distance(monster.at, squad.at):
            raise Illegal("not-away", f"{hexes.show(to)} is not farther from {squad.key}")
        step_into(state, monster, to, args.at("path"))
