"""Card text the engine runs outside a fight: each family of effects in a module of its own
(the Blood Eye, goods placed in the cave, losses, spells, bombs, necromancers' abilities).

An effect is registered once with everything charnel does with it: the card kinds that may
print it, how its value is checked, the sentences a card prints for it (so coverage counts the
sentence as run), the clause whose examples verify it, and what it does when its card
resolves: an Event in Phase 4, a Spell when cast, an item, creature or necromancer when used.

This module is the registry alone: it imports no family and no engine module but the state, so
the engine's lower modules (pieces, death, combat, conjure, excavation, battle) read it without
reaching the families, which import them. A family registers its effects, and the functions
those lower modules call by name (`HOOKS`); `effects.all` imports every family, once, for the
engine's top.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ..state import Card, Squad, State


@dataclass
class Resolution:
    """A card resolving: the state, the step's arguments, the card, the squad it acts from
    (the caster's or user's; None for an Event) and the player it acts for."""

    state: State
    args: Any
    card: Card
    squad: Squad | None
    player: str


@dataclass(frozen=True)
class Effect:
    kinds: tuple[str, ...]
    clause: str | tuple[str, ...]  # the rule(s) whose examples verify it
    role: str  # what the card is in those examples
    check: Callable[[Any], str | None]  # None, or what a value must be
    wording: Callable[[Any], list[str]]  # how a card prints it (a string may hold sentences)
    run: Callable[[Resolution, Any], None] | None = None  # None: other engine code reads it
    when: str = "resolve"  # resolve (Event, Spell) | use (an action) | once (once per game)
    variables: Callable[[Any], dict[str, Any]] = field(default=lambda value: {})

    @property
    def clauses(self) -> tuple[str, ...]:
        return (self.clause,) if isinstance(self.clause, str) else self.clause


EFFECTS: dict[str, Effect] = {}


def effect(name: str, **fields: Any) -> None:
    EFFECTS[name] = Effect(**fields)


HOOKS: dict[str, Callable[..., Any]] = {}
F = TypeVar("F", bound=Callable[..., Any])


def hook(name: str) -> Callable[[F], F]:
    """Register a family's function under `name` for the engine's lower modules to call."""

    def register(function: F) -> F:
        HOOKS[name] = function
        return function

    return register


def of(card: Card, when: str) -> list[tuple[str, Any]]:
    """(name, value) of the card's effects that act `when`."""
    out = []
    for ability in card.abilities:
        for name, value in ability.items():
            found = EFFECTS.get(name)
            if found is not None and found.run is not None and found.when == when:
                out.append((name, value))
    return out


def resolve(
    state: State, args: Any, card: Card, squad: Squad | None, player: str, when: str = "resolve"
) -> bool:
    """Run the card's effects that act `when`, in printed order; False if it has none."""
    found = of(card, when)
    for name, value in found:
        EFFECTS[name].run(Resolution(state, args, card, squad, player), value)  # type: ignore[misc]
    return bool(found)


def whole(low: int = 1, high: int = 99) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        ok = isinstance(value, int) and not isinstance(value, bool) and low <= value <= high
        return None if ok else f"a whole number from {low} to {high}"

    return check


def flag(value: Any) -> str | None:
    return None if value is True else "write true"


RESOURCE_NAMES = {"metals": "Metals", "gore": "Gore", "shadowflame": "Shadowflame"}
DECK_NAMES = {"bribe": "Bribe", "construct": "Construct", "summon": "Summon", "abyss": "Abyss"}
