"""Fight arithmetic: the ring, squad totals, fight rounds with scripted dice (rules 11-12)."""

from __future__ import annotations

import pytest
from cave_evil_fighters import matchup, pool

from charnel.games.cave_evil.engine.fight import (
    ATTRIBUTES,
    Creature,
    FightError,
    Matchup,
    Squad,
    fight,
    neighbours,
    other_neighbour,
    squad_total,
    totals,
)

JASON = "Hunched One, Cavelling, Ghoul"
JOANNA = "Necromonk, Horned Hellion + Cool Stretchy Headband"


def test_ring_neighbours():
    assert neighbours("st") == ("wp", "sp")
    assert neighbours("wp") == ("ar", "st")
    assert neighbours("bt") == ("dd", "ar")
    assert other_neighbour("wp", "st") == "ar"  # the rulebook's own example, L833
    with pytest.raises(FightError, match="neighbours of st"):
        other_neighbour("st", "dd")
    with pytest.raises(FightError, match="unknown attribute 'xx'"):
        neighbours("xx")


def test_rulebook_combat_example():
    """L859-877: Strength won by Joanna's squad's binding-shrunk total, Special lost, Weapon won."""
    result = fight(matchup(JASON, JOANNA), "st", "sp", [2, 12, 6, 7, 5, 8])
    assert [(r.attribute, r.rolls[-1].attacker, r.rolls[-1].defender) for r in result.rounds] == [
        ("st", 21, 16),  # 19 + 2 against 10 + 12 - 3 for each of her two creatures
        ("sp", 21, 23),  # 15 + 6 against 13 + 7 + 3 for the Headband
        ("wp", 23, 16),
    ]
    assert [r.winner for r in result.rounds] == ["attacker", "defender", "attacker"]
    assert (result.winner, result.killed, result.dice_used) == ("attacker", "defender", 6)


def test_two_wins_end_the_fight_and_ties_roll_again():
    result = fight(matchup(JASON, JOANNA), "st", "wp", [5, 5, 12, 1])
    assert [(r.attribute, r.winner) for r in result.rounds] == [
        ("st", "attacker"),
        ("wp", "attacker"),
    ]
    assert result.dice_used == 4
    # Cavelling against Cavelling: every equal pair of dice is a tie, rolled again
    tied = fight(matchup("Cavelling", "Cavelling"), "dd", "sp", [3, 3, 7, 7, 8, 2, 4, 1])
    assert [len(r.rolls) for r in tied.rounds] == [3, 1]
    assert tied.winner == "attacker" and tied.dice_used == 8


def test_dice_missing_or_impossible():
    with pytest.raises(FightError, match="needs a die more than the 3 given"):
        fight(matchup("Cavelling", "Cavelling"), "dd", "sp", [3, 3, 7])
    with pytest.raises(FightError, match="1 to 12, not 13"):
        fight(matchup("Cavelling", "Cavelling"), "dd", "sp", [13, 3])


def test_binding_is_per_creature_and_never_below_zero():
    # Insectoid: -3 Special to each enemy creature; the Cavelling has SP 1, floored at 0.
    attacker, defender = totals(matchup("Insectoid", "Cavelling, Necromonk"))
    assert defender["sp"] == 0 + 5
    attacker, defender = totals(matchup("Insectoid, Hunched One", "Ghoul, Horned Hellion"))
    assert defender["st"] == (11 - 3) + (7 - 3) and defender["sp"] == 4 + 2
    assert attacker["st"] == 5 + 4


def test_combat_abilities_by_role_and_item_bonuses():
    attacking, defending = totals(matchup("Gore Hound + Spiked Shield", "Gore Hound"))
    assert attacking["bt"] == 9 + 3 and defending["bt"] == 9
    assert attacking["ar"] == 2 + 6 and defending["ar"] == 2


def test_flanking_adds_squads_and_binding_reaches_only_the_principal_squad():
    attacker, defender = totals(matchup("Hunched One / Ghoul", "Horned Hellion / Cavelling"))
    assert attacker["st"] == 4 + 11
    assert defender["st"] == (7 - 3) + 4  # the flanking Cavelling is not bound (ruling A10)
    # the flanking Insectoid's binding still reaches the principal enemy squad
    attacker, defender = totals(matchup("Ghoul / Insectoid", "Necromonk"))
    assert defender["sp"] == 8 - 3


def test_squad_total_floors_the_sum_at_zero():
    weak = Squad((Creature("w", {"ar": 1}, ({"combat": {"ar": -4}},)),))
    assert squad_total(weak, "ar", "attacking") == 0


def test_ranged_attack_counts_only_ranged_creatures_and_spares_a_losing_attacker():
    ranged = matchup("Spitting Grub, Ghoul", "Cavelling", ranged=True)
    attacker, _ = totals(ranged)
    assert attacker["wp"] == 6
    assert ranged.first_attributes() == ("wp",)
    with pytest.raises(FightError, match="must open with wp"):
        fight(ranged, "st", "sp", [1, 12])
    lost = fight(ranged, "wp", "ar", [1, 12, 1, 12])
    assert (lost.winner, lost.killed) == ("defender", None)
    # a flanking squad without a ranged creature adds nothing, not even its items
    flanked = matchup("Spitting Grub / Ghoul + Spiked Shield", "Cavelling", ranged=True)
    assert totals(flanked)[0]["ar"] == 1
    answered = matchup("Spitting Grub", "Spitting Grub, Ghoul", ranged=True, ranged_defence=True)
    assert totals(answered)[1]["wp"] == 6
    assert fight(answered, "wp", "ar", [1, 12, 1, 12]).killed == "attacker"


@pytest.mark.parametrize(
    ("attacker", "defender", "how", "message"),
    [
        ("Ghoul", "Cavelling / Ghoul", {"ranged": True}, "no flanking squads"),
        ("Ghoul", "Cavelling", {"ranged": True}, "needs a creature with a ranged ability"),
    ],
)
def test_impossible_matchups(attacker, defender, how, message):
    with pytest.raises(FightError, match=message):
        totals(matchup(attacker, defender, **how))


def test_a_ranged_defence_answers_only_a_ranged_attack():
    side = matchup("Ghoul", "Cavelling").attacker
    with pytest.raises(FightError, match="answers only a ranged attack"):
        Matchup(side, side, ranged_defence=True)


def test_unknown_card_names_the_nearest():
    with pytest.raises(
        FightError, match="no creature, item or spell named 'Gohul'; nearest: 'Ghoul'"
    ):
        pool().card("Gohul")


def test_every_attribute_has_a_total():
    attacker, defender = totals(matchup(JASON, JOANNA))
    assert list(attacker) == list(ATTRIBUTES) == list(defender)
