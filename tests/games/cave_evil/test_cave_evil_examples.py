"""Every Cave Evil example of the documentation pages runs and passes, each its own test."""

from __future__ import annotations

import pytest
from cave_evil_support import DOCS, ROOT, examples_in, run

from charnel.engine import outcomes

PAGES = [
    f"{DOCS}/examples.md",
    *sorted(f"rules/cave-evil/{p.name}" for p in (ROOT / "rules" / "cave-evil").glob("*.md")),
    # card files that carry examples of their own
    *sorted(
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "cards" / "cave-evil").glob("*/*.yaml")
        if "\nexamples:" in p.read_text(encoding="utf-8")
    ),
]
EXAMPLES = [(page, e) for page in PAGES for e in examples_in(page)]


@pytest.mark.parametrize("page,example", EXAMPLES, ids=[e.id for _, e in EXAMPLES])
def test_example_passes(page, example):
    result = run(example)
    assert result.passed, f"{page}: {example.id}: {result.message}\n" + "\n".join(result.diff)


def test_ids_are_unique():
    ids = [e.id for _, e in EXAMPLES]
    assert len(ids) == len(set(ids))


def test_bad_examples_are_located_problems():
    from cave_evil_support import ROOT

    from charnel import examples
    from charnel.engine import outcomes

    bad = "tests/games/cave_evil/examples-bad"
    shown = []
    for example in examples_in(f"{bad}/bad.md"):
        outcome = outcomes.outcome(example, run(example))
        assert not outcome.passed
        shown.append(examples.as_problem(outcome).render(ROOT).splitlines()[0])
    expected = (ROOT / bad / "expected.txt").read_text().splitlines()
    assert len(shown) == len(expected)
    for line, want in zip(shown, expected, strict=True):
        assert line.startswith(want), f"{line!r} does not start with {want!r}"


def test_rules_examples_run_through_the_game_plugin():
    """As `charnel examples` and the pytest plugin run them: the game's engine over the loaded
    records, the pool read from the card models."""
    from charnel import registry
    from charnel.diagnostics import Problems
    from charnel.sources import loader

    records = loader.load(ROOT, "cave-evil", Problems())
    assert records is not None and records.examples
    game = registry.get("cave-evil")
    made = [outcomes.run_example(game, e, records) for e in records.examples]
    failed = [(o.example, o.message) for o in made if not o.passed]
    assert not failed, failed
    assert len(made) >= 120
