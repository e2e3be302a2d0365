"""Running Cave Evil examples in tests: the engine over the card files of cards/cave-evil,
read as plain card fields (the deck from the folder)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import yaml

from charnel import example_language, registry
from charnel.diagnostics import Problems
from charnel.engine import runner
from charnel.games.cave_evil.engine.odds_fact import odds_of
from charnel.games.cave_evil.engine.pieces import CONJURATION_DECKS, slug
from charnel.games.cave_evil.engine.runner import CaveEvilEngine

ROOT = Path(__file__).resolve().parents[3]
# the game's own documents, as the repository names them
DOCS = registry.get("cave-evil").docs_dir.relative_to(ROOT).as_posix()


@cache
def pool() -> dict:
    out = {}
    for path in sorted((ROOT / "cards" / "cave-evil").glob("*/*.yaml")):
        body = yaml.safe_load(path.read_text()) or {}
        if path.parent.name in CONJURATION_DECKS:
            body.setdefault("deck", path.parent.name)
        out[path.stem] = body
        out.setdefault(slug(str(body.get("name", path.stem))), body)
    return out


def engine() -> CaveEvilEngine:
    return CaveEvilEngine(pool(), odds=odds_of)


def examples_in(rel: str):
    problems = Problems()
    found = example_language.read_file(ROOT / rel, rel, problems)
    assert not problems, problems
    return found


def run(example) -> runner.RunResult:
    """The example run on its own: its $variables, if any, from its own subject."""
    made = engine()
    return runner.run(made.body(example), made)
