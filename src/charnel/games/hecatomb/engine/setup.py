"""Building a game state from an example's `given`, and cards from the ways examples write
them (a strength, a doom, a card slug, a full or partly changed card)."""

from __future__ import annotations

from typing import Any

from charnel.engine.errors import ExampleError, reject_unknown
from charnel.example_language import bare_on

from . import abilities, effects
from .refs import Args
from .state import MAX_SIZE, Abomination, Card, InPlay, Player, State

DOOMS = ("corruption", "deceit", "destruction", "greed")
TYPES = ("minion", "fate", "relic", "god")
CARD_FIELDS = {
    "card",
    "name",
    "type",
    "doom",
    "cost",
    "strength",
    "subtype",
    "combat",
    "keywords",
    "triggers",
    "conditional",
    "effects",
    "tapped",
}
GIVEN_FIELDS = {
    "players",
    "turn",
    "first_turn",
    "combat",
    "souls",
    "hand",
    "deck",
    "mana",
    "pool",
    "graveyard",
    "removed",
    "mana_added",
    "abominations",
    "relics",
    "gods",
    "effects",
}
ZONES = ("hand", "deck", "mana", "graveyard", "removed")
ABOMINATION_FIELDS = {"owner", "minions", "size", "tapped", "added"}


class CardMaker:
    """Turns written cards into engine cards; pool cards come from the game's records."""

    def __init__(self, state: State, pool: dict[str, Any]):
        self.state, self.pool = state, pool

    def make(self, written: Any, owner: str, path: tuple) -> Card:
        if isinstance(written, bool):
            raise ExampleError(path, "a card is a strength, a doom, a card slug or a mapping")
        if isinstance(written, int):
            return Card(str(written), owner, strength=written)
        if isinstance(written, str):
            if written in DOOMS:
                return Card(written, owner, doom=written)
            return self._from_pool(written, owner, path)
        if not isinstance(written, dict):
            raise ExampleError(path, "a card is a strength, a doom, a card slug or a mapping")
        reject_unknown(written, CARD_FIELDS, path, "card field")
        card = (
            self._from_pool(written["card"], owner, (*path, "card")) if "card" in written else None
        )
        if card is None:
            card = Card(
                str(written.get("name", written.get("strength", written.get("doom", "card")))),
                owner,
            )
        for key, value in written.items():
            self._set(card, key, value, (*path, key))
        return card

    def _set(self, card: Card, key: str, value: Any, path: tuple) -> None:
        if key == "card":
            return
        if key == "keywords":
            card.keywords = abilities.decode_all(self.state, value, path)
        elif key == "type":
            if value not in TYPES:
                raise ExampleError(path, f"type is one of {', '.join(TYPES)}")
            card.type = value
        elif key == "doom":
            if value is not None and value not in DOOMS:
                raise ExampleError(path, f"doom is one of {', '.join(DOOMS)}")
            card.doom = value
        elif key in ("strength",):
            if isinstance(value, bool) or not isinstance(value, int):
                raise ExampleError(path, "strength is a whole number")
            card.strength = value
        elif key == "cost":
            card.cost = str(value)
        elif key == "triggers":
            if not isinstance(value, list) or any(v not in DOOMS for v in value):
                raise ExampleError(path, "triggers is a list of dooms")
            card.triggers = list(value)
        elif key == "conditional":
            if not isinstance(value, dict) or "doom" not in value:
                raise ExampleError(path, "conditional is {doom: ..., effects: [...]}")
            card.conditional = {"doom": value["doom"], "effects": bare_on(value.get("effects", []))}
        elif key == "effects":
            if not isinstance(value, list):
                raise ExampleError(path, "effects is a list")
            card.effects = bare_on(value)
            for i, effect in enumerate(card.effects):  # a trigger's filter is read as it waits
                if isinstance(effect, dict) and "played" in effect:
                    effects.verb_of(effect, (*path, i))
        elif key in ("combat", "tapped"):
            setattr(card, key, bool(value))
        else:
            setattr(card, key, value)

    def _from_pool(self, slug: Any, owner: str, path: tuple) -> Card:
        record = self.pool.get(str(slug))
        if record is None:
            raise ExampleError(
                path,
                f"no card '{slug}' in the card pool (write a strength, a doom, "
                "or a mapping for a made-up card)",
            )
        return pool_card(self.state, record, owner)


def pool_card(state: State, record: Any, owner: str) -> Card:
    cond = getattr(record, "conditional", None)
    return Card(
        name=record.name,
        owner=owner,
        type=record.type,
        doom=getattr(record, "doom", None),
        cost=record.cost or "0",
        strength=getattr(record, "strength", None) or 0,
        subtype=getattr(record, "subtype", None),
        combat=getattr(record, "combat", False),
        keywords=abilities.decode_all(state, list(record.keywords), ("card", record.slug)),
        effects=bare_on(list(record.effects)),
        triggers=list(getattr(record, "triggers", None) or []),
        conditional={"doom": cond.doom, "effects": bare_on(list(cond.effects))} if cond else None,
        slug=record.slug,
    )


def build(given: dict, book: Any, pool: dict[str, Any]) -> State:
    reject_unknown(given, GIVEN_FIELDS, ("given",), "field", " in given")
    order = given.get("players", ["you", "enemy"])
    if not isinstance(order, list) or len(order) < 2 or len(set(map(str, order))) != len(order):
        raise ExampleError(("given", "players"), "players is a list of two or more distinct names")
    order = [str(p) for p in order]
    turn = given.get("turn", order[0])
    if turn not in order:
        raise ExampleError(("given", "turn"), f"no player '{turn}'")
    state = State({p: Player(p) for p in order}, order, turn, book=book)
    state.first_turn = bool(given.get("first_turn", False))
    if given.get("combat"):
        raise ExampleError(("given", "combat"), "start an attack with an 'attack' step instead")
    maker = CardMaker(state, pool)

    def per_player(key: str):
        value = given.get(key) or {}
        if not isinstance(value, dict):
            raise ExampleError(("given", key), f"{key} is a mapping by player, e.g. {{you: ...}}")
        for who, item in value.items():
            if who not in state.players:
                raise ExampleError(
                    ("given", key, who), f"no player '{who}' (players: {', '.join(order)})"
                )
            yield state.player(who), item, ("given", key, who)

    for p, value, path in per_player("souls"):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ExampleError(path, "souls is a whole number, 0 or more")
        p.souls = value
    for p, value, _path in per_player("mana_added"):
        p.mana_added = bool(value)
    for p, value, _path in per_player("pool"):
        p.pool = (
            [value]
            if isinstance(value, str)
            else list(value)
            if isinstance(value, list)
            else [None] * int(value)
        )
    for zone in ZONES:
        for p, value, path in per_player(zone):
            if isinstance(value, int) and not isinstance(value, bool):
                cards = [Card("card", p.name) for _ in range(value)]
            elif isinstance(value, list):
                cards = [maker.make(v, p.name, (*path, i)) for i, v in enumerate(value)]
            else:
                raise ExampleError(path, f"{zone} is a number of blank cards or a list of cards")
            setattr(p, zone, cards)
    _abominations(state, given.get("abominations") or {}, maker)
    for p, value, path in per_player("gods"):
        card = maker.make(value, p.name, path)
        card.type = "god"
        p.god = InPlay(card.name, card)
    relics = given.get("relics") or {}
    if not isinstance(relics, dict):
        raise ExampleError(("given", "relics"), "relics is a mapping: name -> {owner, card}")
    for name, spec in relics.items():
        path = ("given", "relics", name)
        if (
            not isinstance(spec, dict)
            or spec.get("owner") not in state.players
            or "card" not in spec
        ):
            raise ExampleError(path, "a relic is {owner: <player>, card: <card>}")
        card = maker.make(spec["card"], spec["owner"], (*path, "card"))
        card.type = "relic"
        state.player(spec["owner"]).relics.append(InPlay(str(name), card))
    from .verbs import VERBS

    for i, effect in enumerate(given.get("effects") or []):
        path = ("given", "effects", i)
        verb = next(iter(effect), None) if isinstance(effect, dict) and len(effect) == 1 else None
        if verb not in ("strength", "grant", "forbid", "allow"):
            raise ExampleError(path, "given effects are strength, grant, forbid or allow")
        VERBS[verb][0](state, Args(state, effect[verb], (*path, verb), state.turn))
    return state


def _abominations(state: State, written: Any, maker: CardMaker) -> None:
    if not isinstance(written, dict):
        raise ExampleError(
            ("given", "abominations"), "abominations is a mapping: name -> {owner, minions}"
        )
    for name, spec in written.items():
        path = ("given", "abominations", name)
        if not isinstance(spec, dict):
            raise ExampleError(path, "an abomination is {owner: ..., minions: [...]}")
        reject_unknown(spec, ABOMINATION_FIELDS, path, "abomination field")
        owner = spec.get("owner")
        if owner not in state.players:
            raise ExampleError((*path, "owner"), f"owner is one of {', '.join(state.order)}")
        minions = spec.get("minions")
        if not isinstance(minions, list) or not 1 <= len(minions) <= MAX_SIZE:
            raise ExampleError(
                (*path, "minions"), f"minions is a list of 1 to {MAX_SIZE} minions, top first"
            )
        cards = [maker.make(m, owner, (*path, "minions", i)) for i, m in enumerate(minions)]
        size = spec.get("size", len(cards))
        whole = isinstance(size, int) and not isinstance(size, bool)
        if not whole or not len(cards) <= size <= MAX_SIZE:
            raise ExampleError(
                (*path, "size"),
                f"size is a whole number from {len(cards)} (the minions written) to {MAX_SIZE}",
            )
        # blank strength 1 minions below the written ones make up the size
        cards += [Card("1", owner, strength=1) for _ in range(size - len(cards))]
        state.abominations[str(name)] = Abomination(
            str(name),
            owner,
            cards,
            tapped=bool(spec.get("tapped", False)),
            added=bool(spec.get("added", False)),
        )
