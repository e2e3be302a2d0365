"""Gain control, described exhume and retrieve, looking at hands, can't-be-blocked-by and
stitch as a card effect (tests/games/hecatomb/engine_card_terms.md), and how wrong uses of them
are reported."""

from __future__ import annotations

import pytest
from engine_case import examples_in, explain, run, run_text

PAGE = "tests/games/hecatomb/engine_card_terms.md"


@pytest.mark.parametrize("example", examples_in(PAGE), ids=lambda e: e.id)
def test_card_terms(example):
    outcome = run(example)
    assert outcome.passed, explain(outcome)


MALFORMED = {
    "a card filter the language doesn't know": (
        "hand: {you: [{name: Dig, type: fate, effects: [{exhume: {card: {colour: red}}}]}]}",
        "- play: {card: Dig}",
        "unknown card filter 'colour'",
    ),
    "'by' on an attack override": (
        "abominations: {A: {owner: you, minions: [1, 1]}}",
        "- forbid: {target: A, action: attack, by: {subtype: Beast}}",
        "'by: {subtype, doom}' goes with 'action: be_blocked'",
    ),
    "'it' with no earlier target": (
        "hand: {you: [{name: Oops, type: fate, effects: [{sever: {target: it}}]}]}",
        "- play: {card: Oops}",
        "'it' is the target an earlier effect chose",
    ),
    "looking at your own hand": ("hand: {you: [1]}", "- look_at_hand: {of: you}", "another"),
    "a targeted player without a name": (
        "hand: {you: [whispered-heresy]}\n  mana: {you: [corruption]}",
        "- play: {card: whispered-heresy}",
        "name them in 'targets:'",
    ),
}


@pytest.mark.parametrize("given, step, message", MALFORMED.values(), ids=list(MALFORMED))
def test_wrong_uses_are_reported_not_raised(given, step, message):
    outcome = run_text(f"id: bad\ntitle: bad\ngiven:\n  {given}\nwhen:\n  {step}\n")
    assert not outcome.passed and outcome.broken, outcome
    assert message in outcome.message


def test_a_targeted_player_must_be_an_enemy():
    outcome = run_text(
        "id: t\ntitle: t\ngiven:\n  hand: {you: [whispered-heresy]}\n"
        "  mana: {you: [corruption]}\nwhen:\n"
        "  - play: {card: whispered-heresy, targets: [you]}\n"
    )
    assert not outcome.passed and not outcome.broken
    assert "[bad-target]" in outcome.message
