"""Reading an action's arguments: squads, Wandering Monsters, cards, hexes, resources, with
every mistake in the example pointed at."""

from __future__ import annotations

from typing import Any

from . import hexes
from .pieces import slug
from .state import (
    ATTRIBUTES,
    RESOURCES,
    Card,
    ExampleError,
    Squad,
    State,
)


class Args:
    def __init__(self, state: State, raw: dict[str, Any], path: tuple, actor: str):
        self.state, self.raw, self.path, self.actor = state, raw, path, actor

    def at(self, key: str) -> tuple:
        return (*self.path, key)

    def has(self, key: str) -> bool:
        return key in self.raw

    def get(self, key: str, default: Any = None) -> Any:
        return self.raw.get(key, default)

    def need(self, key: str) -> Any:
        if key not in self.raw:
            raise ExampleError(self.path, f"this action needs '{key}'")
        return self.raw[key]

    def squad(self, key: str = "squad", *, value: Any = None) -> Squad:
        written = self.need(key) if value is None else value
        return find_squad(self.state, written, self.at(key), self.actor)

    def squads(self, key: str) -> list[Squad]:
        written = self.raw.get(key) or []
        if not isinstance(written, list):
            written = [written]
        return [
            find_squad(self.state, w, (*self.path, key, i), self.actor)
            for i, w in enumerate(written)
        ]

    def hex(self, key: str, value: Any = None) -> hexes.Hex:
        try:
            return hexes.parse(self.need(key) if value is None else value)
        except ValueError as exc:
            raise ExampleError(self.at(key), str(exc)) from None

    def path_of(self, key: str = "path") -> list[hexes.Hex]:
        written = self.raw.get(key) or []
        if not isinstance(written, list):
            raise ExampleError(self.at(key), "a path is a list of hexes, [[q, r], ...]")
        out = []
        for i, h in enumerate(written):
            try:
                out.append(hexes.parse(h))
            except ValueError as exc:
                raise ExampleError((*self.path, key, i), str(exc)) from None
        return out

    def attribute(self, key: str = "first") -> str:
        value = self.need(key)
        if value not in ATTRIBUTES:
            raise ExampleError(
                self.at(key), f"unknown attribute '{value}' (known: {', '.join(ATTRIBUTES)})"
            )
        return value

    def resources(
        self, key: str = "resources", *, whole: dict[str, int] | None = None
    ) -> dict[str, int]:
        value = self.raw.get(key) or {}
        if value == "all" and whole is not None:
            return dict(whole)
        if not isinstance(value, dict):
            raise ExampleError(
                self.at(key), "resources are {metals: n, gore: n, shadowflame: n} or all"
            )
        out = dict.fromkeys(RESOURCES, 0)
        for r, n in value.items():
            if r not in RESOURCES:
                raise ExampleError(
                    (*self.path, key, r), f"unknown resource '{r}' (known: {', '.join(RESOURCES)})"
                )
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise ExampleError((*self.path, key, r), f"{r} is a whole number")
            out[r] = n
        return out

    def cards_in(self, key: str, where: list[Card], what: str) -> list[Card]:
        written = self.raw.get(key) or []
        if not isinstance(written, list):
            written = [written]
        picked: list[Card] = []
        for i, name in enumerate(written):
            picked.append(
                find_card(
                    where,
                    name,
                    (*self.path, key, i) if isinstance(self.raw.get(key), list) else self.at(key),
                    what,
                    picked,
                )
            )
        return picked


def find_card(
    where: list[Card], name: Any, path: tuple, what: str, taken: list[Card] | None = None
) -> Card:
    taken = taken or []
    for card in where:
        if card not in taken and (card.name == name or slug(card.name) == slug(str(name))):
            return card
    shown = ", ".join(c.name for c in where) or "nothing"
    raise ExampleError(path, f"no '{name}' in {what} (there: {shown})")


def find_squad(state: State, written: Any, path: tuple, actor: str) -> Squad:
    """A squad by its key (`jason II`), its control card for the acting player (`II`), or a
    Wandering Marker (`B`)."""
    key = str(written)
    squad = state.squads.get(key) or state.squads.get(f"{actor} {key}")
    if squad is None:
        known = ", ".join(sorted(state.squads)) or "none"
        raise ExampleError(path, f"no squad or Wandering Monster '{key}' (there are: {known})")
    return squad
