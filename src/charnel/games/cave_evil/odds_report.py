"""`charnel odds` for Cave Evil: two sides written as card names, made into the engine's squads
and fought as the engine fights them (`engine.sides`), the exact odds per first attribute as a
table (attributes by their printed abbreviations, st to wp, so a row fits 80 columns) and as
data. The fight calculator's server answer is this same report."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

from .engine import sides
from .engine.effects import aftermath
from .engine.fight import FightError, Matchup, neighbours, totals
from .engine.odds import FirstOdds, four_places, odds, picked
from .engine.state import Squad
from .fighters import Pool, parse_side

MODES = {
    "ranged": "the attacker fights at range: only its ranged creatures and what they can use "
    "count, and it survives a lost fight",
    "ranged-defence": "the defender answers a ranged attack with only its ranged creatures, "
    "and kills the attacker if it wins",
    "separately": "a creature that rips squads apart (the Attacktite) has its squad fight each "
    "defending creature in a Combat of its own",
}


def squads_of(
    pool: Pool, attacker: str, defender: str, modes: Sequence[str]
) -> tuple[list[Squad], list[Squad]]:
    unknown = sorted(set(modes) - set(MODES))
    if unknown:
        raise FightError(f"unknown mode '{unknown[0]}' (known: {', '.join(MODES)})")
    return parse_side(attacker, pool, "attacker"), parse_side(defender, pool, "defender")


def matchup(mine: list[Squad], theirs: list[Squad], modes: Sequence[str]) -> Matchup:
    """The fight as the engine counts it, for these squads and modes."""
    return sides.of_squads(
        mine,
        theirs,
        ranged="ranged" in modes,
        ranged_defence="ranged-defence" in modes,
    )


def separate(mine: list[Squad], theirs: list[Squad], modes: Sequence[str]) -> list[Matchup]:
    ranged = "ranged" in modes or "ranged-defence" in modes
    return sides.separate(mine, theirs, ranged=ranged)


def _row(first: str, row: FirstOdds, mine: dict, theirs: dict, label: str | None = None) -> list:
    then = [f"{a} {four_places(row.rounds[a])}" for a in neighbours(first)]
    return [
        label or first,
        f"{mine[first]} v {theirs[first]}",
        four_places(row.rounds[first]),
        "  ".join(then),
        four_places(row.attacker),
        four_places(row.defender),
    ]


def fight_odds(
    cards: Iterable[Any], attacker: str, defender: str, modes: Sequence[str] = ()
) -> dict[str, Any]:
    """The report `charnel odds` prints: a title, a table, and the same as plain data."""
    mine_squads, their_squads = squads_of(Pool(cards), attacker, defender, modes)
    if "separately" in modes:
        fights = separate(mine_squads, their_squads, modes)
        spared = aftermath.spares_one(their_squads[0])
        return _separately(attacker, defender, modes, fights, spared)
    fight = matchup(mine_squads, their_squads, modes)
    mine, theirs = totals(fight)
    table = odds(fight)
    best = picked(fight, table)
    lethal = "" if fight.attacker_may_die else "; a losing attacker survives"
    who = "the defender picks first" if fight.first_by == "defender" else "best first"
    idle = [*fight.idle[0], *fight.idle[1]]
    unused = f"; not counted: {', '.join(idle)}" if idle else ""
    return {
        "title": f"{attacker.strip()} attacking {defender.strip()}{lethal}; "
        f"{who}: {best.first} ({four_places(best.attacker)}){unused}",
        "columns": ["first", "totals", "round 1", "rounds 2, 3", "attacker", "defender"],
        "rows": [_row(first, row, mine, theirs) for first, row in table.items()],
        "data": {
            "attacker": {"side": attacker.strip(), "totals": mine, "idle": list(fight.idle[0])},
            "defender": {"side": defender.strip(), "totals": theirs, "idle": list(fight.idle[1])},
            "modes": sorted(set(modes)),
            "first_by": fight.first_by,
            "best": best.first,
            "result": _result(best.first, best.attacker, best.attacker_dies),
            "odds": [row.as_dict() for row in table.values()],
        },
    }


def _result(first: Any, attacker: Fraction, dies: Fraction) -> dict[str, Any]:
    """The answer in one line: the first attribute(s) taken, the exact chances."""
    return {
        "first": first,
        "attacker": str(attacker),
        "defender": str(1 - attacker),
        "attacker_dies": str(dies),
    }


def _separately(
    attacker: str, defender: str, modes: Sequence[str], fights: list, spared: bool
) -> dict:
    """Each Combat with its first attribute picked; the attacker kills the squad only by
    winning them all, and dies at its first loss; never, if an item returns one creature."""
    rows, parts, firsts = [], [], []
    whole = Fraction(1)
    for fight in fights:
        mine, theirs = totals(fight)
        table = odds(fight)
        best = picked(fight, table)
        name = fight.defender[0].creatures[0].name
        rows.append(_row(best.first, best, mine, theirs, f"{best.first} v {name}"))
        parts.append(
            {
                "creature": name,
                "first_by": fight.first_by,
                "best": best.first,
                "totals": {"attacker": mine, "defender": theirs},
                "odds": [row.as_dict() for row in table.values()],
            }
        )
        firsts.append(best.first)
        whole *= best.attacker
    if spared:
        whole = Fraction(0)
    return {
        "title": f"{attacker.strip()} attacking {defender.strip()} creature by creature; "
        f"kills them all: {four_places(whole)}",
        "columns": ["first v creature", "totals", "round 1", "rounds 2, 3", "attacker", "defender"],
        "rows": rows,
        "data": {
            "attacker": {"side": attacker.strip()},
            "defender": {"side": defender.strip()},
            "modes": sorted(set(modes)),
            "result": _result(firsts, whole, 1 - whole),
            "separate": parts,
        },
    }
