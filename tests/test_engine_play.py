"""Playing minions, fates, relics, gods and abilities (tests/examples/engine_play.md)."""

from __future__ import annotations

import pytest
from examples.engine_case import examples_in, explain, run


@pytest.mark.parametrize("example", examples_in("engine_play.md"), ids=lambda e: e.id)
def test_play_rules(example):
    outcome = run(example)
    assert outcome.passed, explain(outcome)
