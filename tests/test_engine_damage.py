"""Damage, destruction and its replacements, as examples in tests/examples/engine_damage.md."""

from __future__ import annotations

import pytest
from examples.engine_case import examples_in, explain, run


@pytest.mark.parametrize("example", examples_in("engine_damage.md"), ids=lambda e: e.id)
def test_damage_rules(example):
    outcome = run(example)
    assert outcome.passed, explain(outcome)
