"""The fight tests' card pool (fixtures/cave_evil_fighters.yaml) and sides written as text,
made into a matchup the way `charnel odds` makes it (the engine's squads)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import yaml

from charnel.games.cave_evil.engine.fight import Matchup
from charnel.games.cave_evil.fighters import Pool
from charnel.games.cave_evil.odds_report import matchup as fought
from charnel.games.cave_evil.odds_report import squads_of

FIXTURE = Path(__file__).parent / "fixtures" / "cave_evil_fighters.yaml"


@cache
def pool() -> Pool:
    return Pool(yaml.safe_load(FIXTURE.read_text()))


def matchup(attacker: str, defender: str, *, ranged=False, ranged_defence=False) -> Matchup:
    modes = ["ranged"] * ranged + ["ranged-defence"] * ranged_defence
    return fought(*squads_of(pool(), attacker, defender, modes), modes)
