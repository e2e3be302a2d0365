"""`charnel odds` for Cave Evil: two sides written as card names, the exact odds per first
attribute as a table (attributes by their printed abbreviations, st to wp, so a row fits 80
columns) and as data."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from charnel.games.cave_evil.engine.fight import (
    FightError,
    Matchup,
    neighbours,
    totals,
)
from charnel.games.cave_evil.engine.odds import four_places, odds
from charnel.games.cave_evil.fighters import Pool, parse_side

MODES = {
    "ranged": "the attacker fights at range: only its ranged creatures count, and it "
    "survives a lost fight",
    "ranged-defence": "the defender answers a ranged attack with only its ranged creatures, "
    "and kills the attacker if it wins",
}


def matchup(cards: Iterable[Any], attacker: str, defender: str, modes: Sequence[str]) -> Matchup:
    unknown = sorted(set(modes) - set(MODES))
    if unknown:
        raise FightError(f"unknown mode '{unknown[0]}' (known: {', '.join(MODES)})")
    pool = Pool(cards)
    return Matchup(
        parse_side(attacker, pool),
        parse_side(defender, pool),
        ranged="ranged" in modes or "ranged-defence" in modes,
        ranged_defence="ranged-defence" in modes,
    )


def fight_odds(
    cards: Iterable[Any], attacker: str, defender: str, modes: Sequence[str] = ()
) -> dict[str, Any]:
    """The report `charnel odds` prints: a title, a table, and the same as plain data."""
    fight = matchup(cards, attacker, defender, modes)
    mine, theirs = totals(fight)
    table = odds(fight)
    rows = []
    for first, row in table.items():
        then = [f"{a} {four_places(row.rounds[a])}" for a in neighbours(first)]
        rows.append(
            [
                first,
                f"{mine[first]} v {theirs[first]}",
                four_places(row.rounds[first]),
                "  ".join(then),
                four_places(row.attacker),
                four_places(row.defender),
            ]
        )
    lethal = "" if fight.attacker_may_die else "; a losing attacker survives"
    best = max(table.values(), key=lambda row: row.attacker)  # the first of equals, ring order
    return {
        "title": f"{attacker.strip()} attacking {defender.strip()}{lethal}; "
        f"best first: {best.first} ({four_places(best.attacker)})",
        "columns": ["first", "totals", "round 1", "rounds 2, 3", "attacker", "defender"],
        "rows": rows,
        "data": {
            "attacker": {"side": attacker.strip(), "totals": mine},
            "defender": {"side": defender.strip(), "totals": theirs},
            "modes": sorted(set(modes)),
            "best": best.first,
            "odds": [row.as_dict() for row in table.values()],
        },
    }
