"""docs/architecture.md stays true: every hook it lists is one `Game` has, every `Engine`
member one `Engine` has, and every file or folder it points to exists."""

from __future__ import annotations

import re
from pathlib import Path

from charnel.engine import Engine
from charnel.games.base import Game

REPO = Path(__file__).resolve().parents[1]
DOC = (REPO / "docs/architecture.md").read_text(encoding="utf-8")
CODE = re.compile(r"`([^`\n]+)`")


def _table(heading: str) -> list[list[str]]:
    """The rows (cells) of the first table whose header row starts with `| heading |`."""
    lines = DOC.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {heading} |"))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def _names(cell: str) -> list[str]:
    return [re.split(r"[ (]", name)[0] for name in CODE.findall(cell)]


def test_every_hook_is_one_a_game_has():
    for cells in _table("hook"):
        if "(a file)" in cells[0]:
            continue
        for name in _names(cells[0]):
            assert hasattr(Game, name), f"docs/architecture.md names a hook Game lacks: {name}"


def test_every_engine_member_is_one_engine_has():
    for cells in _table("`Engine` member"):
        for name in _names(cells[0]):
            assert hasattr(Engine, name), f"docs/architecture.md names an Engine member: {name}"


def test_every_file_the_doc_points_to_exists():
    missing = []
    for path in CODE.findall(DOC):
        path = path.split(" ")[0].replace("<game>", "hecatomb").replace("<area>", "build")
        if "/" not in path or any(c in path for c in "<>*{$") or path.startswith(("build/", "/")):
            continue
        if not (REPO / path).exists() and not (REPO / "src/charnel" / path).exists():
            missing.append(path)
    assert not missing, f"docs/architecture.md points to files that do not exist: {missing}"


def _section_table(heading: str) -> list[list[str]]:
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


def _code(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def test_every_hook_in_the_table_is_on_game():
    rows = _section_table("## The core never names a game")
    hooks = [n for row in rows for n in _code(row[0]) if "." not in n]
    assert "fields" in hooks and "engine" in hooks
    missing = [h for h in hooks if not hasattr(Game, h)]
    assert not missing, f"docs/architecture.md names hooks Game does not have: {missing}"


def test_every_file_the_hook_table_names_exists():
    rows = _section_table("## The core never names a game")
    paths = [n for row in rows for n in _code(row[2]) if "/" in n or n.endswith((".py", ".yaml"))]
    missing = [p for p in paths if not (REPO / "src" / "charnel" / p).exists()]
    assert not missing, missing


def test_every_file_where_does_my_code_go_names_exists():
    rows = _section_table("## Where does my code go?")
    named = [n for row in rows for n in _code(row[1])
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
