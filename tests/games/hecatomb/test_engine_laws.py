"""Laws of the engine, checked over generated states (hypothesis).

When hypothesis finds a counterexample, its shrunk form is written into
tests/games/hecatomb/engine_laws.md as a permanent example (and run below), so the case keeps
being checked even if the generators change.
"""

from __future__ import annotations

import pytest
from engine_case import engine, examples_in, explain, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from charnel.engine import runner

PAGE = "tests/games/hecatomb/engine_laws.md"

DOOMS = ["corruption", "deceit", "destruction", "greed"]
settings.register_profile(
    "charnel", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("charnel")

strength = st.integers(min_value=0, max_value=6)
stack = st.lists(strength, min_size=1, max_size=5)


def play(body: dict) -> runner.RunResult:
    return runner.run(body, engine(), states=True)


def named(strengths: list[int]) -> list[dict]:
    return [{"name": f"m{i}", "strength": s} for i, s in enumerate(strengths)]


@pytest.mark.parametrize("example", examples_in(PAGE), ids=lambda e: e.id)
def test_permanent_counterexamples(example):
    outcome = run(example)
    assert outcome.passed, explain(outcome)


@given(
    souls=st.lists(st.integers(0, 25), min_size=2, max_size=2),
    moves=st.lists(
        st.tuples(
            st.sampled_from(["gain_souls", "lose_souls"]),
            st.sampled_from(["you", "enemy"]),
            st.integers(0, 30),
        ),
        max_size=6,
    ),
    attacker=st.lists(strength, min_size=2, max_size=5),
    reaper=st.integers(0, 6),
)
def test_souls_never_negative(souls, moves, attacker, reaper):
    minions = named(attacker)
    minions[0]["keywords"] = [{"reaper": reaper}] if reaper else []
    body = {
        "id": "law",
        "title": "law",
        "given": {
            "souls": {"you": souls[0], "enemy": souls[1]},
            "abominations": {"A": {"owner": "you", "minions": minions}},
        },
        "when": [{verb: {"player": who, "amount": n}} for verb, who, n in moves]
        + [{"attack": {"attackers": ["A"]}}],
    }
    result = play(body)
    if result.after is None:  # the game was won before the attack: nothing more to check
        return
    assert all(p["souls"] >= 0 for p in result.after["players"].values())


@given(minions=stack, amount=st.integers(0, 25), bonus=st.integers(-4, 4))
def test_damage_goes_top_down_and_never_revives(minions, amount, bonus):
    body = {
        "id": "law",
        "title": "law",
        "given": {
            "abominations": {"A": {"owner": "you", "minions": named(minions)}},
            "effects": [{"strength": {"target": "A", "amount": bonus}}],
        },
        "when": [{"damage": {"target": "A", "amount": amount}}],
    }
    result = play(body)
    assert result.passed, result.message
    before = [m["name"] for m in result.before["abominations"]["A"]["minions"]]
    after = [m["name"] for m in result.after["abominations"].get("A", {"minions": []})["minions"]]
    assert before[len(before) - len(after) :] == after  # survivors are the bottom ones, in order
    assert len(result.after["players"]["you"]["graveyard"]) == len(before) - len(after)


@given(a=st.integers(0, 4), b=st.integers(0, 4), size=st.integers(2, 5), souls=st.integers(0, 15))
def test_reaper_instances_add(a, b, size, souls):
    def reaped(keywords_per_minion):
        minions = [{"strength": 1, "keywords": kws} for kws in keywords_per_minion]
        body = {
            "id": "law",
            "title": "law",
            "given": {
                "souls": {"enemy": souls},
                "abominations": {"A": {"owner": "you", "minions": minions}},
            },
            "when": [{"attack": {"attackers": ["A"]}}],
        }
        return play(body).after["players"]

    split = [[{"reaper": a}] if a else [], [{"reaper": b}] if b else []] + [[]] * (size - 2)
    joined = [[{"reaper": a + b}] if a + b else []] + [[]] * (size - 1)
    assert reaped(split) == reaped(joined)
    assert reaped(joined)["enemy"]["souls"] == max(souls - size - a - b, 0)


@given(survivor=st.integers(1, 6), data=st.data())
def test_survivor_ignores_x_or_less(survivor, data):
    attack = data.draw(
        st.lists(st.integers(0, 6), min_size=2, max_size=3).filter(lambda xs: sum(xs) <= survivor)
    )
    top, rest = data.draw(strength), data.draw(stack)
    blocker = [{"name": "top", "strength": top, "keywords": [{"survivor": survivor}]}] + named(rest)
    body = {
        "id": "law",
        "title": "law",
        "given": {
            "abominations": {
                "A": {"owner": "you", "minions": attack},
                "C": {"owner": "enemy", "minions": blocker[:5]},
            }
        },
        "when": [{"attack": {"attackers": ["A"]}}, {"block": {"C": "A"}}],
    }
    result = play(body)
    assert result.passed, result.message
    assert (
        result.after["abominations"]["C"]["minions"]
        == result.before["abominations"]["C"]["minions"]
    )


@given(
    doom=st.sampled_from(DOOMS),
    blocker_dooms=st.lists(st.sampled_from(DOOMS + [None]), min_size=2, max_size=5),
)
def test_evader_never_blocked_by_its_doom(doom, blocker_dooms):
    body = {
        "id": "law",
        "title": "law",
        "given": {
            "abominations": {
                "A": {
                    "owner": "you",
                    "minions": [{"strength": 1, "keywords": [{"evader": doom}]}, 1],
                },
                "C": {
                    "owner": "enemy",
                    "minions": [{"strength": 1, "doom": d} for d in blocker_dooms],
                },
            }
        },
        "when": [{"attack": {"attackers": ["A"]}}, {"block": {"C": "A"}}],
    }
    result = play(body)
    if doom in blocker_dooms:
        assert not result.passed and "[evader]" in result.message
    else:
        assert result.passed, result.message
