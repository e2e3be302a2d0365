"""`charnel odds --compare` and `--flip` on the bundled cards: each line and the flipping card
agree with `charnel odds` run on that line alone."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from charnel.cli import app

REPO = Path(__file__).parents[3]


def odds(*args: str):
    result = CliRunner().invoke(app, ["odds", *args, "--root", str(REPO), "--game", "cave-evil"])
    return result


def odds_json(*args: str) -> dict:
    result = odds(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


LINES = [
    ("Cavelling / Necromonk", "Ghoul, Horned Hellion"),
    ("Cavelling, Lantern Thief / Necromonk", "Ghoul, Horned Hellion"),
    ("Crossbow Brigand", "Cavelling"),
]


@pytest.mark.parametrize("modes", [[], ["--mode", "ranged"]])
def test_each_compared_line_is_what_charnel_odds_says_of_it(modes):
    lines = LINES[2:] * 2 if modes else LINES
    more = [a for line in lines[1:] for a in ("--compare", " vs ".join(line))]
    compared = odds_json(*lines[0], *modes, *more)
    assert compared["lines"] == [odds_json(*line, *modes) for line in lines]


def test_the_comparison_table_has_a_row_a_line():
    result = odds(*LINES[0], "--compare", " vs ".join(LINES[1]))
    assert result.exit_code == 0, result.output
    assert "2 lines of play compared" in result.stdout
    assert "0.1953" in result.stdout and "0.6677" in result.stdout


@pytest.mark.parametrize("threshold", ["1/2", "0.9", "80%"])
def test_the_flipping_card_is_what_charnel_odds_says_with_it(threshold):
    found = odds_json(*LINES[0], "--flip", threshold)
    card = found["card"]
    assert card is not None
    alone = odds_json(card["line"], LINES[0][1])
    assert card["odds"] == alone
    wanted = Fraction(found["threshold"])
    assert (
        Fraction(alone["result"]["attacker"])
        >= wanted
        > Fraction(found["before"]["result"]["attacker"])
    )
    assert card["name"] in card["line"]


def test_no_cheaper_card_flips_it():
    """Every card of a lower cost, added to any squad, leaves the attacker short (or cannot be
    added): the answer is the cheapest."""
    from charnel.diagnostics import Problems
    from charnel.games.cave_evil.engine.fight import FightError
    from charnel.games.cave_evil.fighters import Pool
    from charnel.games.cave_evil.odds_lines import FLIP_KINDS, cost_of
    from charnel.games.cave_evil.odds_report import fight_odds
    from charnel.sources import loader

    found = odds_json(*LINES[0], "--flip", "0.9")["card"]
    records = loader.load(REPO, "cave-evil", Problems())
    for body in Pool(records.cards).by_key.values():
        if body.get("type", "creature") not in FLIP_KINDS or cost_of(body) >= found["cost"]:
            continue
        for line in (
            f"Cavelling, {body['name']} / Necromonk",
            f"Cavelling / Necromonk, {body['name']}",
        ):
            try:
                chance = fight_odds(records.cards, line, LINES[0][1])["data"]["result"]["attacker"]
            except FightError:
                continue
            assert Fraction(chance) < Fraction(9, 10), line


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--compare", "Ghoul"], "error: a line of play is 'ATTACKER vs DEFENDER', not 'Ghoul'"),
        (
            ["--compare", "Gohul vs Ghoul"],
            "error: line 2: no creature, item or spell named 'Gohul'",
        ),
        (["--flip", "lots"], "error: a threshold is a chance such as 2/3, 0.6 or 60%, not 'lots'"),
        (["--flip", "120%"], "error: a threshold is above 0 and at most 1, not '120%'"),
        (["--flip", "1/2", "--compare", "Ghoul vs Ghoul"], "error: ask for --compare or --flip"),
    ],
)
def test_bad_lines_and_thresholds_are_one_line(args, message):
    result = odds("Cavelling", "Ghoul", *args)
    assert result.exit_code == 1
    assert result.stderr.startswith(message), result.stderr
    assert "Traceback" not in result.output


def test_a_side_already_past_the_threshold_needs_no_card():
    found = odds_json("Ghoul", "Cavelling", "--flip", "1/2")
    assert found["card"] is None


def test_a_search_past_its_bound_stops_with_an_error():
    """A server's search for what flips it is bounded in time: past it, a refusal, no card."""
    from charnel.diagnostics import Problems
    from charnel.games.cave_evil.engine.fight import FightError
    from charnel.games.cave_evil.odds_lines import flip
    from charnel.sources import loader

    records = loader.load(REPO, "cave-evil", Problems())
    with pytest.raises(FightError, match="took longer than 0 s"):
        flip(records.cards, *LINES[0], [], "99%", seconds=0)


@pytest.mark.parametrize(
    ("chance", "words"),
    [
        ("0", "never (0%)"),
        ("1", "certain (100%)"),
        ("1/2", "1 in 2 (50%)"),
        ("2/3", "2 in 3 (67%)"),
        ("0.6677", "about 2 in 3 (67%)"),
        ("0.1953", "about 1 in 5 (20%)"),
        ("0.04", "about 1 in 25 (4%)"),
        ("0.93", "about 13 in 14 (93%)"),
        ("0.9959", "almost certain (99%)"),
        ("0.0041", "almost never (1%)"),
    ],
)
def test_chances_are_said_as_players_say_them(chance, words):
    from charnel.games.cave_evil.odds_words import said

    assert said(Fraction(chance)) == words


def test_an_attacktite_that_cannot_kill_them_all_still_lives_by_winning_each_combat():
    """Against a squad whose Stitching Kit returns one creature the Attacktite never kills it
    whole, but it dies only at a lost Combat: the chance it dies is that of losing one."""
    data = odds_json("Attacktite", "Ghoul, Cavelling + Stitching Kit", "--mode", "separately")
    result = data["result"]
    assert result["attacker"] == "0"
    chances = [
        Fraction(next(r for r in part["odds"] if r["first"] == part["best"])["exact"]["attacker"])
        for part in data["separate"]
    ]
    assert Fraction(result["attacker_dies"]) == 1 - chances[0] * chances[1] < 1


def test_creature_by_creature_each_dies_once_every_combat_before_it_is_won():
    """The Attacktite's spoils creature by creature: the first creature's worth weighted by
    the first Combat's chance, the second's by both; its own squad's worth by a loss."""
    data = odds_json("Attacktite", "Ghoul, Cavelling", "--mode", "separately")
    chances = [
        Fraction(next(r for r in part["odds"] if r["first"] == part["best"])["exact"]["attacker"])
        for part in data["separate"]
    ]
    worth = {"Ghoul": Fraction(1), "Cavelling": Fraction(1)}  # both Small (16.2b)
    assert [part["creature"] for part in data["separate"]] == ["Ghoul", "Cavelling"]
    expected = data["expected"]
    taken = chances[0] * worth["Ghoul"] + chances[0] * chances[1] * worth["Cavelling"]
    assert Fraction(expected["attacker"]["exact"]["kill_points"]) == taken
    assert Fraction(expected["defender"]["exact"]["kill_points"]) == 2 * Fraction(
        data["result"]["attacker_dies"]
    )  # the Attacktite is Medium
    with_kit = odds_json("Attacktite", "Ghoul, Cavelling + Stitching Kit", "--mode", "separately")
    assert "expected" not in with_kit
