"""Cards as fighters: creature and item cards turned into the fight module's plain data, and
sides written as text ("Ghoul, Hunched One + Cool Stretchy Headband / Cavelling").

A side is squads separated by '/', the first the principal squad and the others flanking
it; a squad is card names separated by ',' or '+'. Creature cards become creatures, item
and spell cards the squad's items, whichever separator precedes them.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from typing import Any

from charnel.games.cave_evil.engine.fight import Creature, FightError, Item, Squad

ITEM_TYPES = ("item", "spell")


def _field(card: Any, name: str, default: Any = None) -> Any:
    if isinstance(card, Mapping):
        return card.get(name, default)
    return getattr(card, name, default)


def _plain(value: Any) -> Any:
    """A card model's abilities as plain mappings (pydantic models dumped, None fields out)."""
    if hasattr(value, "model_dump"):
        value = value.model_dump(exclude_none=True)
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items() if v is not None}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def fighter(card: Any) -> Creature | Item | None:
    """A card (a mapping or a card record) as fight data: a card with attributes (creature,
    necromancer, protector) as a creature, an item or spell as an item; None otherwise."""
    abilities = tuple(_plain(a) for a in (_field(card, "abilities") or ()))
    name = str(_field(card, "name"))
    attributes = _field(card, "attributes")
    if attributes:
        values = _plain(attributes)
        return Creature(name, {k: int(v) for k, v in values.items()}, abilities)
    if _field(card, "type") in ITEM_TYPES:
        return Item(name, abilities)
    return None


class Pool:
    """The fighters of a card pool, by name (case and spacing ignored)."""

    def __init__(self, cards: Iterable[Any]):
        self.by_key: dict[str, Creature | Item] = {}
        for card in cards:
            found = fighter(card)
            if found is not None:
                self.by_key.setdefault(_key(found.name), found)

    def names(self) -> list[str]:
        return sorted(f.name for f in self.by_key.values())

    def get(self, name: str) -> Creature | Item:
        found = self.by_key.get(_key(name))
        if found is None:
            raise FightError(unknown_card(name, self.names()))
        return found


def _key(name: str) -> str:
    return " ".join(name.casefold().split())


def unknown_card(name: str, names: list[str]) -> str:
    by_key = {_key(n): n for n in names}
    near = difflib.get_close_matches(_key(name), list(by_key), n=1, cutoff=0.0)
    hint = f"; nearest: '{by_key[near[0]]}'" if near else ""
    return f"no creature, item or spell named '{name.strip()}'{hint}"


def parse_squad(text: str, pool: Pool) -> Squad:
    names = [n.strip() for part in text.split(",") for n in part.split("+")]
    if any(not n for n in names):
        raise FightError(f"an empty name in squad '{text.strip()}'")
    found = [pool.get(n) for n in names]
    creatures = tuple(f for f in found if isinstance(f, Creature))
    if not creatures:
        raise FightError(f"squad '{text.strip()}' has no creature")
    return Squad(creatures, tuple(f for f in found if isinstance(f, Item)))


def parse_side(text: str, pool: Pool) -> tuple[Squad, ...]:
    """A side written as text: squads separated by '/', the first one the principal."""
    return tuple(parse_squad(part, pool) for part in text.split("/"))
