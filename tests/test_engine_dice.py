"""The core runner's scripted dice and choices, on a game of the suite's own: dice are
taken in written order, never invented, and each must be used."""

from __future__ import annotations

from pathlib import Path

import pytest
from examples.tally_game import examples_in, run

from charnel.examples import as_problem

REPO = Path(__file__).resolve().parents[1]

# id -> (passed, broken, the start of the first line of its problem: path:line:col: message)
EXPECTED = {
    "dice-in-order": (True, False, ""),
    "refused-step-gives-its-die-back": (True, False, ""),
    "no-dice-given": (
        False, True,
        "tests/examples/engine_dice.md:35:11: example 'no-dice-given': a roll of 1d6 rolls a d6, "
        "but the example gives no dice: add its value to 'dice:'",
    ),
    "too-few-dice": (
        False, True,
        "tests/examples/engine_dice.md:45:7: example 'too-few-dice': a roll of 3d6 rolls a d6, "
        "but the example gives only 2 dice",
    ),
    "die-out-of-range": (
        False, True,
        "tests/examples/engine_dice.md:55:8: example 'die-out-of-range': die 1 is 7, but a roll "
        "of 1d6 rolls a d6 (1-6)",
    ),
    "die-not-a-number": (
        False, True,
        "tests/examples/engine_dice.md:65:8: example 'die-not-a-number': a die is a whole "
        "number, not two",
    ),
    "dice-left-over": (
        False, False,
        "tests/examples/engine_dice.md:75:11: example 'dice-left-over' fails: 1 scripted die "
        "was never rolled",
    ),
    "choice-left-over": (
        False, False,
        "tests/examples/engine_dice.md:87:13: example 'choice-left-over' fails: the scripted "
        "choice 'number' was never used",
    ),
    "unknown-choice": (
        False, True,
        "tests/examples/engine_dice.md:98:5: example 'unknown-choice': unknown choice 'colour' "
        "(known: number)",
    ),
    "wrong-total": (
        False, False,
        "tests/examples/engine_dice.md:109:7: example 'wrong-total' fails: 1 fact differs",
    ),
}


@pytest.mark.parametrize("example", examples_in("engine_dice.md"), ids=lambda e: e.id)
def test_scripted_dice_and_choices(example):
    passed, broken, problem = EXPECTED[example.id]
    outcome = run(example)
    assert (outcome.passed, outcome.broken) == (passed, broken), outcome.message
    if problem:
        assert as_problem(outcome).render(REPO).startswith(problem)


def test_a_fact_that_differs_shows_expected_and_actual():
    example = next(e for e in examples_in("engine_dice.md") if e.id == "wrong-total")
    assert run(example).diff == ["- total: 19", "+ total: 20"]


def test_every_fixture_example_has_an_expectation():
    assert {e.id for e in examples_in("engine_dice.md")} == set(EXPECTED)
