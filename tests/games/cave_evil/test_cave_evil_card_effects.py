"""Card effects (rules chapter 19) refused where a scripted choice or die decides the refusal,
which an example's `expect: illegal` cannot show (a refused step hands its choices and dice
back): the run is refused, with the reason."""

from __future__ import annotations

import pytest
import yaml
from cave_evil_support import ROOT

from charnel import registry
from charnel.diagnostics import Problems
from charnel.engine import outcomes, runner
from charnel.sources import loader


def engine():
    problems = Problems()
    records = loader.load(ROOT, "cave-evil", problems)
    return outcomes.checks(registry.get("cave-evil"), records).engine


CASES = {
    "off-course": """
given:
  phase: 3
  squads: {you I: {at: [0, 0], creatures: [Ratman]}}
  monsters: {A: {at: [6, 0], creatures: [Ratman]}}
  events: {you: [Wandering Hunger]}
when: [next_phase]
choices: [{path: [[6, 1]]}]
""",
    "too-short": """
given:
  phase: 3
  squads: {you I: {at: [0, 0], creatures: [Ratman]}}
  monsters: {A: {at: [6, 0], creatures: [Ratman]}}
  events: {you: [Wandering Hunger]}
when: [next_phase]
choices: [{path: [[5, 0]]}]
""",
    "goat-off-course": """
given:
  advanced: all
  awakening: {card: Evil Black Old Goat, revealed: true, awakened: true}
  phase: 1
  cave: {pit: [0, 0]}
when:
  - goat_rampages: {path: [[1, 0], [2, 0], [3, 0]]}
dice: [1]
""",
    "not-the-leader": """
given:
  awakening: {card: Eternal Evil Emperor, revealed: true, awakened: true}
  phase: 1
  kills: {enemy: {enemy: [Ratman]}}
  cave: {pit: [0, 0]}
  squads: {enemy N: {at: [5, 0]}}
when:
  - emperor_marches: {target: enemy, path: [[1, 0]]}
""",
}
REASONS = {"goat-off-course": "off-course"}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_card_effect_is_refused_with_its_reason(case):
    body = yaml.safe_load(CASES[case])
    body.setdefault("then", {})
    result = runner.run(body, engine())
    assert not result.passed
    assert f"[{REASONS.get(case, case)}]" in result.message, result.message
