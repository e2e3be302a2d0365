"""Every Cave Evil example of the documentation pages runs and passes, each its own test."""

from __future__ import annotations

import pytest
from cave_evil_support import examples_in, run

PAGES = ["docs/examples-cave-evil.md"]
EXAMPLES = [(page, e) for page in PAGES for e in examples_in(page)]


@pytest.mark.parametrize("page,example", EXAMPLES, ids=[e.id for _, e in EXAMPLES])
def test_example_passes(page, example):
    result = run(example)
    assert result.passed, f"{page}: {example.id}: {result.message}\n" + "\n".join(result.diff)


def test_ids_are_unique():
    ids = [e.id for _, e in EXAMPLES]
    assert len(ids) == len(set(ids))
