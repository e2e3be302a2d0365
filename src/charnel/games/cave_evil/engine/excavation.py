"""Excavation and Collapse: declare (a face-down Excavation card and 3 Rock Markers), keep
digging on later turns (rocks off by the squad's speed), finish: turn the card up (Events
set aside, drawing on to a tile), lay the tile (Excavation: first space on an undug hex next
to the squad; Collapse: on an open one), make its Spawn Rolls, and the squad may step once
onto the new ground. Speed 4 or more digs at once (an Immediate Excavator)."""

from __future__ import annotations

from . import (
    death,
    effects,
    hexes,
    obligations,
    spawn,
    squads,
    tiles,
)
from .args import Args
from .conjure import set_aside
from .state import (
    IMMEDIATE_SPEED,
    Card,
    Dig,
    ExampleError,
    Illegal,
    Squad,
    State,
)


def _helpers(state: State, args: Args, squad: Squad) -> list[Squad]:
    helpers = args.squads("helpers")
    if helpers and "flank-excavation" not in state.advanced:
        raise Illegal(
            "advanced", "Flank Excavation is an advanced rule (advanced: [flank-excavation])"
        )
    for h in helpers:
        if h.owner != squad.owner or not hexes.adjacent(h.at, squad.at):
            raise Illegal("not-adjacent", f"{h.key} is not a friendly squad next to {squad.key}")
        if h.acted:
            raise Illegal("already-acted", f"{h.key} has already taken its action")
        if squads.speed(h) == 0:
            raise Illegal("no-pick-axe", f"{h.key} has no Pick Axe")
    return helpers


def _act(squads_: list[Squad]) -> None:
    """Digging is the squad's action. The digging squad does not move (its dig holds it),
    but its creatures may still leave it (rule 10.2g)."""
    for s in squads_:
        for c in s.creatures:
            c.acted = True


def declare(state: State, args: Args) -> None:
    squad = args.squad()
    if squad.owner != args.actor:
        raise Illegal("not-yours", f"{squad.key} is not {args.actor}'s")
    if squad.acted:
        raise Illegal("already-acted", f"{squad.key} has already taken its action")
    if squad.dig is not None:
        raise Illegal("digging", f"{squad.key} is already digging: continue with 'dig'")
    if not squads.excavators(squad):
        raise Illegal("no-excavator", f"{squad.key} has no Excavator")
    kind = "collapse" if args.get("collapse") else "excavate"
    near = hexes.neighbours(squad.at)
    if kind == "excavate" and not any(
        state.cave.is_undug(h) and h not in state.cave.lair for h in near
    ):
        raise Illegal("nothing-to-dig", f"{squad.key} is not next to undug rock")
    if kind == "collapse" and not any(state.cave.is_open(h) for h in near):
        raise Illegal("nothing-to-dig", f"{squad.key} is not next to open ground")
    if not state.decks["excavation"]:
        raise Illegal("empty-deck", "the Excavation deck is empty")
    helpers = _helpers(state, args, squad)
    card = state.decks["excavation"].pop(0)
    squad.dig = Dig(card, kind)
    if squad.label == "N":
        state.players[args.actor].n_action = "excavate"
    moved = any(c.left() < c.movement or c.halted for c in squad.creatures)
    _act([squad, *helpers])
    speed = squads.speed(squad) + sum(squads.speed(h) for h in helpers)
    if speed >= IMMEDIATE_SPEED:
        squad.dig.rocks = 0
        _finish(state, args, squad, step_allowed=not moved)


def dig(state: State, args: Args) -> None:
    squad = args.squad()
    if squad.dig is None:
        raise Illegal("not-digging", f"{squad.key} has not begun to dig")
    if squad.dig.begun_turn:
        raise Illegal(
            "already-acted", f"{squad.key} began digging this turn; it continues next turn"
        )
    if squad.acted:
        raise Illegal("already-acted", f"{squad.key} has already taken its action")
    if not squads.excavators(squad):
        squad.dig = None
        raise Illegal("no-excavator", f"{squad.key} has no Excavator left")
    helpers = _helpers(state, args, squad)
    speed = squads.speed(squad) + sum(squads.speed(h) for h in helpers)
    squad.dig.rocks = max(0, squad.dig.rocks - speed)
    _act([squad, *helpers])
    if squad.dig.rocks == 0:
        _finish(state, args, squad, step_allowed=True)


def abandon(state: State, args: Args) -> None:
    squad = args.squad()
    if squad.dig is None:
        raise Illegal("not-digging", f"{squad.key} is not digging")
    state.box.append(squad.dig.card)
    squad.dig = None


def _finish(state: State, args: Args, squad: Squad, *, step_allowed: bool) -> None:
    dig_ = squad.dig
    card = dig_.card
    while card.kind == "event":  # Events wait for Phase 4; draw on to a tile
        state.dug_by[id(card)] = squad.key
        set_aside(state, squad.owner)(card)
        if not state.decks["excavation"]:
            raise Illegal("empty-deck", "the Excavation deck is empty")
        card = state.decks["excavation"].pop(0)
    cells = place_tile(state, args, squad, card, dig_.kind)
    squad.dig = None
    state.box.append(card)
    if dig_.kind == "collapse":
        collapse(state, cells)
    else:
        excavate(state, cells)
        for spec in card.spawn:
            _excavation_spawn(state, squad, cells, spec)
    for c in squad.creatures:
        c.halted = True  # finished: at most the one step onto the new tile
    if step_allowed:
        squad.one_step = set(cells) if dig_.kind == "excavate" else None


def _excavation_spawn(state: State, squad: Squad, cells: list, spec) -> None:
    """An Excavation Spawn Roll: resources onto the digging squad, a card on the new tile's
    farthest space from it. A regular roll the card asks for goes on the tile's Spawn Pit."""
    kind = spec.get("roll", "excavation") if isinstance(spec, dict) else str(spec)
    times = spec.get("times", 1) if isinstance(spec, dict) else 1
    pit = next((h for h in cells if h in state.cave.pits), None)

    def farthest() -> hexes.Hex:
        far = max(hexes.distance(squad.at, h) for h in cells)
        found = [h for h in cells if hexes.distance(squad.at, h) == far]
        if len(found) == 1:
            return found[0]
        at = state.choices.take_hex(
            "spawn_at",
            f"the farthest spaces of the new tile are {', '.join(hexes.show(h) for h in found)}",
            state.path,
        )
        if at not in found:
            raise Illegal(
                "not-farthest", f"{hexes.show(at)} is not a farthest space of the new tile"
            )
        return at

    for _ in range(times):
        if kind == "protector" and pit is not None:
            effects.HOOKS["protector_arrives"](state, pit)
            continue
        if kind == "regular" and pit is not None:
            made = spawn.roll(state, "regular", pit)
        else:
            made = spawn.roll(
                state, kind if kind in spawn.KINDS else "excavation", farthest, resources_to=squad
            )
        _owe_the_monster(state, squad, made)


def _owe_the_monster(state: State, diggers: Squad, made: dict) -> None:
    """A monster spawned beside a squad of the diggers' player that has not acted is that
    squad's to deal with this turn (rules 10.4c, 15.3e); any other squad beside it deals
    with it in its own next Phase 1."""
    monster = state.squads.get(made.get("monster", ""))
    if monster is None:
        return
    for squad in state.squads_of(diggers.owner):
        if not squad.acted and squad.at is not None and hexes.adjacent(squad.at, monster.at):
            obligations.owe(state, squad)


def place_tile(state: State, args: Args, squad: Squad, card: Card, kind: str) -> list:
    cells = tile_cells(state, card, args.get("tile") if args.has("tile") else None, args.at("tile"))
    first = cells[0]
    if not hexes.adjacent(first, squad.at):
        raise Illegal("not-adjacent", f"the tile's first space must be next to {squad.key}")
    if kind == "excavate" and not state.cave.is_undug(first) and first not in state.cave.collapsed:
        raise Illegal("first-space", "an Excavation tile begins on an undug hex next to the squad")
    if kind == "collapse" and not state.cave.is_open(first):
        raise Illegal("first-space", "a Collapse tile begins on an open space next to the squad")
    lay_tile(state, card, cells)
    return cells


def tile_cells(state: State, card: Card, written, path: tuple) -> list:
    """The hexes a tile covers, first space first: as the step wrote them, else the choice
    `tile`."""
    if written is None:
        written = state.choices.take(
            "tile",
            f"where the {tile_name(card)} tile goes: its hexes, first space first",
            state.path,
        )
    if not isinstance(written, list) or not written:
        raise ExampleError(path, "a tile is placed as a list of hexes, first space first")
    try:
        return [hexes.parse(h) for h in written]
    except ValueError as exc:
        raise ExampleError(path, str(exc)) from None


def lay_tile(state: State, card: Card, cells: list) -> None:
    """Check that `cells` are the card's tile, clear of Lairs and Spawn Pits (rules 10.3e,
    14.1g), and lay its own Spawn Pit where it has one."""
    found = tiles.shape_of(card.tile)
    place = None
    if found is not None:
        place = hexes.fit(found[0], cells)
        if place is None:
            raise Illegal(
                "wrong-shape",
                f"those hexes are not the shape of the {tile_name(card)} tile "
                f"({len(found[0])} spaces, in any turn)",
            )
    if len(set(cells)) != len(cells) or not hexes.connected(cells):
        raise Illegal("wrong-shape", "a tile's hexes are distinct and connected")
    bad = [h for h in cells if h in state.cave.lair or h in state.cave.pits]
    if bad:
        raise Illegal(
            "forbidden-hex",
            f"{hexes.show(bad[0])} is a Lair, its steel or a Spawn Pit: never dug or collapsed",
        )
    pit = place(found[0][found[1]]) if place is not None and found[1] is not None else None
    if pit is not None:
        if state.occupant(pit) is not None:
            raise Illegal("squad-on-pit", "a tile's Spawn Pit may not be laid under a squad")
        state.cave.pits.add(pit)


def tile_name(card: Card) -> str:
    tile = card.tile
    if isinstance(tile, dict):
        return str(tile.get("name", card.name))
    return str(tile or card.name)


def excavate(state: State, cells: list) -> None:
    state.cave.undug -= set(cells)
    state.cave.collapsed -= set(cells)
    state.cave.open |= set(cells)
    for trapped in [s for s in state.squads.values() if s.at in cells]:
        trapped.trapped = False


def collapse(state: State, cells: list) -> None:
    state.cave.open -= set(cells)
    state.cave.collapsed |= set(cells)
    for squad in [s for s in state.squads.values() if s.at in cells]:
        squad.trapped = True
        if "collapse-deaths" in state.advanced:
            dead = [
                c
                for c in list(squad.creatures)
                if state.dice.roll(12, f"{c.name} caught in the Collapse (1 dies)", state.path) == 1
            ]
            if dead:
                death.kill_creatures(state, squad, dead, None)
