"""Games are plugins: data under rules/<game>/ plus a package registered under the
`charnel.games` entry point. The core asks this module for a game by id and never names one.

A game installed from another distribution under the entry-point name of a game bundled with
charnel replaces that one (which is then never imported): a game's own package may outgrow the
copy charnel ships. Two other installed packages giving one game id is a problem (the first
found is used).

Besides installed entry points, `CHARNEL_GAMES` may name further games as `module:attribute`
entries separated by spaces or commas (as PYTEST_PLUGINS names plugins): a game under
development, or the test suite's own games, without installing a package.
"""

from __future__ import annotations

import inspect
import os
import re
from functools import cache
from importlib import import_module
from importlib.metadata import entry_points
from pathlib import Path

from charnel.diagnostics import Origin, Problem
from charnel.game import Game

GAME_ID = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


def package_name(game_id: str) -> str:
    """The Python package a game's id names: 'dark-keep' -> 'dark_keep'."""
    return game_id.replace("-", "_")


@cache
def available() -> dict[str, Game]:
    return dict(sorted(_found()[0].items()))


def forget() -> None:
    """Look for the games again at the next question (after CHARNEL_GAMES changed)."""
    _found.cache_clear()
    available.cache_clear()


@cache
def _found() -> tuple[dict[str, Game], list[Problem]]:
    """The games that load, and a problem for each package that does not give one."""
    found: dict[str, Game] = {}
    problems: list[Problem] = []
    named = _installed()
    installed = len(named)  # the rest are CHARNEL_GAMES', which may replace an installed game
    given_by: dict[str, str] = {}
    for entry in re.split(r"[\s,]+", os.environ.get("CHARNEL_GAMES", "").strip()):
        if entry:
            module, _, attribute = entry.partition(":")
            named.append((module, attribute or "game"))
    for index, (module_name, attribute) in enumerate(named):
        try:
            module = import_module(module_name)
        except ImportError as exc:
            problems.append(Problem(Origin(module_name), f"game package cannot be imported: {exc}"))
            continue
        where = _origin(module)
        game = getattr(module, attribute, None)
        if not isinstance(game, Game):
            problems.append(Problem(where, f"game package '{module_name}' has no '{attribute}': "
                                           "a Game instance the core asks for everything"))
            continue
        if not GAME_ID.fullmatch(game.id or ""):
            problems.append(Problem(where, f"game '{module_name}:{attribute}' has no id of "
                                           "lower-case words joined by '-'"))
            continue
        if index < installed and game.id in given_by and found[game.id] is not game:
            problems.append(Problem(where, f"game '{game.id}' is given by two installed "
                                           f"packages, '{given_by[game.id]}' and '{module_name}':"
                                           " the first is used; uninstall the other"))
            continue
        given_by[game.id] = module_name
        found[game.id] = game
    return found, problems


def _installed() -> list[tuple[str, str]]:
    """(module, attribute) of each installed game, a bundled one left out where a package of
    its own gives a game under the same name."""
    points = entry_points(group="charnel.games")
    own = {ep.name for ep in points if not _bundled(ep)}
    return [(ep.module, ep.attr or "game") for ep in points
            if not (_bundled(ep) and ep.name in own)]


def _bundled(point) -> bool:
    return point.dist is not None and point.dist.name == "charnel"


def problems(game_id: str | None = None) -> list[Problem]:
    """What is wrong with the game packages (one game's, or all), each at its place."""
    from charnel.fields import duplicates, search_clashes
    from charnel.query import CORE_FIELDS, KEYWORD_FIELDS
    from charnel.records import CardBase

    found, broken = _found()
    out = list(broken)
    for game in ([found[game_id]] if game_id in found else found.values()):
        for name in duplicates(game.fields, list(CardBase.model_fields)):
            out.append(Problem(_declared_at(game, name), f"card field '{name}' is declared twice"))
        core = [*CORE_FIELDS, *(KEYWORD_FIELDS if game.has_keywords else ())]
        for name in search_clashes(game.fields, core):
            taken = ("every game's search has it already" if name in core
                     else "another of the game's fields has it already")
            out.append(Problem(
                _declared_at(game, name, search=True),
                f"search name '{name}' is claimed by two fields: {taken}, and one of them would "
                "never be found; give this one a name of its own",
            ))
    return out


def class_origin(game: Game) -> Origin:
    """Where a game's class is written, for problems with the game package itself."""
    try:
        lines, line = inspect.getsourcelines(type(game))
        path = inspect.getsourcefile(type(game)) or ""
    except (OSError, TypeError):
        return Origin(type(game).__module__)
    return Origin(_shown(path), line, 1)


def _origin(module) -> Origin:
    path = getattr(module, "__file__", None) or module.__name__
    return Origin(_shown(path), 1, 1)


def _shown(path: str) -> str:
    """A package file as messages name it: absolute, since it is not one of the project's files
    (and so the line under the message can be shown whatever the project folder)."""
    return Path(path).resolve().as_posix()


def _declared_at(game: Game, name: str, *, search: bool = False) -> Origin:
    """The second place a field (or with `search`, a search name) is declared in its game's
    source (where it is declared twice)."""
    path = inspect.getsourcefile(type(game)) or ""
    # the fields may be declared beside the class or in another module of its package
    found: list[Origin] = []
    for source in dict.fromkeys([path, *_field_sources(game)]):
        try:
            lines = Path(source).read_text(encoding="utf-8").splitlines()
        except OSError:
            continue
        pattern = re.compile(rf'Search\(\s*\([^)]*"{re.escape(name)}"' if search
                             else rf'(CardField|Column)\(\s*"{re.escape(name)}"')
        found += [Origin(_shown(source), i, line.index(f'"{name}"') + 1)
                  for i, line in enumerate(lines, 1) if pattern.search(line)]
    # the game's own file first: a field declared again there is the one to point at
    return found[1] if len(found) > 1 and found[0].path != _shown(path) else (
        found[-1] if found else Origin(_shown(path), 1, 1)
    )


def _field_sources(game: Game) -> list[str]:
    import sys

    package = type(game).__module__.rpartition(".")[0] or type(game).__module__
    return [m.__file__ for n, m in sorted(sys.modules.items())
            if (n == package or n.startswith(package + ".")) and getattr(m, "__file__", None)]


def get(game_id: str) -> Game | None:
    return available().get(game_id)


__all__ = [
    "GAME_ID", "Game", "available", "class_origin", "forget", "get", "package_name", "problems",
]
