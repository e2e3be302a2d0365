"""The engine's view of the core's script: dice rolled in the order the rules roll them, and
choices taken by kind (a choice the rules need and the example does not give is an error in
the example, pointed at the step)."""

from __future__ import annotations

from typing import Any

from charnel.engine.errors import ExampleError
from charnel.engine.script import Script

from . import hexes


class Dice:
    def __init__(self, script: Script):
        self.script = script

    def roll(self, sides: int, why: str, path: tuple) -> int:
        return self.script.roll(sides, why)


class Choices:
    def __init__(self, script: Script):
        self.script = script

    def take(self, kind: str, why: str, path: tuple, default: Any = None) -> Any:
        choice = self.script.choose(kind)
        if choice is not None:
            return choice.value
        if default is not None:
            return default
        raise ExampleError(
            path,
            f"this step needs a scripted choice '{kind}' ({why}): add '- {kind}: ...' to choices",
        )

    def take_hex(self, kind: str, why: str, path: tuple) -> hexes.Hex:
        """A scripted choice of a space; one that is not a hex is an error in the example."""
        try:
            return hexes.parse(self.take(kind, why, path))
        except ValueError as exc:
            raise ExampleError(path, str(exc)) from None

    def take_path(self, kind: str, why: str, path: tuple) -> list[hexes.Hex]:
        """A scripted choice of spaces in order; one that is not a list of hexes is an error
        in the example."""
        written = self.take(kind, why, path)
        if not isinstance(written, list):
            raise ExampleError(path, f"a {kind} is a list of hexes, not {written!r}")
        try:
            return [hexes.parse(h) for h in written]
        except ValueError as exc:
            raise ExampleError(path, str(exc)) from None
