"""`charnel odds` for Cave Evil: two sides written as card names, made into the engine's squads
and fought as the engine fights them (`engine.sides`), the exact odds per first attribute as a
table (attributes by their printed abbreviations, st to wp, so a row fits 80 columns) and as
data. The fight calculator's server answer is this same report."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

from .engine import death, sides
from .engine.effects import aftermath
from .engine.fight import FightError, Matchup, neighbours, totals
from .engine.odds import SCORES, FirstOdds, four_places, odds, picked
from .engine.state import Squad
from .fighters import Pool, parse_side
from .odds_words import percent, said, two_places

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
        report = _separately(attacker, defender, modes, fights, spared)
        if not any(i.ability("stitch_back") for i in their_squads[0].items):
            chances = [picked(f, odds(f)).attacker for f in fights]
            report["data"]["expected"] = _spoils_one_by_one(chances, mine_squads, their_squads)
        return report
    fight = matchup(mine_squads, their_squads, modes)
    mine, theirs = totals(fight)
    table = odds(fight)
    best = picked(fight, table)
    spoils = [_spoils(row, mine_squads, their_squads) for row in table.values()]
    lethal = "" if fight.attacker_may_die else "; a losing attacker survives"
    who = "the defender picks first" if fight.first_by == "defender" else "best first"
    idle = [*fight.idle[0], *fight.idle[1]]
    unused = f"; not counted: {', '.join(idle)}" if idle else ""
    return {
        "title": f"{attacker.strip()} attacking {defender.strip()}{lethal}; "
        f"{who}: {best.first} ({four_places(best.attacker)}){unused}",
        "columns": ["first", "totals", "round 1", "rounds 2, 3", "attacker", "defender"],
        "rows": [_row(first, row, mine, theirs) for first, row in table.items()],
        "tables": [_outcomes(table.values(), spoils)],
        "data": {
            "attacker": {"side": attacker.strip(), "totals": mine, "idle": list(fight.idle[0])},
            "defender": {"side": defender.strip(), "totals": theirs, "idle": list(fight.idle[1])},
            "modes": sorted(set(modes)),
            "first_by": fight.first_by,
            "best": best.first,
            "result": _result(best.first, best.attacker, best.attacker_dies, best.scores),
            "odds": [
                {**row.as_dict(), "said": _said(row), "expected": spent}
                for row, spent in zip(table.values(), spoils, strict=True)
            ],
        },
    }


def _spoils(row: FirstOdds, mine: list[Squad], theirs: list[Squad]) -> dict[str, Any]:
    """What each side expects to take from the fight: the Enemy Kill Points of the enemy's
    creatures it kills, and the Gore those slain spill on the space (11.3a-c, 16.2b). A
    losing side dies whole, every squad of it (12.1d), a ranged attacker only when it may die."""
    slain = {
        "attacker": [c for s in theirs for c in s.creatures],
        "defender": [c for s in mine for c in s.creatures],
    }
    chance = {"attacker": row.attacker, "defender": row.attacker_dies}
    exact = {
        side: {
            "kill_points": chance[side] * death.exact_kill_points(slain[side], enemy=True),
            "gore": chance[side] * death.gore(slain[side]),
        }
        for side in chance
    }
    return {
        side: {
            **{k: two_places(v) for k, v in taken.items()},
            "exact": {k: str(v) for k, v in taken.items()},
        }
        for side, taken in exact.items()
    }


def _spoils_one_by_one(
    chances: list[Fraction], mine: list[Squad], theirs: list[Squad]
) -> dict[str, Any]:
    """What each side expects to take when the attacker fights the creatures one by one, in
    the order written: a creature dies once the attacker has won every Combat up to its own,
    and the attacker's squad at its first loss (11.4c). Not given where an item may return a
    creature to its squad."""
    alive, taken = Fraction(1), {"kill_points": Fraction(0), "gore": Fraction(0)}
    for chance, creature in zip(chances, theirs[0].creatures, strict=True):
        alive *= chance
        taken["kill_points"] += alive * death.exact_kill_points([creature], enemy=True)
        taken["gore"] += alive * death.gore([creature])
    slain = [c for s in mine for c in s.creatures]
    lost = {
        "kill_points": (1 - alive) * death.exact_kill_points(slain, enemy=True),
        "gore": (1 - alive) * death.gore(slain),
    }
    return {
        side: {
            **{k: two_places(v) for k, v in t.items()},
            "exact": {k: str(v) for k, v in t.items()},
        }
        for side, t in (("attacker", taken), ("defender", lost))
    }


def _outcomes(rows: Iterable[FirstOdds], spoils: list[dict[str, Any]]) -> dict[str, Any]:
    """The whole outcome per first attribute: the final scores in rounds (attacker first),
    whether the attacker dies, and the kill points and gore each side expects to take."""
    return {
        "title": "Outcomes: rounds won (attacker first); kill points and gore taken",
        "columns": ["first", *SCORES, "dies", "kp att/def", "gore att/def"],
        "rows": [
            [
                row.first,
                *(four_places(row.scores[s]) for s in SCORES),
                four_places(row.attacker_dies),
                f"{spent['attacker']['kill_points']}/{spent['defender']['kill_points']}",
                f"{spent['attacker']['gore']}/{spent['defender']['gore']}",
            ]
            for row, spent in zip(rows, spoils, strict=True)
        ],
    }


def _result(
    first: Any, attacker: Fraction, dies: Fraction, scores: dict[str, Fraction] | None = None
) -> dict[str, Any]:
    """The answer in one line: the first attribute(s) taken, the exact chances (and the
    final scores' of a single Combat)."""
    out = {
        "first": first,
        "attacker": str(attacker),
        "defender": str(1 - attacker),
        "attacker_dies": str(dies),
    }
    if scores is not None:
        out["scores"] = {s: str(p) for s, p in scores.items()}
    out["said"] = {"attacker": said(attacker), "attacker_dies": said(dies)}
    return out


def _said(row: FirstOdds) -> dict[str, Any]:
    """The row's chances as players say them, and the scores as whole percentages."""
    return {
        "attacker": said(row.attacker),
        "attacker_dies": said(row.attacker_dies),
        "scores": {s: percent(p) for s, p in row.scores.items()},
    }


def _separately(
    attacker: str, defender: str, modes: Sequence[str], fights: list, spared: bool
) -> dict:
    """Each Combat with its first attribute picked; the attacker kills the squad only by
    winning them all (never, if an item returns one creature), and dies at its first loss."""
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
                "odds": [{**row.as_dict(), "said": _said(row)} for row in table.values()],
            }
        )
        firsts.append(best.first)
        whole *= best.attacker
    dies = 1 - whole  # at its first lost Combat; winning them all, it lives, kit or none
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
            "result": _result(firsts, whole, dies),
            "separate": parts,
        },
    }
