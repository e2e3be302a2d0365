"""Load a game's authored rules even before its package exists (a bare `Game` stands in).

A game under development has rules and a glossary before it has a rules engine; its corpus is
checked all the same. Once the package is installed or named in CHARNEL_GAMES, it is used.
"""

from __future__ import annotations

from pathlib import Path
from unittest import mock

from charnel import registry
from charnel.diagnostics import Problems
from charnel.game import Game
from charnel.records import GameRecords
from charnel.sources.loader import load
from charnel.verify import references

REPO = Path(__file__).resolve().parent.parent


def load_corpus(game_id: str, root: Path = REPO) -> tuple[GameRecords | None, list]:
    """The game's records and the problems of loading and cross-referencing its rules: those
    found in `rules/<game>/`. Its cards are checked by their own tests."""
    known = registry.get

    def get(wanted: str) -> Game | None:
        found = known(wanted)
        if found is None and wanted == game_id:
            found = type("BareGame", (Game,), {"id": game_id})()
        return found

    problems = Problems()
    with mock.patch.object(registry, "get", get):
        records = load(root, game_id, problems)
    if records is not None:
        references.check(records, problems)
    rules = f"rules/{game_id}/"
    return records, [p for p in problems if p.origin.path.startswith(rules)]
