"""Combat as the rules run it: who fights on each side (flanks, Wandering Monsters joining a
side, Ranged creatures only), three Fight Rounds from scripted dice, and what the result
does (death, Subdue, a Ranged attacker spared, a crushed Crystal).

Dice order, per roll: the attacker's d12, then the defender's; a tie rolls both again.
"""

from __future__ import annotations

from dataclasses import dataclass

from charnel.games.cave_evil.engine import death, hexes
from charnel.games.cave_evil.engine import fight_standin as fight
from charnel.games.cave_evil.engine.squads import use_capacity
from charnel.games.cave_evil.engine.state import (
    ATTRIBUTES,
    Card,
    ExampleError,
    Fight,
    Illegal,
    Squad,
    State,
)


@dataclass
class Party:
    """One squad's part in a fight: the creatures that take part, and whether its items
    and abilities count (a Crystal's astral Necromancer has neither)."""

    squad: Squad
    creatures: list[Card]
    items: bool = True
    abilities: bool = True


def side_of(parties: list[Party], role: str) -> fight.Side:
    """A side as the fight arithmetic reads it: the principal squad first."""
    squads = []
    for p in parties:
        bonuses: list[dict[str, int]] = []
        if p.items:
            usable = use_capacity(p.squad.creatures)
            casters = any(c.spellcaster for c in p.squad.creatures)
            for item in p.squad.items:
                for bonus in item.ability("bonus"):
                    if item.kind == "spell" and not casters:
                        continue
                    if item.kind != "spell":
                        if usable <= 0:
                            continue
                        usable -= 1
                    bonuses.append(dict(bonus))
        squads.append(
            fight.SquadInFight(
                creatures=[
                    fight.Fighter(
                        dict(c.attributes),
                        combat=[dict(a) for a in c.ability("combat")] if p.abilities else [],
                        binding=[dict(a) for a in c.ability("binding")] if p.abilities else [],
                    )
                    for c in p.creatures
                ],
                bonuses=bonuses,
            )
        )
    return fight.Side(squads=squads, role=role)


def run_fight(
    state: State, attackers: list[Party], defenders: list[Party], first: str, kind: str
) -> Fight:
    """Fight Rounds until one side has won two; returns the record (winner attacker or
    defender)."""
    if first not in ATTRIBUTES:
        raise ExampleError(
            (*state.path, "first"),
            f"unknown attribute '{first}' (known: {', '.join(ATTRIBUTES)})",
        )
    record = Fight(
        [p.squad.key for p in attackers], [p.squad.key for p in defenders], kind=kind
    )
    att, dfd = side_of(attackers, "attacking"), side_of(defenders, "defending")
    wins = {"attacker": 0, "defender": 0}
    attribute = first
    for n in (1, 2, 3):
        if n == 2:
            options = fight.neighbours(first)
            attribute = state.choices.take(
                "second",
                f"the defender picks round two: {' or '.join(options)}",
                state.path,
            )
            if attribute not in options:
                raise Illegal(
                    "not-adjacent-attribute",
                    f"round two must use {options[0]} or {options[1]}, the attributes beside "
                    f"{first} on the ring, not {attribute}",
                )
        elif n == 3:
            attribute = next(a for a in fight.neighbours(first) if a != record.rounds[1]["attribute"])
        while True:
            a_die = state.dice.roll(12, f"the attacker in round {n} ({attribute})", state.path)
            d_die = state.dice.roll(12, f"the defender in round {n} ({attribute})", state.path)
            a_total, d_total = fight.round_totals(att, dfd, attribute, a_die, d_die)
            if a_total != d_total:
                break
            record.rounds.append(
                {"attribute": attribute, "attacker": a_total, "defender": d_total, "winner": "tie"}
            )
        won = "attacker" if a_total > d_total else "defender"
        wins[won] += 1
        record.rounds.append(
            {"attribute": attribute, "attacker": a_total, "defender": d_total, "winner": won}
        )
        if wins[won] == 2:
            record.winner = won
            break
    return record


def adjacent(a: Squad, b: Squad) -> bool:
    return a.at is not None and b.at is not None and hexes.adjacent(a.at, b.at)


def in_contact(state: State, attackers: list[Squad]) -> list[Squad]:
    """Squads that would defend: every squad not the attacker's, adjacent to an attacker."""
    owner = attackers[0].owner
    return [
        s
        for s in state.squads.values()
        if s.owner != owner and not s.trapped and any(adjacent(s, a) for a in attackers)
    ]


def pairing_exists(attackers: list[Squad], enemies: list[Squad]) -> bool:
    """Whether every attacking squad can be matched with a different adjacent enemy squad."""

    def match(i: int, used: frozenset[int]) -> bool:
        if i == len(attackers):
            return True
        return any(
            j not in used and adjacent(attackers[i], e) and match(i + 1, used | {j})
            for j, e in enumerate(enemies)
        )

    return match(0, frozenset())


def conclude(state: State, record: Fight, attackers: list[Squad], defenders: list[Squad]) -> None:
    """Death for the loser's whole side, as the kind of fight decides."""
    state.fights.append(record)
    attacker_owner = attackers[0].owner
    if record.winner == "attacker":
        if record.kind == "subdue":
            return
        for squad in defenders:
            record.killed.append(squad.key)
            death.kill(state, squad, attacker_owner)
        return
    if record.kind == "ranged" and not record.ranged_defence:
        return  # a Ranged attacker that loses is not killed
    victor = next((s.owner for s in defenders if s.owner is not None), None)
    for squad in attackers:
        record.killed.append(squad.key)
        death.kill(state, squad, victor, removed=record.kind == "subdue")


def exhaust(squads: list[Squad]) -> None:
    """A squad that fought, hired or subdued has taken its action and moves no more."""
    for squad in squads:
        for c in squad.creatures:
            c.acted = True
            c.halted = True


def party(squad: Squad, creatures: list[Card] | None = None) -> Party:
    return Party(squad, list(squad.creatures if creatures is None else creatures))


def rip_apart(attacker: Squad) -> bool:
    return any(c.ability("rip_apart") for c in attacker.creatures)


__all__ = ["Party", "run_fight", "conclude", "exhaust", "in_contact", "pairing_exists"]
