"""Combat as the rules run it: who fights on each side (flanks, Wandering Monsters joining a
side, Ranged creatures only), three Fight Rounds from scripted dice, and what the result
does (death, Subdue, a Ranged attacker spared, a crushed Crystal).

Dice order, per roll: the attacker's d12, then the defender's; a tie rolls both again.
"""

from __future__ import annotations

from . import death, effects, fight, hexes, sides
from .sides import Party
from .state import (
    ATTRIBUTES,
    CONJURATION_DECKS,
    ExampleError,
    Fight,
    Illegal,
    Squad,
    State,
)


def run_fight(
    state: State,
    attackers: list[Party],
    defenders: list[Party],
    first: str | None,
    kind: str,
    *,
    ranged: bool = False,
    ranged_defence: bool = False,
) -> Fight:
    """Fight Rounds until one side has won two (rules in `fight`); the dice come from the
    script, the defender's round-two pick from the `second` choice. `first` as written in the
    step; left out where a Mind ability hands it to the defender, it is the `first` choice."""
    try:
        matchup = sides.matchup(
            attackers, defenders, ranged=ranged or kind == "ranged", ranged_defence=ranged_defence
        )
    except fight.FightError as exc:
        raise Illegal("fight", str(exc)) from None
    first = _first(state, first, matchup)
    record = Fight([p.squad.key for p in attackers], [p.squad.key for p in defenders], kind=kind)
    options = fight.neighbours(first)
    second = state.second or state.choices.take(
        "second", f"the defender picks round two: {' or '.join(options)}", state.path
    )
    state.second = None
    if second not in options:
        raise Illegal(
            "not-adjacent-attribute",
            f"round two must use {options[0]} or {options[1]}, the attributes beside {first} "
            f"on the ring, not {second}",
        )

    def dice():
        n = 0
        while True:
            n += 1
            who = "the attacker" if n % 2 else "the defender"
            yield state.dice.roll(12, f"{who}'s die in a fight round", state.path)

    try:
        result = fight.fight(matchup, first, second, dice())
    except fight.FightError as exc:
        raise Illegal("fight", str(exc)) from None
    for r in result.rounds:
        for roll in r.rolls:
            record.rounds.append(
                {
                    "attribute": r.attribute,
                    "attacker": roll.attacker,
                    "defender": roll.defender,
                    "winner": r.winner if roll is r.rolls[-1] else "tie",
                }
            )
    record.winner = result.winner
    record.ranged_defence = ranged_defence
    record.ranged = ranged or kind == "ranged"
    for p in (*attackers, *defenders):
        spent(state, p)
    return record


def _first(state: State, written: str | None, matchup: fight.Matchup) -> str:
    """The first round's attribute as its chooser picked it: written in the step, or, where a
    defending Mind ability hands the pick to the defender, its `first` choice (ruling 11.4h)."""
    if written is None:
        if matchup.first_by != "defender":
            raise ExampleError(state.path, "this action needs 'first'")
        written = state.choices.take(
            "first", "the defender picks the first attribute (a Mind ability)", state.path
        )
    if written not in ATTRIBUTES:
        raise ExampleError(
            (*state.path, "first"),
            f"unknown attribute '{written}' (known: {', '.join(ATTRIBUTES)})",
        )
    return written


def spent(state: State, p: Party) -> None:
    """Spells cast in a fight, and items used up by it, are discarded (rules 11.4g, 3.5a); a
    Pay to Use item's price leaves its squad's Control Card (3.5f)."""
    for card in p.used:
        for r, n in sides.price_of(card).items():
            p.squad.resources[r] -= n
        if card.kind == "spell" or card.use == "discard_after_use":
            if card in p.squad.items:
                p.squad.items.remove(card)
                if card.deck in CONJURATION_DECKS:
                    state.discards[card.deck].insert(0, card)
                else:
                    state.box.append(card)


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
    """Death for the loser's whole side, as the kind of fight decides; then what the cards of
    either side do once it is over."""
    won = record.winner == "attacker"
    losers = defenders if won else attackers
    dies = not (won and record.kind == "subdue") and not (
        not won and record.ranged and not record.ranged_defence
    )
    hooks = effects.HOOKS
    saved = hooks["spared"](state, losers) if dies else []
    was = hooks["before_deaths"](losers)
    _deaths(state, record, attackers, defenders)
    hooks["restore_spared"](state, saved)
    hooks["after_combat"](state, record, attackers if won else defenders, was)


def _deaths(state: State, record: Fight, attackers: list[Squad], defenders: list[Squad]) -> None:
    state.fights.append(record)
    attacker_owner = attackers[0].owner
    if record.winner == "attacker":
        if record.kind == "subdue":
            return
        for squad in defenders:
            record.killed.append(squad.key)
            death.kill(state, squad, attacker_owner)
        return
    if record.ranged and not record.ranged_defence:
        return  # a Ranged attacker that loses is not killed (a Ranged subduer neither)
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


def rip_apart(attacker: Squad) -> bool:
    return any(c.ability("rip_apart") for c in attacker.creatures)


__all__ = ["Party", "run_fight", "conclude", "exhaust", "in_contact", "pairing_exists"]
