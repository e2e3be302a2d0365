"""Exact fight odds, by enumeration of the dice (no simulation).

A round is d12 + total against d12 + total, a tie rolled again, so the attacker takes a round
with probability P(a > d) / (1 - P(tie)), which depends only on the difference of the two
totals: the difference of two d12s has 23 values, so the 23 possible answers are computed
once. A Combat is best of three with independent rounds; the defender picks round two once
it knows round one's winner, to its best advantage. Because the attacker then needs one win
of the remaining two rounds (after winning round one) or both (after losing it), the order of
the last two rounds never changes the odds: both picks are computed and the better one taken,
and the laws test that they agree.

"Wins" means the attacker wins the Combat, so the defending squads die. A ranged attacker
that loses survives unless the defender answered with only its ranged creatures (12.2d-f):
`attacker_dies` is that probability, `defender` the probability the attacker fails.

`scores` is the whole outcome: the chance of each final score in rounds, attacker first
(2-0, 2-1, 1-2, 0-2). Either round-two pick leaves the defender the same chance, but not
the same scores; the scores follow the pick the odds name (`second`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from .fight import (
    FightError,
    Matchup,
    check_attribute,
    neighbours,
    other_neighbour,
    totals,
)

SIDES = 12
SCORES = ("2-0", "2-1", "1-2", "0-2")  # rounds taken by the attacker, then by the defender


def _round_table() -> dict[int, Fraction]:
    """P(the attacker takes a round) by (defender's total - attacker's total), -11..11."""
    ways = {d: SIDES - abs(d) for d in range(1 - SIDES, SIDES)}  # attacker die - defender die
    table = {}
    for gap in range(1 - SIDES, SIDES):
        wins = sum(n for d, n in ways.items() if d > gap)
        decided = SIDES * SIDES - ways[gap]
        table[gap] = Fraction(wins, decided)
    return table


ROUND = _round_table()


def round_odds(attacker: int, defender: int) -> Fraction:
    """P(the attacker takes one fight round) with these attribute totals, ties re-rolled."""
    # Beyond the table's ends nothing changes: 0 at 11 or more, 1 at -11 or less.
    return ROUND[min(SIDES - 1, max(1 - SIDES, defender - attacker))]


def four_places(p: Fraction) -> str:
    """`p` to four decimal places, exactly, halves rounded up: '0.6253'."""
    n = math.floor(p * 10_000 + Fraction(1, 2))
    return f"{n // 10_000}.{n % 10_000:04d}"


@dataclass(frozen=True)
class FirstOdds:
    """The odds when the attacker opens with `first`."""

    first: str
    attacker: Fraction  # P(the attacker wins: the defending squads die)
    defender: Fraction  # 1 - attacker
    attacker_dies: Fraction  # defender, or 0 when a losing ranged attacker survives
    rounds: dict[str, Fraction]  # P(the attacker takes a round) in first and its neighbours
    # the defender's round-two pick after the attacker lost / won round one (either neighbour
    # gives the same odds; the first of the ring's order is named)
    second: tuple[str, str]
    scores: dict[str, Fraction]  # "2-0", "2-1", "1-2", "0-2": rounds taken, attacker first

    def as_dict(self) -> dict:
        return {
            "first": self.first,
            "attacker": four_places(self.attacker),
            "defender": four_places(self.defender),
            "attacker_dies": four_places(self.attacker_dies),
            "exact": {
                "attacker": str(self.attacker),
                "defender": str(self.defender),
                "attacker_dies": str(self.attacker_dies),
                "scores": {s: str(p) for s, p in self.scores.items()},
            },
            "scores": {s: four_places(p) for s, p in self.scores.items()},
            "rounds": {a: four_places(p) for a, p in self.rounds.items()},
        }


def after_round_one(p: dict[str, Fraction], first: str, attacker_won: bool) -> dict:
    """The attacker's chance from round two on, for each round-two pick of the defender."""
    chances = {}
    for second in neighbours(first):
        third = next(a for a in neighbours(first) if a != second)
        if attacker_won:  # the attacker needs one of the two remaining rounds
            chances[second] = p[second] + (1 - p[second]) * p[third]
        else:  # the attacker needs both
            chances[second] = p[second] * p[third]
    return chances


def _defenders_pick(chances: dict[str, Fraction]) -> tuple[str, Fraction]:
    return min(chances.items(), key=lambda pick: pick[1])


def scores(p: dict[str, Fraction], first: str, second: tuple[str, str]) -> dict[str, Fraction]:
    """The chance of each final score, with round two in `second[0]` after the attacker lost
    round one and in `second[1]` after it won, round three in the other neighbour."""
    won, lost = p[first], 1 - p[first]
    after_win = (p[second[1]], p[other_neighbour(first, second[1])])
    after_loss = (p[second[0]], p[other_neighbour(first, second[0])])
    return {
        "2-0": won * after_win[0],
        "2-1": won * (1 - after_win[0]) * after_win[1] + lost * after_loss[0] * after_loss[1],
        "1-2": won * (1 - after_win[0]) * (1 - after_win[1])
        + lost * after_loss[0] * (1 - after_loss[1]),
        "0-2": lost * (1 - after_loss[0]),
    }


def first_odds(p: dict[str, Fraction], first: str, lethal: bool = True) -> FirstOdds:
    lost_pick, after_loss = _defenders_pick(after_round_one(p, first, attacker_won=False))
    won_pick, after_win = _defenders_pick(after_round_one(p, first, attacker_won=True))
    attacker = p[first] * after_win + (1 - p[first]) * after_loss
    rounds = {a: p[a] for a in (first, *neighbours(first))}
    return FirstOdds(
        first,
        attacker,
        1 - attacker,
        1 - attacker if lethal else Fraction(0),
        rounds,
        (lost_pick, won_pick),
        scores(p, first, (lost_pick, won_pick)),
    )


def odds(matchup: Matchup) -> dict[str, FirstOdds]:
    """The exact odds for each attribute the attacker may open with, in ring order."""
    attacker, defender = totals(matchup)
    p = {a: round_odds(attacker[a], defender[a]) for a in attacker}
    lethal = matchup.attacker_may_die
    return {first: first_odds(p, first, lethal) for first in matchup.first_attributes()}


def picked(matchup: Matchup, table: dict[str, FirstOdds]) -> FirstOdds:
    """The first attribute its chooser takes: the attacker's best, or, where a Mind ability
    hands the choice to the defender, the attacker's worst (the first of equals, ring order)."""
    if matchup.first_by == "defender":
        return min(table.values(), key=lambda o: o.attacker)
    return max(table.values(), key=lambda o: o.attacker)


def one_by_one(matchups: list[Matchup]) -> tuple[list[FirstOdds], Fraction]:
    """Combats fought one after another, each with its first attribute picked: the picks, and
    the chance that the attacker wins them all (it dies at its first loss)."""
    picks = [picked(m, odds(m)) for m in matchups]
    whole = Fraction(1)
    for pick in picks:
        whole *= pick.attacker
    return picks, whole


def chosen(matchup: Matchup, first: str | None = None) -> FirstOdds:
    """The odds for the given first attribute, or for the one its chooser takes."""
    table = odds(matchup)
    if first is None:
        return picked(matchup, table)
    if check_attribute(first) not in table:
        raise FightError(f"this attack cannot open with {first}")
    return table[first]


def odds_fact(matchup: Matchup, first: str | None = None) -> dict[str, float]:
    """{attacker: 0.6253, defender: 0.3747} to four places, for the given first attribute, or
    the one its chooser takes when none is given."""
    found = chosen(matchup, first)
    return {
        "attacker": float(four_places(found.attacker)),
        "defender": float(four_places(found.defender)),
    }
