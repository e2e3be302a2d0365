"""Cards as examples write them: a name from `given.cards` or the card pool, or a mapping
with the card-file fields (attributes may also be written at the top: `st: 11`).

    Ghoul                                        # defined in given.cards, or a pool card
    {name: Ghoul, size: small, movement: 3, st: 11, sp: 7, wp: 7}
    {card: Ghoul, st: 12}                        # a known card with fields changed
"""

from __future__ import annotations

import re
from typing import Any

from .state import (
    ATTRIBUTES,
    CONJURATION_DECKS,
    RESOURCES,
    SIZES,
    Card,
    ExampleError,
    reject_unknown,
)

CARD_FIELDS = {
    "name", "type", "deck", "cost", "movement", "size", "carry", "excavation", "spellcaster",
    "attributes", "abilities", "use", "large", "tile", "spawn", "draw", "card", *ATTRIBUTES,
    # card-file fields the engine reads past
    "copies", "species", "black_diamond", "text", "flavor", "rulings", "number", "rarity",
    "keywords", "effects", "examples",
}  # fmt: skip
KINDS = {
    "creature", "item", "spell", "event", "necromancer", "protector", "awakening-evil",
    "excavation",
}  # fmt: skip
ABILITIES = {
    "combat", "binding", "ranged", "bonus", "paid_bonus", "any_user", "pick_axe", "rip_apart",
    "through_rock", "through_wandering", "spawn", "tile", "mind", "forbids", "cancels",
    "enemy_total",
}  # fmt: skip


def _effects() -> dict:
    """The effects' abilities, registered by the families once the engine's top imports
    `effects.all` (read late, when a card is built)."""
    from .effects import EFFECTS

    return EFFECTS


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


class Cards:
    """Known cards by slug: the example's own `given.cards`, then the card pool."""

    def __init__(self, pool: dict[str, dict[str, Any]], own: dict[str, Any], path: tuple):
        self.pool = pool
        self.own: dict[str, dict[str, Any]] = {}
        for name, body in (own or {}).items():
            if body is None:
                body = {}
            if not isinstance(body, dict):
                raise ExampleError((*path, name), "a card definition is a mapping of fields")
            self.own[slug(str(name))] = {"name": str(name), **body}

    def known(self) -> list[str]:
        return sorted({*self.own, *self.pool})

    def make(self, written: Any, path: tuple) -> Card:
        if isinstance(written, str):
            body = self.own.get(slug(written))
            if body is None and slug(written) in self.pool:
                pooled = self.pool[slug(written)]
                body = {k: v for k, v in pooled.items() if k in CARD_FIELDS}  # read past the rest
            if body is None:
                raise ExampleError(
                    path,
                    f"unknown card '{written}' (define it in given.cards, or name a card of the "
                    "pool)",
                    key=False,
                )
            return build(body, path)
        if isinstance(written, dict):
            if "card" in written:
                base = self.make(written["card"], (*path, "card"))
                body = {**as_fields(base), **{k: v for k, v in written.items() if k != "card"}}
                return build(body, path)
            return build(written, path)
        raise ExampleError(path, "a card is a name or a mapping of card fields")


def as_fields(card: Card) -> dict[str, Any]:
    return {
        "name": card.name,
        "type": card.kind,
        "deck": card.deck,
        "cost": dict(card.cost),
        "movement": card.movement,
        "size": card.size,
        "carry": {"kind": card.carry_kind, "count": card.carry},
        "excavation": card.excavation,
        "spellcaster": card.spellcaster,
        "attributes": dict(card.attributes),
        "abilities": list(card.abilities),
        "use": card.use,
        "large": card.large,
        "tile": card.tile,
        "spawn": list(card.spawn),
        "draw": list(card.draw),
    }


def _int(value: Any, path: tuple, what: str, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ExampleError(path, f"{what} is a whole number of at least {low}")
    return value


def build(body: dict[str, Any], path: tuple) -> Card:
    reject_unknown(body, CARD_FIELDS, path, "card field")
    name = body.get("name")
    if not isinstance(name, str) or not name:
        raise ExampleError(path, "a card needs a 'name'")
    kind = body.get("type", "creature")
    if kind not in KINDS:
        raise ExampleError(
            (*path, "type"), f"unknown card type '{kind}' (known: {', '.join(sorted(KINDS))})"
        )
    card = Card(name=name, kind=kind)
    deck = body.get("deck")
    if deck is not None and deck not in (*CONJURATION_DECKS, "necromonk", "excavation"):
        raise ExampleError((*path, "deck"), f"unknown deck '{deck}'")
    card.deck = deck
    cost = body.get("cost") or {}
    if not isinstance(cost, dict):
        raise ExampleError((*path, "cost"), "a cost is {metals: n, gore: n, shadowflame: n}")
    reject_unknown(cost, RESOURCES, (*path, "cost"), "resource")
    card.cost = {r: _int(cost.get(r, 0), (*path, "cost", r), r) for r in RESOURCES}
    card.movement = _int(body.get("movement", 0), (*path, "movement"), "movement")
    size = body.get("size", "small" if kind in ("creature", "necromancer") else "trinket")
    if size not in SIZES:
        raise ExampleError((*path, "size"), f"unknown size '{size}' (known: {', '.join(SIZES)})")
    card.size = "small" if kind == "necromancer" else size  # counts as a Small (rule on N)
    carry = body.get("carry", {"kind": "carry_use", "count": 2} if kind == "necromancer" else 0)
    if isinstance(carry, int) and not isinstance(carry, bool):
        card.carry_kind, card.carry = ("carry_use" if carry else "none"), carry
    elif isinstance(carry, dict):
        reject_unknown(carry, {"kind", "count"}, (*path, "carry"), "carry field")
        card.carry_kind = carry.get("kind", "carry_use")
        if card.carry_kind not in ("none", "carry_only", "carry_use"):
            raise ExampleError(
                (*path, "carry", "kind"), "carry kind is none, carry_only or carry_use"
            )
        card.carry = _int(
            carry.get("count", 1 if card.carry_kind != "none" else 0),
            (*path, "carry", "count"),
            "carry count",
        )
    else:
        raise ExampleError((*path, "carry"), "carry is a number (carry and use) or {kind, count}")
    card.excavation = _int(body.get("excavation", 0), (*path, "excavation"), "excavation")
    card.spellcaster = bool(body.get("spellcaster", kind == "necromancer"))
    attrs = body.get("attributes") or {}
    if not isinstance(attrs, dict):
        raise ExampleError((*path, "attributes"), "attributes is {st: n, sp: n, ...}")
    reject_unknown(attrs, ATTRIBUTES, (*path, "attributes"), "attribute")
    for a in ATTRIBUTES:
        where = (*path, a) if a in body else (*path, "attributes", a)
        card.attributes[a] = _int(body.get(a, attrs.get(a, 0)), where, a)
    abilities = body.get("abilities") or []
    if not isinstance(abilities, list):
        raise ExampleError((*path, "abilities"), "abilities is a list")
    for i, ab in enumerate(abilities):
        if not isinstance(ab, dict) or len(ab) != 1:
            raise ExampleError((*path, "abilities", i), "an ability is one 'name: value' pair")
        reject_unknown(ab, ABILITIES | set(_effects()), (*path, "abilities", i), "ability")
    card.abilities = list(abilities)
    species = body.get("species") or []
    card.species = [str(s) for s in species] if isinstance(species, list) else [str(species)]
    for ab in card.abilities:
        if "permanent_carry" in ab:  # the Blood Sorcerer's standing ability
            card.carry_kind, card.carry = "carry_use", ab["permanent_carry"]
    card.use = body.get("use")
    card.large = bool(body.get("large", False))
    card.tile = body.get("tile")
    spawn = body.get("spawn") or []
    card.spawn = spawn if isinstance(spawn, list) else [spawn]
    draw = body.get("draw") or []
    card.draw = draw if isinstance(draw, list) else [draw]
    for ab in card.abilities:
        if "spawn" in ab:
            card.spawn += ab["spawn"] if isinstance(ab["spawn"], list) else [ab["spawn"]]
        if "tile" in ab and card.tile is None:
            card.tile = ab["tile"]
    return card


def pool_of(records: Any) -> dict[str, dict[str, Any]]:
    """The game's card pool as plain card-file fields, by slug (the deck from its group)."""
    out: dict[str, dict[str, Any]] = {}
    for card in getattr(records, "cards", []) or []:
        data = card.model_dump() if hasattr(card, "model_dump") else dict(card)
        body = {k: v for k, v in data.items() if k in CARD_FIELDS and v is not None}
        group = getattr(card, "set_code", "") or getattr(card, "group", "")
        if group in CONJURATION_DECKS and "deck" not in body:
            body["deck"] = group
        if isinstance(body.get("cost"), str):
            body.pop("cost")
        out[getattr(card, "slug", "") or slug(body["name"])] = body
        out.setdefault(slug(body["name"]), body)
    return out
