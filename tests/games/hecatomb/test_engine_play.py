"""Playing minions, fates, relics, gods and abilities (tests/games/hecatomb/engine_play.md)."""

from __future__ import annotations

import pytest
from engine_case import examples_in, explain, run

PAGE = "tests/games/hecatomb/engine_play.md"


@pytest.mark.parametrize("example", examples_in(PAGE), ids=lambda e: e.id)
def test_play_rules(example):
    outcome = run(example)
    assert outcome.passed, explain(outcome)
