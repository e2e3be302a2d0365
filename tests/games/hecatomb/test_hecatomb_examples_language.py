"""The example language as users meet it: malformed files are reported at file:line, a wrong
engine shows a readable diff, the documented examples run, pytest collects examples."""

from __future__ import annotations

import subprocess
import sys

import pytest
from engine_case import REPO, examples_in, records, run

from charnel import example_language
from charnel.games.hecatomb.engine import damage
from charnel.games.hecatomb.engine.protocol import ACTIONS

BAD = REPO / "tests" / "games" / "hecatomb" / "examples-bad"
DOC = "src/charnel/games/hecatomb/docs/examples.md"  # the game's actions and facts, documented


def charnel(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "charnel.cli", *args], cwd=REPO, capture_output=True, text=True
    )


def test_bad_example_files_are_reported_at_their_place():
    files = sorted(str(p.relative_to(REPO)) for p in BAD.iterdir() if p.suffix in (".md", ".yaml"))
    result = charnel("examples", "run", "--game", "hecatomb", *files)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    for line in (BAD / "expected.txt").read_text().splitlines():
        assert line in result.stderr, f"missing: {line}\n--- got:\n{result.stderr}"
    assert "0/18 example runs pass, 1 fail, 17 malformed" in result.stdout


def test_yaml_syntax_errors_are_problems_not_tracebacks(tmp_path):
    broken = tmp_path / "broken.md"
    broken.write_text("# Notes\n\n```example\nid: x\ntitle: [unclosed\n```\n")
    result = charnel("examples", "run", "--game", "hecatomb", str(broken))
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    # the list left open is pointed at, not the end of the block
    assert "broken.md:5:8: YAML syntax error" in result.stderr


def test_a_wrong_engine_fails_examples_with_a_readable_diff(monkeypatch):
    def no_spill(state, abom, amount, *, combat=False, split=None):
        # deliberately wrong: damage stops at the top minion
        if abom.minions and amount >= abom.minions[0].strength:
            damage.remove_destroyed(state, abom, [abom.minions[0]], combat=combat)

    monkeypatch.setattr(damage, "deal_damage", no_spill)
    spill = next(e for e in examples_in(DOC) if e.id == "damage-spills-down")
    outcome = run(spill)
    assert not outcome.passed and not outcome.broken
    assert outcome.origin.path.endswith("docs/examples.md")
    assert "- abominations.A.minions: [2]" in outcome.diff
    assert "+ abominations.A.minions: [3, 2]" in outcome.diff
    failing = [e.id for e in records().examples if not run(e).passed]
    assert len(failing) > 5, failing


def test_the_documented_examples_run_and_cover_every_action():
    documented = examples_in(DOC)
    for example in documented:
        outcome = run(example)
        assert outcome.passed, (example.id, outcome.message, outcome.diff)
    used = set()
    for example in documented:
        used |= {step.action for step in example_language.steps(example.body)}
    assert set(ACTIONS) <= used, sorted(set(ACTIONS) - used)


def test_illegal_steps_must_be_refused_for_the_stated_reason():
    example = examples_in("tests/games/hecatomb/engine_combat.md")[0]
    body = {**example.body, "when": [{"attack": {"attackers": ["A"]}, "expect": "illegal",
                                      "reason": "tapped"}]}
    example.body = body
    outcome = run(example)
    assert not outcome.passed
    assert "should be illegal (tapped) but the engine allowed it" in outcome.message


@pytest.mark.parametrize(
    ("value", "expected"),
    [("$n", 2), ("$n + 3", 5), ("7 - $n * 2", 3), ("plain", "plain"), (4, 4)],
)
def test_variables(value, expected):
    assert example_language.substitute(value, {"n": 2}) == expected


def test_unknown_variable_is_a_language_error():
    with pytest.raises(example_language.LanguageError, match=r"unknown variable \$m"):
        example_language.substitute({"then": {"souls": {"you": "$m"}}}, {"n": 1})


def test_pytest_collects_each_example_by_id():
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "rules", "-q", "-p", "no:randomly",
         "-p", "no:cacheprovider", "-k", "ability-damage-spills-down"],
        cwd=REPO, capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stdout
    assert "1 passed" in result.stdout
