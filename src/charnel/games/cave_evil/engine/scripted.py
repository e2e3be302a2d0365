"""Scripted dice and choices. Dice are used in the order the rules roll them (documented in
the example language page); a die needed and not given, or given and not used, is an error in
the example, as is a choice needed and not scripted or scripted and not used."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from charnel.games.cave_evil.engine.state import ExampleError


@dataclass
class Dice:
    values: list[Any]
    used: int = 0
    log: list[tuple[int, str]] = field(default_factory=list)

    def roll(self, sides: int, why: str, path: tuple) -> int:
        if self.used >= len(self.values):
            raise ExampleError(
                ("dice",) if self.values else path,
                f"a die is missing: the rules roll a d{sides} for {why} here, after "
                f"{self.used} scripted {'die' if self.used == 1 else 'dice'}",
            )
        value = self.values[self.used]
        where = ("dice", self.used)
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= sides:
            raise ExampleError(where, f"this die is rolled as a d{sides} ({why}): 1 to {sides}")
        self.used += 1
        self.log.append((sides, why))
        return value

    def check_all_used(self) -> None:
        if self.used < len(self.values):
            n = len(self.values) - self.used
            raise ExampleError(
                ("dice", self.used),
                f"{n} scripted {'die was' if n == 1 else 'dice were'} never rolled "
                f"(the rules rolled {self.used})",
            )


@dataclass
class Choice:
    kind: str
    value: Any
    path: tuple
    used: bool = False


@dataclass
class Choices:
    items: list[Choice] = field(default_factory=list)

    def take(self, kind: str, why: str, path: tuple, default: Any = None) -> Any:
        for c in self.items:
            if c.kind == kind and not c.used:
                c.used = True
                return c.value
        if default is not None:
            return default
        raise ExampleError(
            path, f"this step needs a scripted choice '{kind}' ({why}): add '- {kind}: ...' to choices"
        )

    def peek(self, kind: str) -> Choice | None:
        return next((c for c in self.items if c.kind == kind and not c.used), None)

    def check_all_used(self) -> None:
        for c in self.items:
            if not c.used:
                raise ExampleError(c.path, f"the scripted choice '{c.kind}' was never used")
