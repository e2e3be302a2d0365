"""The Cave Evil engine's parts on their own: the hex grid, squad limits, and robustness of
the example runner against odd values (a problem, never a traceback)."""

from __future__ import annotations

import copy
import random

import pytest
from cave_evil_support import DOCS, ROOT, engine, examples_in
from hypothesis import given
from hypothesis import strategies as st

from charnel.engine import runner
from charnel.games.cave_evil.engine import hexes, squads, tiles
from charnel.games.cave_evil.engine.state import Card

coords = st.tuples(st.integers(-20, 20), st.integers(-20, 20))


def test_six_neighbours_at_distance_one():
    around = hexes.neighbours((2, -1))
    assert len(set(around)) == 6
    assert all(hexes.distance((2, -1), h) == 1 for h in around)


@given(coords, coords)
def test_distance_is_a_metric(a, b):
    assert hexes.distance(a, b) == hexes.distance(b, a)
    assert (hexes.distance(a, b) == 0) == (a == b)


@given(coords, coords, coords)
def test_triangle_inequality(a, b, c):
    assert hexes.distance(a, c) <= hexes.distance(a, b) + hexes.distance(b, c)


@given(coords, coords)
def test_a_line_steps_one_hex_at_a_time(a, b):
    cells = hexes.line_cells(a, b)
    assert len(cells) == max(0, hexes.distance(a, b) - 1)
    for step in cells:
        assert 1 <= len(step) <= 2


def test_a_line_along_an_edge_needs_both_sides_blocked():
    # (0,0) to (1,1) runs exactly between (1,0) and (0,1)
    assert hexes.line_cells((0, 0), (1, 1)) == [{(1, 0), (0, 1)}]
    assert hexes.line_of_sight((0, 0), (1, 1), lambda h: h == (1, 0))
    assert not hexes.line_of_sight((0, 0), (1, 1), lambda h: h in {(1, 0), (0, 1)})


@pytest.mark.parametrize("name", sorted(tiles.SHAPES))
def test_every_tile_fits_itself_in_every_turn(name):
    shape, pit = tiles.SHAPES[name]
    assert hexes.connected(shape)
    for form in hexes.orientations(shape):
        place = hexes.fit(shape, [(q + 5, r - 3) for q, r in form])
        assert place is not None
        if pit is not None:
            assert place(shape[pit]) in {(q + 5, r - 3) for q, r in form}


def _creature(size: str) -> Card:
    return Card(name=size, size=size)


@given(st.lists(st.sampled_from(["large", "medium", "small", "trinket"]), max_size=6))
def test_a_squad_fits_exactly_when_it_is_one_of_the_three_limits(sizes):
    counts = {s: sizes.count(s) for s in ("large", "medium", "small")}
    legal = (
        (counts["large"] == 0 and counts["medium"] == 0 and counts["small"] <= 3)
        or (counts["large"] == 0 and counts["medium"] == 1 and counts["small"] <= 1)
        or (counts["large"] == 1 and counts["medium"] == 0 and counts["small"] == 0)
    )
    assert squads.fits([_creature(s) for s in sizes]) == legal


ODD = [None, True, -1, 0, 7, "x", "you I", [], {}, [1], {"a": 1}, "st", 3.5, [0, 0]]


def _leaves(value, path=()):
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _leaves(item, (*path, i))
    if path and path[0] not in ("id", "title"):
        yield path


def test_mutated_examples_never_raise():
    pages = [f"{DOCS}/examples.md"] + sorted(
        f"rules/cave-evil/{p.name}" for p in (ROOT / "rules" / "cave-evil").glob("*.md")
    )
    corpus = [e for page in pages for e in examples_in(page)]
    rng = random.Random(11)
    broken = 0
    for _ in range(600):
        body = copy.deepcopy(rng.choice(corpus).body)
        path = rng.choice(list(_leaves(body)))
        target = body
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = copy.deepcopy(rng.choice(ODD))
        result = runner.run(body, engine())  # must not raise
        broken += result.broken
    assert broken > 100


def test_example_pictures_are_svg_and_repeatable():
    from xml.etree import ElementTree

    from charnel.games.cave_evil.drawing import draw_state

    example = next(
        e for e in examples_in("rules/cave-evil/11-combat.md") if e.id == "jason-fights-joanna"
    )
    before, after = runner.states_of(example.body, engine())
    svg = draw_state(before)
    root = ElementTree.fromstring(svg)
    assert root.tag.endswith("svg")
    assert "jason II" in svg and "joanna IV" in svg
    assert "joanna IV" not in draw_state(after)  # the slain squad is gone
    assert svg == draw_state(runner.states_of(example.body, engine())[0])


def test_a_tile_an_event_lays_must_touch_the_explored_cave():
    """The choice of where an Event lays its tile is checked like any other placement: the
    example of rule 14.1h with the tile moved away from the cave is refused."""
    example = next(
        e
        for e in examples_in("rules/cave-evil/14-events-winning-death.md")
        if e.id == "events-lay-tiles"
    )
    body = copy.deepcopy(example.body)
    body["choices"][0]["tile"] = [[5, 0], [6, 0]]
    result = runner.run(body, engine())
    assert not result.passed and "[not-adjacent]" in result.message
    body["given"]["cave"]["pits"] = [[3, 0]]
    body["choices"][0]["tile"] = [[2, 0], [3, 0]]
    result = runner.run(body, engine())
    assert not result.passed and "[forbidden-hex]" in result.message


@pytest.mark.parametrize(
    "page,example_id,choice,value,reason",
    [
        # 14.1e: no space four out is open, so five out it is; nearer, farther or rock is refused
        ("14-events-winning-death", "counting-from-a-lair-entrance", 1, [2, 0], "not-counted"),
        ("14-events-winning-death", "counting-from-a-lair-entrance", 1, [6, -1], "not-counted"),
        ("14-events-winning-death", "counting-from-a-lair-entrance", 1, [4, 0], "undug"),
        ("14-events-winning-death", "counting-from-a-lair-entrance", 0, [2, 0], "not-counted"),
        # 2.3a: the tile's first space is the counted one, four spaces from The Pit
        ("02-components", "a-tile-d12-spaces-from-the-pit", 0, [[2, 1], [3, 1]], "not-counted"),
    ],
)
def test_a_count_of_spaces_ends_where_the_rules_say(page, example_id, choice, value, reason):
    example = next(e for e in examples_in(f"rules/cave-evil/{page}.md") if e.id == example_id)
    body = copy.deepcopy(example.body)
    (kind,) = body["choices"][choice]
    body["choices"][choice][kind] = value
    result = runner.run(body, engine())
    assert not result.passed and f"[{reason}]" in result.message, result.message
