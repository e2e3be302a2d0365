"""The `odds` fact: the exact chance that a squad attacking another wins, for a first
attribute, computed by `odds` from the squads as they stand at the end of the example.

    odds: {squad: jason II, target: joanna IV, first: st, attacker: 0.6253, defender: 0.3747}
"""

from __future__ import annotations

from typing import Any

from charnel.engine.errors import ExampleError, reject_unknown
from charnel.games.cave_evil.engine import fight, odds, sides, squads
from charnel.games.cave_evil.engine.args import find_squad
from charnel.games.cave_evil.engine.state import State

FIELDS = {"squad", "with", "target", "first", "ranged", "attacker", "defender"}


def odds_of(state: State, expected: Any) -> dict[str, Any]:
    path = ("then", "odds")
    if not isinstance(expected, dict):
        raise ExampleError(path, "odds is {squad, target, first, attacker: 0.6253}")
    reject_unknown(expected, FIELDS, path, "odds field")
    for key in ("squad", "target"):
        if key not in expected:
            raise ExampleError(path, f"odds needs '{key}'")
    squad = find_squad(state, expected["squad"], (*path, "squad"), state.turn)
    flank = [find_squad(state, w, (*path, "with"), state.turn) for w in expected.get("with") or []]
    target = find_squad(state, expected["target"], (*path, "target"), state.turn)
    ranged = bool(expected.get("ranged", False))
    for s in (squad, *flank, target):
        squads.check_holds(s.creatures, s.items, s.key)
    attackers = [sides.party(s) for s in (squad, *flank)]
    if ranged:
        attackers = [sides.ranged_only(p) for p in attackers]
    try:
        matchup = sides.matchup(attackers, [sides.party(target)], ranged=ranged)
        found = odds.odds_fact(matchup, expected.get("first"))
    except fight.FightError as exc:
        raise ExampleError(path, str(exc)) from None
    return {**{k: v for k, v in expected.items() if k not in ("attacker", "defender")}, **found}
