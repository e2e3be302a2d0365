"""The shared fight matchups (fixtures/fight-matchups.yaml) through `charnel odds --json` and
through the `odds` fact of an example: the same first attribute and exact chance, or the same
refusal, as the fixture's answers (computed apart from the engine). The fight calculator page
runs the same list in tests/games/cave_evil/browser/test_fight_calculator.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cave_evil_support import ROOT, engine
from fight_matchups import IDS, MATCHUPS, REFUSALS
from typer.testing import CliRunner

from charnel.cli import app
from charnel.engine import runner


def test_the_list_is_long_and_covers_every_class():
    assert len(MATCHUPS) >= 80
    classes = {m["class"] for m in MATCHUPS}
    assert classes >= {
        "plain", "items-users", "spells", "prism", "mace-mirror", "emperor-bitch", "ranged",
        "mind", "attacktite", "refused", "trinket", "pay-to-use",
    }  # fmt: skip
    assert set(REFUSALS) == {m["refused"] for m in MATCHUPS if "refused" in m}


@pytest.mark.parametrize("matchup", MATCHUPS, ids=IDS)
def test_charnel_odds_json(matchup):
    modes = [a for m in matchup.get("modes", []) for a in ("--mode", m)]
    result = CliRunner().invoke(
        app,
        ["odds", matchup["attacker"], matchup["defender"], *modes, "--json"]
        + ["--root", str(ROOT), "--game", "cave-evil"],
    )
    if "refused" in matchup:
        assert result.exit_code == 1
        assert result.output.startswith("error: ")
        assert REFUSALS[matchup["refused"]] in " ".join(result.output.split())
        return
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)["result"]
    assert found["first"] == matchup["first"]
    assert found["attacker"] == matchup["attacker_wins"]


def example(matchup: dict) -> dict:
    """An example whose squads are the matchup's sides and whose `then` is its odds."""
    squads = {}
    keys = {}
    for side, player, column in (("attacker", "you", 0), ("defender", "enemy", 8)):
        keys[side] = []
        for i, text in enumerate(matchup[side].split("/")):
            names = [n.strip() for part in text.split(",") for n in part.split("+")]
            key = f"{player} {['I', 'II', 'III', 'IV', 'V'][i]}"
            purse = [n.split() for n in names if n.split()[0].isdigit()]
            names = [n for n in names if not n.split()[0].isdigit()]
            kinds = {n: engine().pool.get(n.lower().replace(" ", "-"), {}) for n in names}
            squads[key] = {
                "at": [column, 3 * i],
                "creatures": [n for n in names if kinds[n].get("type") not in ("item", "spell")],
                "items": [n for n in names if kinds[n].get("type") in ("item", "spell")],
                "resources": {what.lower(): int(count) for count, what in purse},
            }
            keys[side].append(key)
    modes = matchup.get("modes", [])
    odds = {
        "squad": keys["attacker"][0],
        "with": keys["attacker"][1:],
        "target": keys["defender"][0],
        "target_with": keys["defender"][1:],
        "ranged": "ranged" in modes,
        "ranged_defence": "ranged-defence" in modes,
        "separately": "separately" in modes,
        "exact": matchup.get("attacker_wins", "0"),
    }
    return {"id": "matchup", "given": {"squads": squads}, "then": {"odds": odds}}


@pytest.mark.parametrize("matchup", MATCHUPS, ids=IDS)
def test_the_odds_fact(matchup):
    body = example(matchup)
    result = runner.run(body, engine())
    if "refused" in matchup:
        assert not result.passed
        assert REFUSALS[matchup["refused"]] in result.message
        return
    assert result.passed, (result.message, result.diff)


def model():
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "fight_matchups_model", Path(__file__).parent / "fixtures" / "fight_matchups_model.py"
    )
    found = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(found)
    return found


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_model_and_charnel_odds_agree_on_drawn_matchups(seed):
    """Beyond the list: seeded matchups drawn from the pool, legal or not, answered alike by
    the rulebook model and by `charnel odds`'s report."""
    from charnel.diagnostics import Problems
    from charnel.games.cave_evil.engine.fight import FightError
    from charnel.games.cave_evil.odds_report import fight_odds
    from charnel.sources import loader

    rules = model()
    records = loader.load(ROOT, "cave-evil", Problems())
    answered = 0
    for attacker, defender, modes in rules.drawn(60, seed):
        want = rules.expected(attacker, defender, modes)
        try:
            got = fight_odds(records.cards, attacker, defender, modes)["data"]["result"]
        except FightError as exc:
            assert "refused" in want, (attacker, defender, modes, str(exc))
            continue
        assert "refused" not in want, (attacker, defender, modes, want)
        assert (got["first"], got["attacker"]) == (want["first"], want["attacker"])
        answered += 1
    assert answered >= 20  # most drawn matchups are fought, not refused


def test_the_answers_are_the_models():
    """The fixture's answers are what the rulebook model gives today (rerun the model after a
    card changes): no answer was edited by hand, nor copied from the engine."""
    rules = model()
    for m in MATCHUPS:
        got = rules.expected(m["attacker"], m["defender"], m.get("modes", []))
        if "refused" in got:
            assert m.get("refused") == got["refused"], m
        else:
            assert (m.get("first"), m.get("attacker_wins")) == (got["first"], got["attacker"]), m
