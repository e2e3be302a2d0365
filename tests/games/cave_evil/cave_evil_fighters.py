"""The fight tests' card pool (fixtures/cave_evil_fighters.yaml) and a side parser."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import yaml

from charnel.games.cave_evil.engine.fight import Matchup
from charnel.games.cave_evil.fighters import Pool, parse_side

FIXTURE = Path(__file__).parent / "fixtures" / "cave_evil_fighters.yaml"


@cache
def pool() -> Pool:
    return Pool(yaml.safe_load(FIXTURE.read_text()))


def matchup(attacker: str, defender: str, **how: bool) -> Matchup:
    return Matchup(parse_side(attacker, pool()), parse_side(defender, pool()), **how)
