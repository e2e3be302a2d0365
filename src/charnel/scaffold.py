"""`charnel new`: a rules reference for a game of one's own, started outside this repository.

The project it writes is complete and small: the game's data (game.yaml, a rules document of
one clause with one example, a glossary of one term, one card), its package (the `Game`, a
rules engine of one action and one fact, registered under the `charnel.games` entry point)
and a README saying how to install, check, build, serve and print it. A data-only game has
no engine and so no example: everything else works, and the coverage report says so.
"""

from __future__ import annotations

from pathlib import Path

from charnel.registry import GAME_ID, package_name

FILES = {
    "README.md": """\
# {title}

A rules reference for {title}, made with charnel: its rules restated in your own words under
`rules/{id}/`, its cards under `cards/{id}/`, and the game's package (`{package}/`) that tells
charnel what its cards carry and, when it has a rules engine, how the rules' examples run.

```bash
python3 -m venv .venv && .venv/bin/pip install -e .   # charnel and this game
source .venv/bin/activate
charnel check                 # every problem, at its file and line
charnel examples              # the rules' examples, run by the game's engine
charnel build                 # build/{id}.db, build/site/, build/print/
charnel serve                 # the site at http://127.0.0.1:8001/
charnel print                 # build/print/{id}-rules.pdf and the rest
```

Each clause of `rules/{id}/01-basics.md` cites the rulebook page it restates (`[p. 1]`); a
```` ```example ```` block under a clause is a test of it.
""",
    "pyproject.toml": """\
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "charnel-game-{id}"
version = "0.1.0"
description = "{title}: a rules reference made with charnel"
requires-python = ">=3.11"
dependencies = ["charnel"]

[project.entry-points."charnel.games"]
{id} = "{package}:game"

[tool.setuptools]
packages = ["{package}"]
""",
    "{package}/__init__.py": '''\
"""{title} for charnel: its card fields and its rules engine."""

from .game import {cls}

game = {cls}()
''',
    "{package}/game.py": '''\
"""What charnel asks of {title}: its card fields and its rules engine."""

from __future__ import annotations

from charnel.fields import REQUIRED, CardField, Search
from charnel.game import Game

FIELDS = (
    CardField("points", int, "The points the card is worth.", REQUIRED, rules={{"ge": 0}},
              numbers=True, search=Search(("pts", "points"), "Points (compares).", "pts>=1")),
)


class {cls}(Game):
    id = "{id}"
    fields = FIELDS
    search_examples = ("pts>=1",)
''',
    "{package}/engine.py": '''\
"""{title}'s rules engine: a state of each player's points; one action scores."""

from __future__ import annotations

from charnel.engine import Action, Engine, Illegal, reject_unknown

PLAYERS = ("a", "b")


def score(state: dict, args: dict) -> None:
    """Clause 1.1a: a player scores the points they name."""
    player, points = args.get("player"), args.get("points")
    if player not in PLAYERS:
        raise Illegal("no-such-player", f"'player' is one of {{', '.join(PLAYERS)}}")
    state[player] += int(points)


class ScoreEngine(Engine):
    actions = {{"score": Action(score, frozenset({{"player", "points"}}))}}

    def setup(self, given: dict, script) -> dict:
        reject_unknown(given, {{"points"}}, ("given",), "state field")
        return {{p: 0 for p in PLAYERS}} | dict(given.get("points") or {{}})

    def compare(self, state: dict, then: dict):
        reject_unknown(then, {{"points"}}, ("then",), "fact")
        return [(f"points of {{p}}", want, state[p])
                for p, want in sorted((then.get("points") or {{}}).items()) if state[p] != want]

    def snapshot(self, state: dict) -> dict:
        return {{"points": dict(state)}}
''',
    "rules/{id}/game.yaml": """\
id: {id}
title: {title}
publisher: its publisher
published: 2026
rules_version: "0.1"
rules_date: "2026-01-01"
rulebook: the {title} rulebook
description: A rules reference for {title}.
card_pool_note: Cards written for this reference.
card_types:
  - {{id: card, name: Card, plural: Cards}}
sets:
  - {{code: base, name: Base}}
""",
    "rules/{id}/glossary.yaml": """\
terms:
- term: point
  definition: What players score; the player with more wins.
  rules: [1.1a]
""",
    "rules/{id}/01-basics.md": """\
# 1. Basics

Two players score [[point|points]].

## 1.1 Scoring

1.1a A player who scores adds the points scored to their own. [p. 1]
""",
    "cards/{id}/base/first-card.yaml": """\
name: First Card
type: card
points: 1
text: Worth one point.
""",
}
# What a game with a rules engine adds: the engine hook, and an example the engine runs.
ENGINE = {
    "{package}/game.py": '''
    def engine(self, records):
        from .engine import ScoreEngine

        return ScoreEngine()
''',
    "rules/{id}/01-basics.md": """
```example
id: scoring-adds-points
title: Scoring adds to the player's points
given: {{points: {{a: 1}}}}
when:
  - score: {{player: a, points: 2}}
then: {{points: {{a: 3, b: 0}}}}
```
""",
}
DATA_ONLY_LEFT_OUT = ("{package}/engine.py",)


class ProjectError(ValueError):
    """Why a project cannot be written there (one line)."""


def new_project(target: Path, game_id: str, *, data_only: bool = False) -> list[Path]:
    """Write a new game's project into `target` (absent or empty); returns the files written.
    `data_only`: rules, glossary and cards with no rules engine, so no example either."""
    if not GAME_ID.fullmatch(game_id):
        raise ProjectError(f"a game id is lower-case words joined by '-', not {game_id!r}")
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise ProjectError(f"{target} is not an empty folder")
    package = package_name(game_id)
    names = {
        "id": game_id,
        "package": package,
        "title": " ".join(w.capitalize() for w in game_id.split("-")),
        "cls": "".join(w.capitalize() for w in game_id.split("-")),
    }
    written = []
    for path, text in FILES.items():
        if data_only and path in DATA_ONLY_LEFT_OUT:
            continue
        text += "" if data_only else ENGINE.get(path, "")
        out = target / path.format(**names)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text.format(**names), encoding="utf-8")
        written.append(out)
    return written
