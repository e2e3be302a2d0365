"""Damage, destruction and its replacements, as the examples of engine_damage.md beside it."""

from __future__ import annotations

import pytest
from engine_case import examples_in, explain, run

PAGE = "tests/games/hecatomb/engine_damage.md"


@pytest.mark.parametrize("example", examples_in(PAGE), ids=lambda e: e.id)
def test_damage_rules(example):
    outcome = run(example)
    assert outcome.passed, explain(outcome)
