"""The awakened evils that walk the cave: the Eternal Evil Emperor marching on the necromancer
named for it (17.5), the Evil Black Old Goat's rampage (17.3), and a squad attacking an evil
that may be fought. The evil's marker starts on The Pit; where it stands is kept in
`state.marks["evil at"]`. Every path is scripted (`path`), the engine holds it to the card."""

from __future__ import annotations

from typing import Any

from .. import death, hexes
from ..state import (
    ExampleError,
    Illegal,
    Squad,
    State,
)
from . import effect, evil, flag

# The map's compass on the axial grid, north at the top (r falling): east and west run along
# a hex line; north and south zig-zag between the two directions nearest them (ruling 17.3i).
COMPASS = {1: ((0, -1), (1, -1)), 2: ((1, 0),), 3: ((0, 1), (-1, 1)), 4: ((-1, 0),)}


def at(state: State) -> hexes.Hex:
    where = state.marks.get("evil at") or state.cave.the_pit
    if where is None:
        raise ExampleError(("given", "cave"), "the evil stands on The Pit: give cave.pit")
    return where


def _path(state: State, args: Any) -> list[hexes.Hex]:
    written = args.need("path")
    if not isinstance(written, list):
        raise ExampleError(args.at("path"), "a path is a list of hexes")
    try:
        return [hexes.parse(h) for h in written]
    except ValueError as exc:
        raise ExampleError(args.at("path"), str(exc)) from None


def _dig(state: State, args: Any, here: hexes.Hex, step: hexes.Hex, *, anywhere: bool) -> None:
    """An undug or collapsed step is excavated at once: the top excavation card's tile (events
    boxed, text ignored) is laid with its first space on that step."""
    from ..conjure import draw_past_events, to_box
    from ..excavation import excavate, lay_tile, tile_cells

    card = draw_past_events(state, "excavation", to_box(state))
    cells = tile_cells(state, card, args.get("tile") if args.has("tile") else None, args.at("tile"))
    if cells[0] != step:
        raise Illegal("first-space", f"the tile's first space is {hexes.show(step)}")
    if anywhere:  # over Spawn Pits, in Lairs, over the steel (the Emperor)
        lair, pits = state.cave.lair, state.cave.pits
        state.cave.lair, state.cave.pits = set(), set()
        try:
            lay_tile(state, card, cells)
        finally:
            state.cave.lair, state.cave.pits = lair | state.cave.lair, pits | state.cave.pits
    else:
        lay_tile(state, card, cells)
    state.box.append(card)
    excavate(state, cells)


def _shadow(state: State) -> Squad:
    card = evil.card(state)
    if card is None:
        raise Illegal("no-evil", "no Awakening Evil is in play")
    return Squad(None, "awakened", at=at(state), creatures=[card])


def _fight(
    state: State,
    args: Any,
    evil_attacks: bool,
    squad: Squad,
    first: str,
    *,
    bare: bool = False,
    items: bool = False,
) -> str:
    """One Combat between the evil and a squad, nobody's items counting against it; returns
    the winner's side, 'evil' or 'squad'."""
    from .. import combat
    from ..sides import Party

    shadow = _shadow(state)
    theirs = Party(squad, list(squad.creatures), items=items, abilities=not bare)
    mine = Party(shadow, list(shadow.creatures), items=False)
    sides = ([mine], [theirs]) if evil_attacks else ([theirs], [mine])
    record = combat.run_fight(state, *sides, first, "awakened")
    record.attacker = [state.awakening] if evil_attacks else [squad.key]
    record.defender = [squad.key] if evil_attacks else [state.awakening]
    state.fights.append(record)
    evil_won = (record.winner == "attacker") == evil_attacks
    if evil_won:
        record.killed = [squad.key]
        death.kill(state, squad, None)  # nobody earns Kill Points from the evil's kills
        return "evil"
    record.killed = [state.awakening or "awakened"]
    state.marks["evil dead"] = True
    wins = ("slayer_wins", "necromancer_duel")
    if squad.owner is not None and any(evil.has(state, w) is not None for w in wins):
        state.winner = squad.owner
    return "squad"


# --- the Emperor ----------------------------------------------------------------------------


def _aim(state: State, args: Any) -> str:
    """The necromancer the Emperor goes for: named by the player with the most Enemy Kill
    Points (ties: D12, highest), or, with no Kill Points anywhere, the Lair a D4 picks,
    counted from the first player's; it stays until its necromancer dies or someone leads."""
    points = death.enemy_points(state)
    alive = list(points)
    if any(points.values()):
        state.marks["emperor aim"] = args.need("target")
    else:
        kept = state.marks.get("emperor aim")
        if kept not in alive:
            while True:
                lair = state.dice.roll(4, "the Lair the Emperor goes for", state.path)
                if lair <= len(state.order) and not state.players[state.order[lair - 1]].out:
                    break
            state.marks["emperor aim"] = state.order[lair - 1]
    aim = state.marks["emperor aim"]
    if aim not in alive:
        raise Illegal("no-target", f"'{aim}' is no necromancer in the game")
    if any(points.values()):
        who = death.by_enemy_points(state)
        if args.actor != who:
            raise Illegal(
                "not-the-leader", f"{who} has the most Enemy Kill Points and names the aim"
            )
    return aim


def emperor_marches(state: State, args: Any) -> None:
    """The `emperor_marches` step, at the beginning of a cycle: {target, path, first: [...]}."""
    if not state.awakened or evil.has(state, "march") is None or state.marks.get("evil dead"):
        raise Illegal("not-awakened", "no awakened Emperor marches")
    aim = _aim(state, args)
    n = state.n_squad(aim)
    crystal = state.players[aim].crystal
    goals = [g for g in (n.at if n else None, crystal) if g is not None]
    here = at(state)
    near = min(hexes.distance(here, g) for g in goals)
    goals = [g for g in goals if hexes.distance(here, g) == near]
    firsts = list(args.get("first") or [])
    steps = _path(state, args)
    card = evil.card(state)
    if len(steps) > card.movement:
        raise Illegal("too-far", f"the Emperor moves {card.movement} spaces a cycle")
    for step in steps:
        if not any(
            hexes.distance(step, g) == hexes.distance(here, g) - 1 for g in goals
        ) or not hexes.adjacent(step, here):
            raise Illegal("off-course", f"{hexes.show(step)} is no step toward {aim}'s necromancer")
        if not state.cave.is_open(step):
            _dig(state, args, here, step, anywhere=True)
        there = state.occupant(step)
        if there is not None:
            if not firsts:
                raise ExampleError(
                    args.at("first"), "each Combat on the way needs its first attribute"
                )
            if _fight(state, args, True, there, firsts.pop(0)) == "squad":
                return
        if step == crystal and state.players[aim].crystal == step and not state.players[aim].out:
            death.necromancer_dies(state, aim, None)  # its crystal crushed
        here = step
        state.marks["evil at"] = here
        goals = [g for g in goals if g != step] or goals


effect(
    "march",
    kinds=("awakening-evil",),
    clause="19.13b",
    role="the evil that marches on a necromancer",
    check=flag,
    wording=lambda v: [
        "Each cycle the player with the most Enemy Kill Points names a Necromancer, even their "
        "own; the Emperor moves toward that Necromancer's N Squad or Chthonic Crystal, whichever "
        "is nearer, fighting every Squad in its way and digging through anything"
    ],
)
effect(
    "unstoppable",
    kinds=("awakening-evil",),
    clause="19.13b",
    role="the evil that digs through anything",
    check=flag,
    wording=lambda v: [
        "Nothing stops its march: not Spawn Pits, not Lairs, not the corrupted steel around them"
    ],
)
effect(
    "slayer_wins",
    kinds=("awakening-evil",),
    clause="19.13d",
    role="the evil whose killer wins",
    check=flag,
    wording=lambda v: ["The first player to do so wins"],
)


def attack_evil(state: State, args: Any) -> None:
    """The `attack_evil` step: a squad beside an awakened evil that may be fought attacks it."""
    from ..battle import _ready

    squad = args.squad()
    fightable = any(evil.has(state, a) is not None for a in ("march", "rampage", "awake_fight"))
    if not state.awakened or not fightable or state.marks.get("evil dead"):
        raise Illegal("not-fightable", "no awakened evil here may be attacked")
    if not hexes.adjacent(squad.at, at(state)):
        raise Illegal("not-adjacent", f"{squad.key} is not beside the evil")
    bare = evil.has(state, "rampage") is not None
    if bare:
        if squad.label != "N":
            raise Illegal("necromancer-only", "only a necromancer may fight the Goat")
        eviscerate(state, squad)
    from .. import combat

    _ready(state, squad, args.actor)
    combat.exhaust([squad])  # a squad that fought has taken its action
    everything = evil.has(state, "awake_fight") is not None
    if (
        _fight(state, args, False, squad, args.attribute("first"), bare=bare, items=everything)
        == "squad"
    ):
        _leave_eyes(state)


def _leave_eyes(state: State) -> None:
    """The dead Statue's Glowing Eyes and Gore lie where it stood (The Pit). Any creature may
    carry the marker: it brings its own place to carry it (ruling 19.13f)."""
    from ..state import Card

    gore = evil.has(state, "glowing_eyes")
    if gore is None:
        return
    ground = state.ground_at(at(state))
    ground.resources["gore"] += gore
    ground.items.append(Card(name=evil.EYES, kind="item", abilities=[{"carry_more": 1}]))


def after_step(state: State, squad: Squad) -> None:
    """After any step: the awakened Goat eviscerates its new neighbours; a squad bringing the
    Eyes onto its own crystal wins, unless its player used a once-per-game ability this turn."""
    beside_goat(state)
    if squad.owner is None or not any(i.name == evil.EYES for i in squad.items):
        return
    if evil.has(state, "eyes_race") is None:
        return
    player = state.players[squad.owner]
    if squad.at == player.crystal and ("once used", state.cycle, squad.owner) not in state.marks:
        state.winner = squad.owner


# --- the Goat -------------------------------------------------------------------------------


def eviscerate(state: State, squad: Squad) -> None:
    """Killed without Combat, cards to the box, no Gore; a necromancer is spared, and a squad
    left empty leaves its goods on its space (ruling 17.3i)."""
    for card in [c for c in squad.creatures if c.kind != "necromancer"]:
        squad.creatures.remove(card)
        state.box.append(card)
    if not squad.creatures:
        death.kill_creatures(state, squad, [], None)


def beside_goat(state: State) -> None:
    """Every player's squad beside the awakened Goat is eviscerated."""
    if not state.awakened or evil.has(state, "rampage") is None or state.marks.get("evil dead"):
        return
    here = at(state)
    for squad in list(state.squads.values()):
        if squad.owner is not None and squad.at is not None and hexes.adjacent(squad.at, here):
            eviscerate(state, squad)


def goat_rampages(state: State, args: Any) -> None:
    """The `goat_rampages` step, at the beginning of a cycle: the first player's D4 gives the
    direction; `path` is the way the leading player makes it go."""
    if not state.awakened or evil.has(state, "rampage") is None or state.marks.get("evil dead"):
        raise Illegal("not-awakened", "no awakened Goat rampages")
    way = COMPASS[state.dice.roll(4, "the Goat's direction (1 N, 2 E, 3 S, 4 W)", state.path)]
    here = at(state)
    steps = _path(state, args)
    card = evil.card(state)
    if len(steps) != card.movement:
        raise Illegal("too-short", f"the Goat moves its full {card.movement} spaces")
    beside_goat(state)
    for step in steps:
        if (step[0] - here[0], step[1] - here[1]) not in way:
            raise Illegal(
                "off-course", f"{hexes.show(step)} is not that way from {hexes.show(here)}"
            )
        if not state.cave.is_open(step):
            _dig(state, args, here, step, anywhere=False)
        if state.occupant(step) is not None:
            raise Illegal("blocked", f"a necromancer stands on {hexes.show(step)}")
        here = step
        state.marks["evil at"] = here
        beside_goat(state)


effect(
    "rampage",
    kinds=("awakening-evil",),
    clause="19.13e",
    role="the evil that rampages",
    check=flag,
    wording=lambda v: [
        "Kill Points no longer matter. Each cycle the first player rolls a D4 (1 North, 2 East, "
        "3 South, 4 West); it moves 3 spaces that way, digging through anything, and eviscerates "
        "every Squad it moves next to or that moves next to it, Necromancers excepted"
    ],
)
effect(
    "necromancer_duel",
    kinds=("awakening-evil",),
    clause="19.13d",
    role="the evil only a necromancer may fight",
    check=flag,
    wording=lambda v: [
        "Kill it in Combat: only a Necromancer adjacent to it may attack it, as the Attacker, "
        "with its own attributes alone"
    ],
)
effect(
    "fought_bare",
    kinds=("awakening-evil",),
    clause="19.13d",
    role="the evil fought with no items, spells or once-per-game abilities",
    check=flag,
    wording=lambda v: [
        "Kill it in Combat, without Items, Spells, Mind abilities or once-per-game abilities"
    ],
)
