"""Death: the losing squad dies; its creature cards become the victor's Kill Points (Enemy
from a player's squad, Wandering from a Wandering Monster), the slain spew Gore by size
(Large 3, Medium 2, Small 1), and when the squad is gone its items, spells and resources fall
on its space. A dead Necromancer puts its player out."""

from __future__ import annotations

from fractions import Fraction

from . import effects
from .state import (
    GORE_BY_SIZE,
    KILL_POINTS,
    RESOURCES,
    Card,
    Squad,
    State,
)


def kill(state: State, squad: Squad, victor: str | None, *, removed: bool = False) -> None:
    """The whole squad dies. `victor`: the player whose squad won (None: the cards go to the
    box); `removed`: a failed Subdue, whose cards go to the box."""
    kill_creatures(state, squad, list(squad.creatures), None if removed else victor)


def kill_creatures(state: State, squad: Squad, dead: list[Card], victor: str | None) -> None:
    where = squad.at
    ground = state.ground_at(where) if where is not None else None
    player = state.players.get(victor) if victor else None
    necromancer = None
    for card in dead:
        squad.creatures.remove(card)
        if ground is not None:
            ground.resources["gore"] += gore([card])
        if card.kind == "necromancer":
            necromancer = card
        if player is None:
            state.box.append(card)
        elif squad.wandering:
            player.kills_wandering.append(card)
        else:
            player.kills_enemy.append(card)
    if not squad.creatures:
        state.squads.pop(squad.key, None)  # its own marker pair is free for what it drops
        if ground is not None:
            for r in RESOURCES:
                ground.resources[r] += squad.resources[r]
            drop_items(state, where, squad.items)
        squad.items = []
        squad.resources = dict.fromkeys(RESOURCES, 0)
        squad.dig = None
    if necromancer is not None and squad.owner is not None:
        # a split Black Wizard's other half lives on
        if not effects.HOOKS["successor"](state, squad):
            necromancer_dies(state, squad.owner, victor)


def necromancer_dies(state: State, owner: str, slayer: str | None = None) -> None:
    """Its player is out. Its N squad's goods fall; every creature it controlled becomes a
    Wandering Monster, or, under the advanced rule with 3 or 4 players, the slaying player
    takes its squads I-V."""
    player = state.players[owner]
    if player.out:
        return
    player.out = True
    n = state.squads.get(f"{owner} N")
    if n is not None:
        necromancer = n.necromancer()
        if necromancer is not None:  # its Crystal was crushed: it dies where it stands
            kill_creatures(state, n, [necromancer], slayer)
        if n.creatures and n.at is not None:
            ground = state.ground_at(n.at)
            drop_items(state, n.at, n.items)
            for r in RESOURCES:
                ground.resources[r] += n.resources[r]
            n.items, n.resources = [], dict.fromkeys(RESOURCES, 0)
    takes = (
        slayer is not None
        and slayer != owner
        and "necromancer-death" in state.advanced
        and len(state.order) >= 3
    )
    for squad in list(state.squads_of(owner)):
        del state.squads[squad.key]
        if takes and squad.label != "N":
            squad.owner = slayer
            while squad.key in state.squads:  # the slayer's own card of that number is in use
                squad.label += "'"
        else:
            squad.owner, squad.label = None, next_marker(state)
        state.squads[squad.key] = squad
    alive = [p for p in state.order if not state.players[p].out]
    if len(alive) == 1 and state.winner is None:
        state.winner = alive[0]


def drop_items(state: State, at, items: list[Card]) -> None:
    """Items and spells left on a space are marked with a Wandering Marker pair, one on the
    space and one on the cards (rules 11.3b, 15.2f); cards that join them share the pair."""
    if not items:
        return
    ground = state.ground_at(at)
    if not ground.items or ground.marker is None:
        ground.marker = next_marker(state)
    ground.items.extend(items)


def next_marker(state: State) -> str:
    used = {s.label for s in state.squads.values() if s.wandering}
    used |= {g.marker for g in state.ground.values() if g.items and g.marker}
    for letter in "ABCDEFGHIKLMNOP":  # fifteen pairs, no J
        if letter not in used:
            return letter
    n = 1
    while f"W{n}" in used:
        n += 1
    return f"W{n}"  # markers ran out: players improvise


def kill_points(cards: list[Card], enemy: bool) -> float:
    return float(exact_kill_points(cards, enemy))


def exact_kill_points(cards: list[Card], enemy: bool) -> Fraction:
    """What the cards are worth as Enemy (or Wandering) Kill Points (16.2b)."""
    return Fraction(sum(KILL_POINTS[c.size][0 if enemy else 1] for c in cards), 8)


def gore(cards: list[Card]) -> int:
    """The Gore the slain cards spew on their space (11.3c)."""
    return sum(GORE_BY_SIZE[c.size] for c in cards)


def enemy_points(state: State) -> dict[str, float]:
    """The Enemy Kill Points of each player still in the game, in turn order."""
    alive = [p for p in state.order if not state.players[p].out]
    return {p: kill_points(state.players[p].kills_enemy, True) for p in alive}


def by_enemy_points(state: State, *, fewest: bool = False) -> str:
    """The player with the most (or the fewest) Enemy Kill Points; tied, each tied player
    rolls a D12 in turn order and the highest (the lowest) is chosen, equal ones rolling
    again (17.2b, 19.8b)."""
    best, word = (min, "fewest") if fewest else (max, "most")
    points = enemy_points(state)
    tied = [p for p in points if points[p] == best(points.values())]
    while len(tied) > 1:
        rolls = {
            p: state.dice.roll(12, f"{p}, tied for the {word} Enemy Kill Points", state.path)
            for p in tied
        }
        tied = [p for p in tied if rolls[p] == best(rolls.values())]
    return tied[0]
