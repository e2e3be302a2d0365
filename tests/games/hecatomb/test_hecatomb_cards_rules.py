"""Hecatomb card legality: each illegal combination is reported at the field that is wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from charnel import pipeline
from charnel.diagnostics import Problems

MINION = """\
name: Test Minion
number: 900
rarity: common
type: minion
cost: '2'
doom: greed
strength: 2
subtype: Undead
triggers: [greed, greed, deceit, corruption]
text: Reaper +1
keywords: [{reaper: 1}]
"""
FATE = """\
name: Test Fate
number: 901
rarity: common
type: fate
cost: '1'
doom: greed
subtype: Tactic
text: Gain 1 soul.
effects: [{gain_souls: {amount: 1}}]
"""
RELIC = """\
name: Test Relic
number: 902
rarity: rare
type: relic
cost: '3'
doom: greed
text: Your abominations have Rager +1.
"""


def problems_for(root: Path, body: str) -> list[str]:
    path = root / "cards/hecatomb/base/test-card.yaml"
    path.write_text(body, encoding="utf-8")
    problems = Problems()
    pipeline.check(root, "hecatomb", problems)
    return [f"{p.origin.line}: {p.message}" for p in problems.sorted()]


def test_legal_cards_pass(project: Path):
    for body in (MINION, FATE, RELIC):
        assert problems_for(project, body) == []


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (FATE + "strength: 2\n", "10: only minions have strength; a fate does not"),
        (FATE + "triggers: [greed, greed, greed, greed]\n", "10: only minions have triggers"),
        (FATE + "conditional: {doom: greed, text: «Draw a card.»}\n",
         "10: only minions have a conditional ability"),
        (FATE.replace("subtype: Tactic", "subtype: Beast"),
         "7: a fate's subtype is one of Curse, Invocation, Mishap, Tactic (got Beast)"),
        (FATE.replace("subtype: Tactic\n", ""), "1: a fate's subtype is one of"),
        (FATE.replace("text: Gain 1 soul.", "text: Rager +2\nkeywords: [{rager: 2}]"),
         "9: only minions carry keyword abilities"),
        (FATE.replace("cost: '1'", "cost: X+1"), "5: cost X+1 has an X, but the text never says"),
        (FATE.replace("cost: '1'\n", ""), "1: every Hecatomb card has a cost"),
        (RELIC + "combat: true\n", "8: only minions and fates can be combat cards"),
        (RELIC + "subtype: Curse\n", "8: a relic has no subtype"),
        (MINION.replace("strength: 2\n", ""), "1: a minion needs 'strength'"),
        (MINION.replace("triggers: [greed, greed, deceit, corruption]\n", ""),
         "1: a minion needs its four corner 'triggers'"),
        (MINION.replace("subtype: Undead", "subtype: Curse"),
         "8: a minion's subtype is one of Animate"),
        (MINION.replace(
            "text: Reaper +1\nkeywords: [{reaper: 1}]",
            "text: '↻6: Gain 1 soul.'\nkeywords: [{tap: {size: 6, effect: Gain 1 soul.}}]"),
         "11: a tap threshold is between 2 and 5 (got 6)"),
    ],
    ids=lambda v: v.split(":")[1].strip()[:40] if isinstance(v, str) and v[0].isdigit() else None,
)
def test_illegal_combinations_are_reported_where_they_are(project: Path, body, expected):
    found = problems_for(project, body)
    assert any(p.startswith(expected) for p in found), found


def test_triggers_must_be_four_dooms(project: Path):
    found = problems_for(project, MINION.replace("deceit, corruption]", "deceit]"))
    assert any(p.startswith("9: triggers:") for p in found), found


def test_all_problems_of_a_card_in_one_run(project: Path):
    found = problems_for(project, FATE + "strength: 2\ntriggers: [greed, greed, greed, greed]\n")
    assert len(found) == 2, found
