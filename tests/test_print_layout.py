"""A game's print layout: mistakes in it are reported at their place, and never half-print."""

from __future__ import annotations

from pathlib import Path

import pytest
from projects import DUEL, copy_project, only_game

from charnel import examples, pipeline, registry
from charnel.diagnostics import InputError, Problems
from charnel.printing import build_print, layout

GAME = only_game(DUEL)


def checked(project: Path):
    problems = Problems()
    result = pipeline.check(project, GAME, problems)
    assert not problems and result is not None
    return result


@pytest.fixture
def verified(tmp_path: Path):
    return checked(copy_project(tmp_path / "project", DUEL))


def lengthened(project: Path) -> Path:
    """`project` with a section of some two hundred clauses more, longer than a page."""
    rules = [f"## 3.{n} Rounds {n}\n\n" + "".join(
        f"3.{n}{letter} Round {n} goes on as the round before it, blow after blow. [p. 3]\n\n"
        for letter in "abcdefghijklmnopqrstuvwxyz") for n in range(1, 10)]
    (project / "rules" / GAME / "03-rounds.md").write_text("# 3. Rounds\n\n" + "".join(rules))
    return project


def use_layout(monkeypatch, tmp_path: Path, text: str) -> Path:
    path = tmp_path / "print.yaml"
    path.write_text(text, encoding="utf-8")
    monkeypatch.setattr(layout, "layout_path", lambda game: path)
    return path


def written_rule(verified, level: int = 2) -> str:
    return next(c.number for c in verified.records.clauses if c.level == level)


def problems_of(verified, tmp_path: Path) -> list[str]:
    with pytest.raises(InputError) as caught:
        build_print(verified, [], tmp_path / "out")
    return [p.render() for p in caught.value.problems]


def test_a_missing_clause_in_a_written_section_is_reported_at_its_place(
    verified, monkeypatch, tmp_path
):
    first = written_rule(verified)
    section = first.split(".")[0]
    path = use_layout(
        monkeypatch, tmp_path,
        f'player_aid:\n  - title: Setup\n    rules: ["{first}", "{section}.99z"]\n',
    )
    [message] = problems_of(verified, tmp_path)
    assert message.startswith(f"{path}:3:")
    assert f"no clause {section}.99z" in message


def test_a_backwards_range_and_an_unknown_field_are_both_reported(verified, monkeypatch, tmp_path):
    rules = [c.number for c in verified.records.clauses if c.level == 2]
    path = use_layout(
        monkeypatch, tmp_path,
        f'player_aid:\n  - title: Turn\n    rules: ["{rules[-1]}-{rules[0]}"]\ncolour: red\n',
    )
    messages = problems_of(verified, tmp_path)
    assert any(m.startswith(f"{path}:4:") and "unknown field 'colour'" in m for m in messages)


def test_ranges_select_clauses_in_document_order_and_skip_unwritten_sections(
    verified, monkeypatch, tmp_path
):
    clauses = verified.records.clauses
    a, b = clauses[2].number, clauses[6].number
    use_layout(
        monkeypatch, tmp_path,
        f'player_aid:\n  - title: Part\n    rules: ["{a}-{b}", "999.1a"]\n  - title: Later\n'
        f'    rules: ["998.1"]\n',
    )
    problems = Problems()
    plan = layout.load(registry.get(GAME), problems)
    parts = layout.aid_sections(plan, verified.records, problems)
    assert not problems
    assert [p.title for p in parts] == ["Part"]
    assert [c.number for c in parts[0].clauses] == [c.number for c in clauses[2:7]]


def test_an_aid_too_long_for_its_pages_fails_and_keeps_the_previous_pdfs(monkeypatch, tmp_path):
    verified = checked(lengthened(copy_project(tmp_path / "project", DUEL)))
    every = f"{verified.records.clauses[1].number}-{verified.records.clauses[-1].number}"
    path = use_layout(
        monkeypatch, tmp_path,
        f'player_aid:\n  - title: Everything\n    rules: ["{every}"]\naid_pages: 1\n',
    )
    out = tmp_path / "out"
    out.mkdir()
    old = out / f"{GAME}-rules.pdf"
    old.write_bytes(b"previous build")
    outcomes = examples.run_all(verified.records)
    with pytest.raises(InputError) as caught:
        build_print(verified, outcomes, out)
    [problem] = list(caught.value.problems)
    assert problem.origin.path == str(path) and problem.origin.line == 1
    assert "aid_pages allows 1" in problem.message
    assert old.read_bytes() == b"previous build"
    assert sorted(p.name for p in out.iterdir()) == [old.name]


def test_paper_must_be_a_known_size(verified, tmp_path):
    with pytest.raises(ValueError, match="a4, letter"):
        build_print(verified, [], tmp_path, paper="a3")
