"""Reading `then`: each written fact is computed from the state and compared. Only what is
written is compared: a mapping compares the keys written, a list compares in full (lists of
cards as names, in any order where the rules keep none: hands, squads, the box, the ground)."""

from __future__ import annotations

from typing import Any

from . import death, hexes, obligations, squads
from .state import (
    RESOURCES,
    Card,
    ExampleError,
    Fight,
    Squad,
    State,
)

Mismatch = tuple[str, Any, Any]
SQUAD_FACTS = (
    "creatures", "items", "resources", "at", "space", "movement", "movement_left", "speed",
    "acted", "digging", "trapped", "carry", "use", "owner", "attributes",
)  # fmt: skip
FACTS = (
    "squads", "monsters", "hand", "events", "discards", "decks", "box", "ground", "blood_eye",
    "revealed", "awakened", "kill_points", "fight", "fights", "out", "winner", "everyone_lost",
    "spawned", "open", "undug", "collapsed", "pits", "adjacent", "distance", "line_of_sight",
    "turn", "phase", "cycle", "odds", "fits", "owed",
)  # fmt: skip
UNORDERED = {"creatures", "items", "hand", "box", "cards"}


def names(cards: list[Card], ordered: bool) -> list[str]:
    out = [c.name for c in cards]
    return out if ordered else sorted(out)


def squad_view(squad: Squad) -> dict[str, Any]:
    return {
        "creatures": names(squad.creatures, False),
        "items": names(squad.items, False),
        "resources": dict(squad.resources),
        "at": list(squad.at) if squad.at else None,
        "space": squads.space_used(squad.creatures),
        "movement": squads.rate(squad),
        "movement_left": squads.movement_left(squad),
        "speed": squads.speed(squad),
        "acted": squad.acted,
        "digging": {"kind": squad.dig.kind, "rocks": squad.dig.rocks} if squad.dig else None,
        "trapped": squad.trapped,
        "carry": squads.carry_capacity(squad.creatures),
        "use": squads.use_capacity(squad.creatures),
        "owner": squad.owner,
        "attributes": {c.name: dict(c.attributes) for c in squad.creatures},
    }


def fight_view(f: Fight) -> dict[str, Any]:
    return {
        "kind": f.kind,
        "attacker": f.attacker,
        "defender": f.defender,
        "rounds": [dict(r) for r in f.rounds],
        "winner": f.winner,
        "killed": list(f.killed),
        "ranged_defence": f.ranged_defence,
    }


def compare(state: State, then: dict, odds=None) -> list[Mismatch]:
    out: list[Mismatch] = []
    for key, expected in then.items():
        if key not in FACTS:
            raise ExampleError(
                ("then", key), f"unknown fact '{key}' (known: {', '.join(FACTS)})", key=True
            )
        actual = _fact(state, key, expected, odds)
        _match(expected, actual, key, out)
    return out


def _by_name(expected: Any, key: str) -> dict:
    if not isinstance(expected, dict):
        raise ExampleError(("then", key), f"'{key}' is a mapping")
    return expected


def _squads(state: State, expected: dict, key: str, wandering: bool) -> dict:
    out = {}
    for name, facts in _by_name(expected, key).items():
        squad = state.squads.get(str(name))
        if squad is not None and squad.wandering != wandering:
            squad = None
        if facts is None or facts == "none":
            out[name] = facts if squad is None else squad_view(squad)
            continue
        if not isinstance(facts, dict):
            raise ExampleError(
                ("then", key, name), "a mapping of squad facts, or none (it is gone)"
            )
        for fact in facts:
            if fact not in SQUAD_FACTS:
                raise ExampleError(
                    ("then", key, name, fact),
                    f"unknown squad fact '{fact}' (known: {', '.join(SQUAD_FACTS)})",
                    key=True,
                )
        out[name] = None if squad is None else squad_view(squad)
    return out


def _fact(state: State, key: str, expected: Any, odds) -> Any:
    if key in ("squads", "monsters"):
        return _squads(state, expected, key, key == "monsters")
    if key in ("hand", "events"):
        out = {}
        for who in _by_name(expected, key):
            if who not in state.players:
                raise ExampleError(("then", key, who), f"no player '{who}'", key=True)
            p = state.players[who]
            out[who] = names(p.hand, False) if key == "hand" else names(p.events, True)
        return out
    if key in ("discards", "decks"):
        piles = state.discards if key == "discards" else state.decks
        out = {}
        for deck, value in _by_name(expected, key).items():
            if deck not in piles:
                raise ExampleError(("then", key, deck), f"unknown deck '{deck}'", key=True)
            pile = piles[deck]
            out[deck] = len(pile) if isinstance(value, int) else names(pile, True)
        return out
    if key == "box":
        return names(state.box, False)
    if key == "ground":
        out = {}
        for where in _by_name(expected, key):
            try:
                h = hexes.parse(where)
            except ValueError as exc:
                raise ExampleError(("then", key, where), str(exc), key=True) from None
            g = state.ground.get(h)
            out[where] = {
                "resources": dict(g.resources) if g else dict.fromkeys(RESOURCES, 0),
                "items": names(g.items, False) if g else [],
                "marker": g.marker if g and g.items else None,
            }
        return out
    if key == "kill_points":
        out = {}
        for who in _by_name(expected, key):
            if who not in state.players:
                raise ExampleError(("then", key, who), f"no player '{who}'", key=True)
            p = state.players[who]
            out[who] = {
                "enemy": death.kill_points(p.kills_enemy, True),
                "wandering": death.kill_points(p.kills_wandering, False),
                "cards": names(p.kills_enemy + p.kills_wandering, False),
            }
        return out
    if key == "fight":
        return fight_view(state.fights[-1]) if state.fights else None
    if key == "fights":
        return [fight_view(f) for f in state.fights]
    if key == "out":
        return [p for p in state.order if state.players[p].out]
    if key in (
        "winner",
        "everyone_lost",
        "blood_eye",
        "revealed",
        "awakened",
        "turn",
        "phase",
        "cycle",
    ):
        return getattr(state, key)
    if key == "spawned":
        return list(state.spawned)
    if key in ("open", "undug", "collapsed", "pits"):
        return _cells(state, key, expected)
    if key in ("adjacent", "distance", "line_of_sight"):
        return _geometry(state, key, expected)
    if key == "fits":
        return _fits(state, expected)
    if key == "owed":
        return sorted(s.key for s in obligations.open_debts(state, state.turn))
    if key == "odds":
        if odds is None:
            raise ExampleError(("then", key), "odds need the fight arithmetic's exact odds")
        return odds(state, expected)
    raise AssertionError(key)


def _cells(state: State, key: str, expected: Any) -> Any:
    """`open: [[q, r], ...]`: are those hexes open (the list is compared as written)."""
    if not isinstance(expected, list):
        raise ExampleError(("then", key), f"'{key}' lists hexes; each must be {key}")
    out = []
    for i, h in enumerate(expected):
        try:
            cell = hexes.parse(h)
        except ValueError as exc:
            raise ExampleError(("then", key, i), str(exc)) from None
        test = {
            "open": state.cave.is_open,
            "undug": state.cave.is_undug,
            "collapsed": lambda c: c in state.cave.collapsed,
            "pits": lambda c: c in state.cave.pits,
        }[key]
        out.append(h if test(cell) else f"not {key}: {hexes.show(cell)}")
    return out


def _point(state: State, written: Any, path: tuple) -> hexes.Hex:
    squad = state.squads.get(str(written)) if not isinstance(written, list) else None
    if squad is not None:
        return squad.at
    try:
        return hexes.parse(written)
    except ValueError:
        raise ExampleError(path, f"'{written}' is neither a squad nor a hex") from None


def _geometry(state: State, key: str, expected: Any) -> Any:
    """`distance: [[A, B, 3]]`, `adjacent: [[A, B, true]]`, `line_of_sight: [[A, B, false]]`."""
    from .battle import sight

    if not isinstance(expected, list):
        raise ExampleError(("then", key), f"'{key}' is a list of [from, to, value]")
    out = []
    for i, row in enumerate(expected):
        if not isinstance(row, list) or len(row) != 3:
            raise ExampleError(("then", key, i), "each entry is [from, to, value]")
        a = _point(state, row[0], ("then", key, i, 0))
        b = _point(state, row[1], ("then", key, i, 1))
        if key == "distance":
            value = hexes.distance(a, b)
        elif key == "adjacent":
            value = hexes.adjacent(a, b)
        else:
            value = sight(state, a, b)
        out.append([row[0], row[1], value])
    return out


def _fits(state: State, expected: Any) -> Any:
    """`fits: [[[Ghoul, Ghoul, Ghoul], true], ...]`: does a squad of these cards fit."""
    if not isinstance(expected, list):
        raise ExampleError(("then", "fits"), "'fits' is a list of [[cards...], true|false]")
    out = []
    for i, row in enumerate(expected):
        if not isinstance(row, list) or len(row) != 2 or not isinstance(row[0], list):
            raise ExampleError(("then", "fits", i), "each entry is [[cards...], true|false]")
        cards = [state.cards.make(c, ("then", "fits", i, 0, j)) for j, c in enumerate(row[0])]
        out.append([row[0], squads.fits(cards)])
    return out


def _match(expected: Any, actual: Any, where: str, out: list[Mismatch]) -> None:
    if expected == "none" and actual is None:
        return
    if isinstance(expected, dict) and isinstance(actual, dict):
        for k, v in expected.items():
            if k not in actual:
                out.append((f"{where}.{k}", v, None))
            else:
                _match(v, actual[k], f"{where}.{k}", out)
        return
    if isinstance(expected, list) and isinstance(actual, list):
        parts = {part.split("[")[0] for part in where.split(".")}
        if all(isinstance(x, str) for x in expected) and parts & UNORDERED:
            if sorted(expected) != sorted(actual):
                out.append((where, expected, actual))
            return
        if len(expected) != len(actual):
            out.append((where, expected, actual))
            return
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            _match(e, a, f"{where}[{i}]", out)
        return
    if isinstance(expected, float) or isinstance(actual, float):
        if (
            isinstance(expected, (int, float))
            and isinstance(actual, (int, float))
            and not isinstance(expected, bool)
        ):
            if abs(round(float(actual), 4) - float(expected)) > 1e-9:
                out.append((where, expected, round(float(actual), 4)))
            return
    if expected != actual:
        out.append((where, expected, actual))
