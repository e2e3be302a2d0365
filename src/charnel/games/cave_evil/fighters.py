"""Sides written as text ("Ghoul, Hunched One + Cool Stretchy Headband / Cavelling") made into
the engine's squads, so `charnel odds` and the calculator fight with what the engine says.

A side is squads separated by '/', the first the principal squad and the others flanking
it; a squad is card names separated by ',' or '+'. Creature cards are the squad's creatures,
item and spell cards what it carries, whichever separator precedes them; "2 Gore" (or Metals,
Shadowflame) puts resources on its Control Card, to pay for Pay to Use items. A squad that the
rules refuse (too big, carrying more than its creatures can) is refused here with the engine's
own words.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from typing import Any

from charnel.engine.errors import ExampleError, Illegal

from .engine import squads
from .engine.effects import all as _all  # noqa: F401  (a card may print any effect)
from .engine.fight import FightError
from .engine.pieces import build
from .engine.state import Card, Squad

CREATURE_TYPES = ("creature", "necromancer", "protector", "awakening-evil")
ITEM_TYPES = ("item", "spell")
SIDE_LIMIT = 6  # squads a side: the six Control Cards
RESOURCE = re.compile(r"(\d{1,2})\s+(metals|gore|shadowflame)", re.I)
SQUAD_LIMIT = 12  # cards a squad: three creatures, trinkets and what they carry, and more


# The card fields a fight reads; the rest of a card (text, rulings, examples) is never copied.
FIGHT_FIELDS = (
    "name", "type", "size", "carry", "spellcaster", "attributes", "abilities", "use", "movement",
    "cost",
)  # fmt: skip


def fighter_body(card: Any) -> dict[str, Any] | None:
    """A card's fields as the engine builds a card from them, if it can fight or be carried
    into a fight; None otherwise."""
    if hasattr(card, "model_dump"):
        kind = getattr(card, "type", None) or "creature"
        if not ((kind in CREATURE_TYPES and card.attributes) or kind in ITEM_TYPES):
            return None
        data = card.model_dump(include=set(FIGHT_FIELDS), exclude_none=True)
    elif isinstance(card, Mapping):
        data = {k: card[k] for k in FIGHT_FIELDS if card.get(k) is not None}
    else:
        return None
    kind = data.get("type", "creature")
    if not ((kind in CREATURE_TYPES and data.get("attributes")) or kind in ITEM_TYPES):
        return None
    if isinstance(data.get("attributes"), Mapping):
        data["attributes"] = {k: v for k, v in data["attributes"].items() if v is not None}
    return data


class Pool:
    """The fighters of a card pool, by name (case and spacing ignored)."""

    def __init__(self, cards: Iterable[Any]):
        self.by_key: dict[str, dict[str, Any]] = {}
        for card in cards:
            body = fighter_body(card)
            if body is not None:
                self.by_key.setdefault(_key(str(body["name"])), body)

    def names(self) -> list[str]:
        return sorted(str(b["name"]) for b in self.by_key.values())

    def card(self, name: str) -> Card:
        """A new card of that name (each card of a squad is a card of its own)."""
        body = self.by_key.get(_key(name))
        if body is None:
            raise FightError(unknown_card(name, self.names()))
        try:
            return build(dict(body), ())
        except ExampleError as exc:
            raise FightError(f"card '{body['name']}': {exc}") from None


def _key(name: str) -> str:
    return " ".join(name.casefold().split())


def unknown_card(name: str, names: list[str]) -> str:
    by_key = {_key(n): n for n in names}
    near = difflib.get_close_matches(_key(name), list(by_key), n=1, cutoff=0.0)
    hint = f"; nearest: '{by_key[near[0]]}'" if near else ""
    return f"no creature, item or spell named '{name.strip()}'{hint}"


def parse_squad(text: str, pool: Pool, side: str, index: int) -> Squad:
    """One squad of a side, checked as the engine checks a squad it is given."""
    names = [n.strip() for part in text.split(",") for n in part.split("+")]
    if any(not n for n in names):
        raise FightError(f"an empty name in squad '{text.strip()}'")
    if len(names) > SQUAD_LIMIT:
        raise FightError(f"squad '{text.strip()}' names {len(names)} cards; at most {SQUAD_LIMIT}")
    squad = Squad(side, str(index + 1))
    cards = []
    for n in names:
        paid = RESOURCE.fullmatch(n)
        if paid:
            squad.resources[paid[2].lower()] += int(paid[1])
        else:
            cards.append(pool.card(n))
    squad.creatures = [c for c in cards if c.is_creature]
    squad.items = [c for c in cards if not c.is_creature]
    if not squad.creatures:
        raise FightError(
            f"the {side}'s squad '{text.strip()}': a squad holds at least one creature"
        )
    try:
        squads.check_holds(squad.creatures, squad.items, f"the {side}'s squad '{text.strip()}'")
    except Illegal as exc:
        raise FightError(exc.message) from None
    return squad


def parse_side(text: str, pool: Pool, side: str) -> list[Squad]:
    """A side written as text: squads separated by '/', the first one the principal."""
    parts = text.split("/")
    if len(parts) > SIDE_LIMIT:
        raise FightError(f"the {side} has {len(parts)} squads; at most {SIDE_LIMIT}")
    return [parse_squad(part, pool, side, i) for i, part in enumerate(parts)]
