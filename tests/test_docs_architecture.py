"""docs/architecture.md stays true: every hook it lists is one `Game` has, every `Engine`
member one `Engine` has, and every file it points to exists."""

from __future__ import annotations

import re
from pathlib import Path

from charnel import registry
from charnel.engine import Engine
from charnel.game import Game

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
    # a path with `<game>` in it holds when it does for one of the games installed here
    games = {w for g in registry.available().values() for w in (g.id, g.id.replace("-", "_"))}
    missing = []
    for path in CODE.findall(DOC):
        path = path.split(" ")[0].replace("<area>", "build")
        some = [path.replace("<game>", g) for g in sorted(games)]
        if "/" not in path or any(c in some[0] for c in "<>*{$") or path.startswith(
            ("build/", "/")
        ):
            continue
        if not any((REPO / p).exists() or (REPO / "src/charnel" / p).exists() for p in some):
            missing.append(path)
    assert not missing, f"docs/architecture.md points to files that do not exist: {missing}"


def test_how_to_add_a_game_names_the_hooks_a_game_writes():
    """A game writes its `id`, its `fields` and its `engine`; the rest has defaults."""
    hooks = {name for cells in _table("hook") for name in _names(cells[0])}
    assert {"id", "fields", "engine"} <= hooks
    section = DOC.split("## How to add a game", 1)[1].split("\n## ", 1)[0]
    assert "CardField(" in section and "CHARNEL_GAMES" in section
