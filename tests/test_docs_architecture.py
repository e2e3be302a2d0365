"""docs/architecture.md stays true: every hook its table names is on `Game`, and every file or
folder it names exists."""

from __future__ import annotations

import re
from pathlib import Path

from charnel.games.base import Game

REPO = Path(__file__).resolve().parent.parent
DOC = (REPO / "docs" / "architecture.md").read_text("utf-8")


def _table(heading: str) -> list[list[str]]:
    """The rows of the first table after `heading`, as lists of cells."""
    section = DOC.split(heading, 1)[1]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    lines = []
    for line in section.splitlines():
        if line.startswith("|"):
            lines.append(line)
        elif lines:
            break
    assert lines == rows[: len(lines)]
    return [[c.strip() for c in line.strip("|").split("|")] for line in lines[2:]]


def _names(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def test_every_hook_in_the_table_is_on_game():
    rows = _table("## The core never names a game")
    hooks = [n for row in rows for n in _names(row[0]) if "." not in n]
    assert "fields" in hooks and "engine" in hooks
    missing = [h for h in hooks if not hasattr(Game, h)]
    assert not missing, f"docs/architecture.md names hooks Game does not have: {missing}"


def test_every_file_the_hook_table_names_exists():
    rows = _table("## The core never names a game")
    paths = [n for row in rows for n in _names(row[2]) if "/" in n or n.endswith((".py", ".yaml"))]
    missing = [p for p in paths if not (REPO / "src" / "charnel" / p).exists()]
    assert not missing, missing


def test_every_file_where_does_my_code_go_names_exists():
    rows = _table("## Where does my code go?")
    named = [n for row in rows for n in _names(row[1])
             if n.startswith(("src/", "site_templates/", "scripts/", "docs/", "tests/"))]
    assert len(named) > 20
    missing = []
    for name in named:
        path = re.sub(r"\s*\(.*", "", name).replace("<game>", "hecatomb")
        if "*" in path:
            found = list(REPO.glob(path))
        else:
            found = [REPO / path] if (REPO / path).exists() else []
        if not found and not path.startswith("scripts/bench_<"):
            missing.append(name)
    assert not missing, missing
