"""Card verification: each keyword's examples rerun with the card substituted in, results in
the `example_results` table; and the before/after states the pictures are drawn from."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from engine_case import records

from charnel import pipeline, registry
from charnel.diagnostics import Problems
from charnel.engine import outcomes
from charnel.sources import loader

REAPER_EXAMPLE = """
```example
id: test-reaper-bonus
title: A Reaper reaps its size plus its bonus
ability: reaper
given:
  souls: {enemy: 10}
  abominations:
    A: {owner: you, minions: [{strength: 2, keywords: [reaper: 1]}, 1]}
when:
  - attack: {attackers: [A]}
then:
  souls: {you: "7 + $n", enemy: "8 - $n"}
```
"""

CARD = """name: Test Harvester
number: 990
rarity: common
type: minion
doom: greed
cost: "3"
strength: 2
subtype: Undead
triggers: [greed, greed, deceit, deceit]
text: "Reaper +3"
keywords:
  - reaper: 3
"""


def _load(root: Path):
    problems = Problems()
    found = loader.load(root, "hecatomb", problems)
    assert found is not None and not problems, [p.render(root) for p in problems]
    return found


def _with_card(project: Path) -> Path:
    (project / "cards/hecatomb/base/test-harvester.yaml").write_text(CARD)
    with (project / "rules/hecatomb/14-keywords.md").open("a") as fh:
        fh.write(REAPER_EXAMPLE)
    return project


def test_a_card_is_verified_with_its_own_parameters(project):
    recs = _load(_with_card(project))
    card = next(c for c in recs.cards if c.slug == "test-harvester")
    made = outcomes.verify_card(registry.get("hecatomb"), card, recs)
    ours = [o for o in made if o.example == "test-reaper-bonus"]
    assert len(ours) == 1 and ours[0].passed and ours[0].card == "test-harvester", ours
    assert all(o.passed for o in made), [(o.example, o.message, o.diff) for o in made]


def test_a_wrong_encoding_fails_verification(project, monkeypatch):
    """If Reaper were read as a flat +1, the card with Reaper +3 would fail the example."""
    from charnel.games.hecatomb.engine import abilities

    recs = _load(_with_card(project))
    card = next(c for c in recs.cards if c.slug == "test-harvester")
    real = abilities.stack

    def flat_reaper(state, uses):
        stacked = real(state, uses)
        if "reaper" in stacked:
            stacked["reaper"] = 1
        return stacked

    monkeypatch.setattr(abilities, "stack", flat_reaper)
    made = outcomes.verify_card(registry.get("hecatomb"), card, recs)
    ours = [o for o in made if o.example == "test-reaper-bonus"]
    assert ours and not ours[0].passed
    assert "Test Harvester" in ours[0].message
    assert "- souls.you: 10" in ours[0].diff and "+ souls.you: 8" in ours[0].diff


def test_literal_examples_only_speak_for_their_parameters():
    recs = records()
    game = registry.get("hecatomb")
    for card in recs.cards:
        for outcome in outcomes.verify_card(game, card, recs):
            assert outcome.passed, (card.slug, outcome.example, outcome.message, outcome.diff)


def test_results_are_stored_per_card(project, tmp_path):
    _with_card(project)
    result = pipeline.build(project, "hecatomb", tmp_path / "out", site=False, print_=False)
    with sqlite3.connect(result.database) as db:
        rows = db.execute(
            "select card_id, passed, message from example_results where example_id = ?",
            ("test-reaper-bonus",),
        ).fetchall()
    assert (None, 1, "") in rows
    assert ("test-harvester", 1, "") in rows


def test_example_states_are_plain_data():
    recs = records()
    game = registry.get("hecatomb")
    example = next(e for e in recs.examples if e.body.get("when"))
    before, after = outcomes.example_states(game, example, recs)
    assert json.loads(json.dumps(before)) == before and json.loads(json.dumps(after)) == after
    assert set(before) == {"turn", "combat", "winner", "players", "abominations"}
    for abom in before["abominations"].values():
        assert {"owner", "tapped", "added", "minions"} <= set(abom)
        assert all({"name", "strength", "doom", "keywords"} <= set(m) for m in abom["minions"])
    spill = next(e for e in recs.examples if e.id == "ability-damage-spills-down")
    before, after = outcomes.example_states(game, spill, recs)
    assert before != after
