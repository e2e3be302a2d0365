"""Attacks, blocks and fights, as examples in tests/games/hecatomb/engine_combat.md."""

from __future__ import annotations

import pytest
from engine_case import examples_in, explain, run

PAGE = "tests/games/hecatomb/engine_combat.md"


@pytest.mark.parametrize("example", examples_in(PAGE), ids=lambda e: e.id)
def test_combat_rules(example):
    outcome = run(example)
    assert outcome.passed, explain(outcome)
