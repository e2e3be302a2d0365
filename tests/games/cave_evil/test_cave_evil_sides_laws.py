"""Laws of who fights with what (engine.sides), over generated squads (hypothesis): what the
rules say does not count never changes the odds."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from charnel.games.cave_evil.engine import sides
from charnel.games.cave_evil.engine.odds import odds
from charnel.games.cave_evil.engine.pieces import build
from charnel.games.cave_evil.engine.state import ATTRIBUTES, Squad

settings.register_profile(
    "cave-evil-sides", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("cave-evil-sides")

values = st.fixed_dictionaries({a: st.integers(0, 12) for a in ATTRIBUTES})
carry = st.sampled_from(
    [
        {"kind": "none", "count": 0},
        {"kind": "carry_only", "count": 1},
        {"kind": "carry_use", "count": 1},
    ]
)
creature = st.builds(
    lambda v, c, caster: {"name": "c", "size": "trinket", "carry": c, "spellcaster": caster, **v},
    values,
    carry,
    st.booleans(),
)
bonus = st.dictionaries(st.sampled_from(ATTRIBUTES), st.integers(1, 4), min_size=1, max_size=2)
item = st.builds(lambda b: {"name": "i", "type": "item", "abilities": [{"bonus": b}]}, bonus)


def squad(owner: str, creatures: list[dict], items: list[dict]) -> Squad:
    s = Squad(owner, "I")
    s.creatures = [build(dict(c), ()) for c in creatures]
    s.items = [build(dict(i), ()) for i in items]
    return s


def chances(mine: Squad, theirs: Squad) -> list:
    return [row.attacker for row in odds(sides.of_squads([mine], [theirs])).values()]


@given(st.lists(creature, min_size=1, max_size=3), st.lists(creature, min_size=1, max_size=3), item)
def test_an_item_nobody_can_use_changes_nothing(mine, theirs, extra):
    carriers = [{**c, "carry": {"kind": "carry_only", "count": 1}} for c in mine]
    without = chances(squad("you", carriers, []), squad("enemy", theirs, []))
    assert chances(squad("you", carriers, [extra]), squad("enemy", theirs, [])) == without


@given(st.lists(creature, min_size=1, max_size=3), st.lists(item, max_size=2))
def test_no_item_counts_against_a_creature_that_forbids_them(mine, items):
    users = [{**c, "carry": {"kind": "carry_use", "count": 2}} for c in mine]
    emperor = {"name": "e", "size": "large", "abilities": [{"forbids": ["items", "mind"]}]}
    emperor |= {a: 9 for a in ATTRIBUTES}
    bare = chances(squad("you", users, []), squad("enemy", [emperor], []))
    assert chances(squad("you", users, items), squad("enemy", [emperor], [])) == bare


@given(st.lists(creature, min_size=1, max_size=3), st.lists(creature, min_size=1, max_size=3))
def test_mace_and_mirror_on_opposite_sides_are_as_if_neither_were_there(mine, theirs):
    users = [{**c, "carry": {"kind": "carry_use", "count": 1}} for c in mine]
    others = [{**c, "carry": {"kind": "carry_use", "count": 1}} for c in theirs]
    mace = {
        "name": "Mace",
        "type": "item",
        "abilities": [{"bonus": {"st": 4}}, {"cancels": "Mirror"}],
    }
    mirror = {
        "name": "Mirror",
        "type": "item",
        "abilities": [{"bonus": {"dd": 3}}, {"cancels": "Mace"}],
    }
    bare = chances(squad("you", users, []), squad("enemy", others, []))
    assert chances(squad("you", users, [mace]), squad("enemy", others, [mirror])) == bare
    assert chances(squad("you", users, [mirror]), squad("enemy", others, [mace])) == bare
