"""Building the state an example's `given` describes. Everything omitted takes its default:
two players `you` and `enemy`, every hex open, each Necromancer alone in its N squad far
from everything, Phase 3 of the first player's turn."""

from __future__ import annotations

from typing import Any

from . import death, hexes, squads
from .pieces import Cards
from .state import (
    CONJURATION_DECKS,
    CONTROL_CARDS,
    RESOURCES,
    Card,
    Cave,
    Dig,
    ExampleError,
    Illegal,
    Player,
    Squad,
    State,
    reject_unknown,
)

GIVEN = {
    "players", "turn", "phase", "advanced", "cards", "necromancers", "squads", "monsters",
    "hand", "decks", "discards", "ground", "cave", "crystals", "blood_eye", "track",
    "awakening", "kills", "events",
}  # fmt: skip
SQUAD_FIELDS = {
    "at",
    "creatures",
    "items",
    "resources",
    "spent",
    "acted",
    "halted",
    "digging",
    "trapped",
    "protector",
}
ADVANCED = {
    "discarding", "sacrifice", "flank-excavation", "hiring-one", "abandoning",
    "crowded-tunnels", "longer-game", "collapse-deaths", "necromancer-death",
}  # fmt: skip
DECKS = (*CONJURATION_DECKS, "necromonk", "excavation", "protector")
FAR = 1000  # squads placed without `at` stand far from everything and from each other


def hex_at(value: Any, path: tuple) -> hexes.Hex:
    try:
        return hexes.parse(value)
    except ValueError as exc:
        raise ExampleError(path, str(exc)) from None


def resources(value: Any, path: tuple) -> dict[str, int]:
    if value is None:
        return dict.fromkeys(RESOURCES, 0)
    if not isinstance(value, dict):
        raise ExampleError(path, "resources are {metals: n, gore: n, shadowflame: n}")
    reject_unknown(value, RESOURCES, path, "resource")
    out = {}
    for r in RESOURCES:
        n = value.get(r, 0)
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ExampleError((*path, r), f"{r} is a whole number of at least 0")
        out[r] = n
    return out


def build(given: dict, pool: dict[str, dict[str, Any]]) -> tuple[State, Cards]:
    path = ("given",)
    reject_unknown(given, GIVEN, path, "given field")
    names = given.get("players") or ["you", "enemy"]
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ExampleError((*path, "players"), "players is a list of names, in turn order")
    if len(set(names)) != len(names):
        raise ExampleError((*path, "players"), "two players have the same name")
    cards = Cards(pool, given.get("cards") or {}, (*path, "cards"))
    turn = given.get("turn", names[0])
    if turn not in names:
        raise ExampleError((*path, "turn"), f"no player '{turn}' (players: {', '.join(names)})")
    state = State({n: Player(n) for n in names}, list(names), turn)
    state.phase = given.get("phase", 3)
    if state.phase not in (1, 2, 3, 4):
        raise ExampleError((*path, "phase"), "the phase is 1, 2, 3 or 4")
    advanced = given.get("advanced") or []
    if advanced == "all":
        advanced = sorted(ADVANCED)
    for i, rule in enumerate(advanced):
        if rule not in ADVANCED:
            raise ExampleError(
                (*path, "advanced", i),
                f"unknown advanced rule '{rule}' (known: {', '.join(sorted(ADVANCED))})",
            )
    state.advanced = set(advanced)
    _cave(state, given.get("cave") or {}, (*path, "cave"))
    for who, at in (given.get("crystals") or {}).items():
        _player(state, who, (*path, "crystals", who)).crystal = hex_at(at, (*path, "crystals", who))
    # squads
    necros = given.get("necromancers") or {}
    for who in necros:
        _player(state, who, (*path, "necromancers", who))
    squads = given.get("squads") or {}
    if not isinstance(squads, dict):
        raise ExampleError((*path, "squads"), "squads is a mapping such as {you II: {...}}")
    for key, body in squads.items():
        owner, label = _squad_key(state, str(key), (*path, "squads", key))
        _squad(state, cards, owner, label, body or {}, (*path, "squads", key))
    for n, who in enumerate(names):
        n_squad = state.squads.get(f"{who} N")
        if n_squad is None:
            n_squad = state.squads[f"{who} N"] = Squad(who, "N", at=(FAR * (n + 1), -FAR))
        if n_squad.necromancer() is None:
            written = necros.get(who)
            if written is None:
                necro = Card(name="Necromancer", kind="necromancer", movement=3)
                necro.carry_kind, necro.carry, necro.spellcaster = "carry_use", 2, True
            else:
                necro = cards.make(written, (*path, "necromancers", who))
                if necro.kind != "necromancer":
                    necro.kind, necro.size, necro.spellcaster = "necromancer", "small", True
            n_squad.creatures.insert(0, necro)
    for key, body in (given.get("monsters") or {}).items():
        _squad(state, cards, None, str(key), body or {}, (*path, "monsters", key))
    _legal(state, squads, given.get("monsters") or {}, path)
    _placed_apart(state)
    # cards held
    for who, held in (given.get("hand") or {}).items():
        p = _player(state, who, (*path, "hand", who))
        p.hand = [cards.make(c, (*path, "hand", who, i)) for i, c in enumerate(held or [])]
    for who, held in (given.get("events") or {}).items():
        p = _player(state, who, (*path, "events", who))
        p.events = [cards.make(c, (*path, "events", who, i)) for i, c in enumerate(held or [])]
    for name in DECKS:
        state.decks[name], state.discards[name] = [], []
    for name, pile in (given.get("decks") or {}).items():
        if name not in DECKS:
            raise ExampleError(
                (*path, "decks", name), f"unknown deck '{name}' (known: {', '.join(DECKS)})"
            )
        state.decks[name] = [
            _deck_card(cards, c, name, (*path, "decks", name, i)) for i, c in enumerate(pile or [])
        ]
    for name, pile in (given.get("discards") or {}).items():
        if name not in DECKS:
            raise ExampleError(
                (*path, "discards", name), f"unknown deck '{name}' (known: {', '.join(DECKS)})"
            )
        state.discards[name] = [
            _deck_card(cards, c, name, (*path, "discards", name, i))
            for i, c in enumerate(pile or [])
        ]
    for where, body in (given.get("ground") or {}).items():
        at = hex_at(where, (*path, "ground", where))
        body = body or {}
        reject_unknown(
            body, {"resources", "items", "marker"}, (*path, "ground", where), "ground field"
        )
        g = state.ground_at(at)
        g.resources = resources(body.get("resources"), (*path, "ground", where, "resources"))
        items = [
            cards.make(c, (*path, "ground", where, "items", i))
            for i, c in enumerate(body.get("items") or [])
        ]
        if "marker" in body:
            g.items, g.marker = items, str(body["marker"])
        else:
            death.drop_items(state, at, items)
    for who, stacks in (given.get("kills") or {}).items():
        p = _player(state, who, (*path, "kills", who))
        reject_unknown(stacks or {}, {"enemy", "wandering"}, (*path, "kills", who), "kill stack")
        p.kills_enemy = [
            cards.make(c, (*path, "kills", who, "enemy", i))
            for i, c in enumerate((stacks or {}).get("enemy") or [])
        ]
        p.kills_wandering = [
            cards.make(c, (*path, "kills", who, "wandering", i))
            for i, c in enumerate((stacks or {}).get("wandering") or [])
        ]
    # the Awaken track
    state.blood_eye = given.get("blood_eye", 0)
    track = given.get("track") or {}
    reject_unknown(track, {"reveal", "awaken", "length"}, (*path, "track"), "track field")
    state.reveal_at, state.awaken_at = track.get("reveal"), track.get("awaken")
    state.track_length = track.get("length")
    awakening = given.get("awakening") or {}
    reject_unknown(
        awakening, {"card", "revealed", "awakened"}, (*path, "awakening"), "awakening field"
    )
    written = awakening.get("card")  # a name, or the card's fields (card verification)
    state.awakening = written.get("name") if isinstance(written, dict) else written
    state.revealed = bool(awakening.get("revealed", False))
    state.awakened = bool(awakening.get("awakened", False))
    return state, cards


def _deck_card(cards: Cards, written: Any, deck: str, path: tuple) -> Card:
    card = cards.make(written, path)
    if card.deck is None:
        card.deck = deck
    return card


def _player(state: State, who: Any, path: tuple) -> Player:
    if who not in state.players:
        raise ExampleError(path, f"no player '{who}' (players: {', '.join(state.order)})", key=True)
    return state.players[who]


def _squad_key(state: State, key: str, path: tuple) -> tuple[str, str]:
    owner, _, label = key.rpartition(" ")
    if not owner:
        owner, label = state.turn, key
    if owner not in state.players:
        raise ExampleError(
            path, f"no player '{owner}' (a squad is written '<player> <N|I|II|III|IV|V>')", key=True
        )
    if label not in CONTROL_CARDS:
        raise ExampleError(
            path, f"unknown control card '{label}' (known: {', '.join(CONTROL_CARDS)})", key=True
        )
    return owner, label


def _squad(
    state: State, cards: Cards, owner: str | None, label: str, body: dict, path: tuple
) -> None:
    if not isinstance(body, dict):
        raise ExampleError(path, "a squad is a mapping: {at, creatures, items, resources, ...}")
    reject_unknown(body, SQUAD_FIELDS, path, "squad field")
    squad = Squad(owner, label)
    if "at" in body:
        squad.at = hex_at(body["at"], (*path, "at"))
    squad.creatures = [
        cards.make(c, (*path, "creatures", i)) for i, c in enumerate(body.get("creatures") or [])
    ]
    squad.items = [
        cards.make(c, (*path, "items", i)) for i, c in enumerate(body.get("items") or [])
    ]
    squad.resources = resources(body.get("resources"), (*path, "resources"))
    squad.trapped = bool(body.get("trapped", False))
    squad.protector = bool(body.get("protector", False))
    for c in squad.creatures:
        c.spent = body.get("spent", 0)
        c.acted = bool(body.get("acted", False))
        c.halted = bool(body.get("halted", False))
    dig = body.get("digging")
    if dig is not None:
        reject_unknown(dig, {"card", "kind", "rocks", "begun"}, (*path, "digging"), "digging field")
        card = cards.make(
            dig.get("card", {"name": "Excavation card", "type": "excavation"}),
            (*path, "digging", "card"),
        )
        squad.dig = Dig(
            card, dig.get("kind", "excavate"), dig.get("rocks", 3), bool(dig.get("begun", False))
        )
    if not squad.creatures and owner is not None and label != "N":
        raise ExampleError((*path, "creatures"), "a squad holds at least one creature")
    if squad.key in state.squads:
        raise ExampleError(path, f"squad '{squad.key}' is given twice")
    state.squads[squad.key] = squad


def _legal(state: State, written: dict, monsters: dict, path: tuple) -> None:
    """Every squad of `given` is one the rules allow: at most 3 spaces of creatures (the
    Necromancer a Small), no more items than its creatures carry."""
    places = {
        **{str(k): (*path, "squads", k) for k in written},
        **{str(k): (*path, "monsters", k) for k in monsters},
    }
    for squad in state.squads.values():
        where = places.get(squad.key) or places.get(squad.label) or (*path, "squads")
        try:
            squads.check_holds(squad.creatures, squad.items, f"squad {squad.key}")
        except Illegal as exc:
            raise ExampleError(where, exc.message, key=True) from None


def _placed_apart(state: State) -> None:
    taken: dict[hexes.Hex, str] = {}
    for n, squad in enumerate(state.squads.values()):
        if squad.at is None:
            squad.at = (-FAR * (n + 1), FAR)
        if squad.at in taken:
            raise ExampleError(
                ("given",),
                f"squads {taken[squad.at]} and {squad.key} stand on one space; two squads "
                "never share a space",
            )
        taken[squad.at] = squad.key


def _cave(state: State, body: dict, path: tuple) -> None:
    reject_unknown(
        body,
        {"open", "undug", "collapsed", "pits", "lair", "pit", "thronerooms", "pit_room", "tunnels"},
        path,
        "cave field",
    )
    cave = Cave()
    hexes_of = lambda key: {hex_at(h, (*path, key, i)) for i, h in enumerate(body.get(key) or [])}  # noqa: E731
    if "open" in body:
        cave.all_open = False
        cave.open = hexes_of("open")
    cave.undug = hexes_of("undug")
    cave.collapsed = hexes_of("collapsed")
    cave.pits = hexes_of("pits")
    cave.lair = hexes_of("lair")
    cave.thronerooms = hexes_of("thronerooms")
    cave.pits |= cave.thronerooms
    cave.pit_room = hexes_of("pit_room")
    cave.tunnels = hexes_of("tunnels")
    if "pit" in body:
        cave.the_pit = hex_at(body["pit"], (*path, "pit"))
        cave.pits.add(cave.the_pit)
    state.cave = cave
