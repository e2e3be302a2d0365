"""The `odds` fact: the exact chance that a squad attacking another wins, for a first
attribute, computed by `odds` from the squads as they stand at the end of the example, made
into a fight by `sides`, as every Combat is.

    odds: {squad: jason II, target: joanna IV, first: st, attacker: 0.6253, defender: 0.3747}

`with` adds flanking squads to the attacker, `target_with` to the defender; `ranged: true`
fights at range, `ranged_defence: true` has the target answer with its Ranged creatures,
`separately: true` has an Attacktite's squad fight each creature alone (the chance of killing
them all, none when an item of the target returns one of them). Without `first` the attribute
is the one its chooser takes. `exact: "1516/2345"` asks for the attacker's chance as a fraction
too.
"""

from __future__ import annotations

from typing import Any

from charnel.engine.errors import ExampleError, Illegal, reject_unknown

from . import fight, odds, sides, squads
from .args import find_squad
from .effects import aftermath
from .state import State

FIELDS = {
    "squad", "with", "target", "target_with", "first", "ranged", "ranged_defence", "separately",
    "exact", "attacker", "defender",
}  # fmt: skip


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
    helpers = [
        find_squad(state, w, (*path, "target_with"), state.turn)
        for w in expected.get("target_with") or []
    ]
    ranged = bool(expected.get("ranged", False))
    answer = bool(expected.get("ranged_defence", False))
    try:
        for s in (squad, *flank, target, *helpers):
            squads.check_holds(s.creatures, s.items, f"squad {s.key}")
        if expected.get("separately"):
            picks, chance = odds.one_by_one(
                sides.separate([squad, *flank], [target, *helpers], ranged=ranged or answer)
            )
            found = {"attacker": 0 if aftermath.spares_one(target) else chance}
        else:
            matchup = sides.of_squads(
                [squad, *flank], [target, *helpers], ranged=ranged, ranged_defence=answer
            )
            found = {"attacker": odds.chosen(matchup, expected.get("first")).attacker}
    except Illegal as exc:
        raise ExampleError(path, exc.message) from None
    except fight.FightError as exc:
        raise ExampleError(path, str(exc)) from None
    chance = found["attacker"]
    out = {k: v for k, v in expected.items() if k not in ("attacker", "defender", "exact")}
    out["attacker"] = float(odds.four_places(chance))
    out["defender"] = float(odds.four_places(1 - chance))
    if "exact" in expected:
        out["exact"] = str(chance)
    return out
