"""Whatever shape an example's values take, running it reports a problem and never raises:
the corpus's own examples, with values swapped for odd ones (seeded, so repeatable)."""

from __future__ import annotations

import copy
import random

from engine_case import engine, records

from charnel.engine import runner

ODD = [None, True, -1, 0, 7, "x", "A", "A.9", "$n", [], {}, [1], {"a": 1}, "greed", 3.5, "X"]


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
    recs = records()
    rng = random.Random(7)
    broken = 0
    for _ in range(1500):
        body = copy.deepcopy(rng.choice(recs.examples).body)
        paths = list(_leaves(body))
        target = body
        path = rng.choice(paths)
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = copy.deepcopy(rng.choice(ODD))
        result = runner.run(body, engine())  # must not raise
        broken += result.broken
    assert broken > 100  # the mutations do reach the checks
