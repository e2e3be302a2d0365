"""pipeline.prepare: what check, examples, print and build all start from."""

from __future__ import annotations

from pathlib import Path

import pytest
from projects import DUEL, copy_project, only_game

from charnel import pipeline
from charnel.diagnostics import Problems

GAME = only_game(DUEL)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the toy game's project: rules with examples, and cards."""
    return copy_project(tmp_path, DUEL)


def _break(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_prepare_runs_every_example_and_card(project):
    problems = Problems()
    prepared = pipeline.prepare(project, GAME, problems)
    assert prepared is not None and not problems
    records = prepared.verified.records
    assert {o.example for o in prepared.outcomes if o.card is None} == {
        e.id for e in records.examples
    }
    assert any(o.card for o in prepared.outcomes)  # cards were verified too
    assert all(o.passed for o in prepared.outcomes)


def test_an_example_the_engine_cannot_read_is_a_problem_and_still_an_outcome(project):
    _break(project / f"rules/{GAME}/02-blows.md", "- strike: {by: a}", "- strik: {by: a}")
    problems = Problems()
    prepared = pipeline.prepare(project, GAME, problems)
    assert prepared is not None
    # once as written and once for each card verified against it
    assert problems and {p.origin.path for p in problems} == {f"rules/{GAME}/02-blows.md"}
    assert all("unknown action 'strik'" in p.message for p in problems)
    assert {o.example for o in prepared.outcomes if o.broken} == {"a-blow-is-a-die-and-might"}


def test_a_source_problem_stops_before_the_examples(project):
    _break(project / f"cards/{GAME}/embers/ash-page.yaml", "name:", "nme:")
    problems = Problems()
    assert pipeline.prepare(project, GAME, problems) is None
    assert problems and all("example" not in p.message for p in problems)


def test_progress_counts_every_run(project):
    seen: list[tuple[int, int]] = []
    prepared = pipeline.prepare(
        project, GAME, Problems(), count=lambda done, total: seen.append((done, total))
    )
    records = prepared.verified.records
    total = len(records.examples) + len(records.cards)
    assert seen[0] == (1, total) and seen[-1] == (total, total) and len(seen) == total
