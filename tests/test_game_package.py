"""A game is one folder that may be installed under any package name: it imports its own
modules relatively and finds its files through its own folder, never through `charnel.games`."""

from __future__ import annotations

import ast
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from charnel import registry
from charnel.game import Game


def _package(game) -> tuple[str, Path]:
    """The top package of a game's module, and its folder."""
    name = type(game).__module__.rpartition(".")[0] or type(game).__module__
    return name, Path(sys.modules[name].__file__).resolve().parent


def _absolute_imports_of(package: str, folder: Path) -> list[str]:
    """`file:line: module` for each import that names the package from inside it."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level
                     else [])
            found += [f"{path.relative_to(folder)}:{node.lineno}: {name}" for name in names
                      if name == package or name.startswith(package + ".")]
    return found


@pytest.mark.parametrize("game_id", sorted(registry.available()))
def test_a_game_package_imports_its_own_modules_relatively(game_id):
    package, folder = _package(registry.get(game_id))
    assert _absolute_imports_of(package, folder) == []


def test_an_absolute_import_of_the_package_is_found(tmp_path):
    (tmp_path / "engine.py").write_text("import os\nfrom dark_keep.rules import turn\n")
    (tmp_path / "game.py").write_text("from .engine import x\nimport dark_keep.cards\n")
    assert _absolute_imports_of("dark_keep", tmp_path) == [
        "engine.py:2: dark_keep.rules", "game.py:2: dark_keep.cards",
    ]



class _Point:
    """An entry point as importlib.metadata gives it: its name, target and distribution."""

    def __init__(self, name: str, module: str, dist: str | None):
        self.name, self.module, self.attr = name, module, "game"
        self.dist = None if dist is None else type("Dist", (), {"name": dist})()


def test_a_game_installed_on_its_own_replaces_the_bundled_one_of_its_name(monkeypatch):
    points = [_Point("dark-keep", "charnel.games.dark_keep", "charnel"),
              _Point("dark-keep", "dark_keep_game", "dark-keep-game"),
              _Point("moor", "charnel.games.moor", "charnel"),
              _Point("fen", "fen", None)]
    monkeypatch.setattr(registry, "entry_points", lambda group: points)
    assert registry._installed() == [
        ("dark_keep_game", "game"), ("charnel.games.moor", "game"), ("fen", "game"),
    ]


def test_two_installed_packages_giving_one_game_is_a_problem(monkeypatch):
    class Keep(Game):
        id = "dark-keep"

    modules = {name: SimpleNamespace(__name__=name, game=Keep()) for name in ("first", "second")}
    points = [_Point("dark-keep", "first", "dark-keep-game"),
              _Point("keep", "second", "keep-fork")]
    monkeypatch.setattr(registry, "entry_points", lambda group: points)
    monkeypatch.setattr(registry, "import_module", modules.__getitem__)
    monkeypatch.delenv("CHARNEL_GAMES", raising=False)
    registry.forget()
    try:
        found, problems = registry._found()
        assert found["dark-keep"] is modules["first"].game
        assert [p.message for p in problems] == [
            "game 'dark-keep' is given by two installed packages, 'first' and 'second': the "
            "first is used; uninstall the other",
        ]
        assert problems[0].origin.path.endswith("second")  # where the second one is
    finally:
        monkeypatch.undo()
        registry.forget()
