"""Exact fight odds against hand-computed cases and a plain enumeration of the dice."""

from __future__ import annotations

from fractions import Fraction

import pytest
from cave_evil_fighters import matchup

from charnel.games.cave_evil.engine.fight import ATTRIBUTES, Creature, Matchup, Squad, neighbours
from charnel.games.cave_evil.engine.odds import (
    ROUND,
    four_places,
    odds,
    odds_fact,
    round_odds,
)


def flat(value: int, **other: int) -> tuple[Squad, ...]:
    """A one-creature side with `value` in every attribute but those given."""
    return (Squad((Creature("c", {a: other.get(a, value) for a in ATTRIBUTES}),)),)


def by_dice(attacker: int, defender: int) -> Fraction:
    """P(attacker takes a round), counting the 144 pairs of dice and leaving ties out."""
    pairs = [(a + attacker, d + defender) for a in range(1, 13) for d in range(1, 13)]
    wins = sum(a > d for a, d in pairs)
    return Fraction(wins, sum(a != d for a, d in pairs))


def by_rounds(p: dict[str, Fraction], first: str) -> Fraction:
    """P(attacker wins) over the eight ways three rounds can go (the majority wins; a third
    round not played changes nothing), the defender picking round two to minimise it."""

    def chance(won: bool, a: str) -> Fraction:
        return p[a] if won else 1 - p[a]

    def after(w1: bool) -> Fraction:
        options = []
        for second in neighbours(first):
            (third,) = set(neighbours(first)) - {second}
            options.append(
                sum(
                    chance(w2, second) * chance(w3, third)
                    for w2 in (True, False)
                    for w3 in (True, False)
                    if w1 + w2 + w3 >= 2
                )
            )
        return min(options)

    return p[first] * after(True) + (1 - p[first]) * after(False)


def test_round_table_matches_the_dice():
    for gap in range(-11, 12):
        assert round_odds(0, gap) == by_dice(0, gap)
    assert round_odds(3, 3) == Fraction(1, 2)
    assert round_odds(0, 11) == 0 and round_odds(0, 30) == 0
    assert round_odds(11, 0) == 1 and round_odds(30, 0) == 1
    assert ROUND[-3] == Fraction(11, 15)  # 3 ahead: 66 pairs of 144 win, 12 - 3 = 9 tie


def test_three_ahead_everywhere():
    # p = 11/15 in every round: p^2 (3 - 2p)
    table = odds(Matchup(flat(5), flat(2)))
    p = Fraction(11, 15)
    assert {o.attacker for o in table.values()} == {p * p * (3 - 2 * p)} == {Fraction(2783, 3375)}
    assert four_places(table["st"].attacker) == "0.8246"


def test_a_sure_round_and_a_hopeless_one():
    # st is certain (11 ahead), dd hopeless (11 behind), the rest even
    table = odds(Matchup(flat(0, st=11), flat(0, dd=11)))
    assert table["st"].attacker == Fraction(3, 4)  # st won, then one of two even rounds
    assert table["sp"].attacker == Fraction(1, 2)  # won sp: st follows; lost sp: dd is lost
    assert table["dd"].attacker == Fraction(1, 4)  # dd lost, then both even rounds
    assert table["bt"].attacker == Fraction(1, 2) * Fraction(1, 2) + Fraction(1, 2) * 0


def test_rulebook_squads_against_the_dice():
    fight = matchup(
        "Hunched One, Cavelling, Ghoul", "Necromonk, Horned Hellion + Cool Stretchy Headband"
    )
    from charnel.games.cave_evil.engine.fight import totals

    attacker, defender = totals(fight)
    p = {a: by_dice(attacker[a], defender[a]) for a in ATTRIBUTES}
    table = odds(fight)
    for first in ATTRIBUTES:
        assert table[first].attacker == by_rounds(p, first)
    # st: 19 against 10 - 6, certain; then lose both wp (1/142) and sp (78/133) to lose
    assert table["st"].attacker == 1 - Fraction(1, 142) * Fraction(78, 133) == Fraction(9404, 9443)
    assert four_places(table["st"].attacker) == "0.9959"


def test_four_places_rounds_halves_up():
    assert four_places(Fraction(12345, 100000)) == "0.1235"
    assert four_places(Fraction(1, 3)) == "0.3333"
    assert four_places(Fraction(1)) == "1.0000"
    assert four_places(Fraction(0)) == "0.0000"


def test_odds_fact_for_a_first_attribute_or_the_best():
    fight = Matchup(flat(0, st=11), flat(0, dd=11))
    assert odds_fact(fight, "dd") == {"attacker": 0.25, "defender": 0.75}
    assert odds_fact(fight) == {"attacker": 0.75, "defender": 0.25}


def test_ranged_odds_open_with_the_forced_attribute_and_spare_the_attacker():
    table = odds(matchup("Spitting Grub", "Cavelling", ranged=True))
    assert list(table) == ["wp"]
    assert table["wp"].attacker_dies == 0 and table["wp"].defender > 0
    answered = odds(matchup("Spitting Grub", "Spitting Grub", ranged=True, ranged_defence=True))
    assert answered["wp"].attacker_dies == answered["wp"].defender == Fraction(1, 2)


@pytest.mark.parametrize("first", ATTRIBUTES)
def test_as_dict_is_plain(first):
    row = odds(Matchup(flat(4), flat(6)))[first].as_dict()
    assert row["first"] == first and set(row["rounds"]) == {first, *neighbours(first)}
    assert float(row["attacker"]) + float(row["defender"]) == pytest.approx(1)
