"""Turns, mana and costs, as examples in tests/examples/engine_turn.md."""

from __future__ import annotations

import pytest
from examples.engine_case import examples_in, explain, run


@pytest.mark.parametrize("example", examples_in("engine_turn.md"), ids=lambda e: e.id)
def test_turn_rules(example):
    outcome = run(example)
    assert outcome.passed, explain(outcome)
