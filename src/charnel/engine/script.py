"""What an example decides for the players: scripted choices and scripted dice.

An engine never picks for a player and never rolls: where the rules let a player choose, it
takes the next scripted choice of that kind (`choices:`); where they roll a die, it takes the
next die of `dice:` in written order. A die the example does not give is an error in the
example, never a random number.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from charnel import example_language as language
from charnel.engine.errors import ExampleError


@dataclass
class Choice:
    kind: str
    value: Any
    path: tuple
    used: bool = False


@dataclass
class Die:
    value: int
    path: tuple
    used: bool = False


class Script:
    """The choices and dice of one run; `at` is the step being run, for errors."""

    def __init__(self) -> None:
        self.choices: list[Choice] = []
        self.dice: list[Die] = []
        self.at: tuple = ()
        self._rolled = 0

    def load(self, body: dict, kinds: set[str] | frozenset[str]) -> None:
        """Read `choices:` (each of a kind the game knows) and `dice:` from an example body."""
        for scripted in language.choices(body):
            if scripted.kind not in kinds:
                raise ExampleError(
                    scripted.path,
                    f"unknown choice '{scripted.kind}' (known: {', '.join(sorted(kinds))})",
                )
            self.choices.append(Choice(scripted.kind, scripted.value, scripted.path))
        for value, path in language.dice(body):
            self.dice.append(Die(value, path))

    def choose(self, kind: str, match: Callable[[Any], bool] | None = None) -> Choice | None:
        """The first unused scripted choice of this kind (and matching, when given)."""
        for choice in self.choices:
            if not choice.used and choice.kind == kind and (match is None or match(choice.value)):
                choice.used = True
                return choice
        return None

    def roll(self, sides: int, why: str) -> int:
        """The next scripted die, read as a roll of a `sides`-sided die for `why`."""
        if self._rolled >= len(self.dice):
            given = len(self.dice)
            raise ExampleError(
                ("dice",) if given else self.at,
                f"{why} rolls a d{sides}, but the example gives "
                + (f"only {given} {'die' if given == 1 else 'dice'}" if given else "no dice")
                + ": add its value to 'dice:'",
            )
        die = self.dice[self._rolled]
        self._rolled += 1
        if not 1 <= die.value <= sides:
            raise ExampleError(
                die.path,
                f"die {self._rolled} is {die.value}, but {why} rolls a d{sides} (1-{sides})",
            )
        die.used = True
        return die.value

    def mark(self) -> tuple:
        """Where the script stands, to go back to when a step is refused."""
        return tuple(c.used for c in self.choices), self._rolled

    def rewind(self, mark: tuple) -> None:
        used, self._rolled = mark
        for choice, was in zip(self.choices, used, strict=True):
            choice.used = was
        for i, die in enumerate(self.dice):
            die.used = i < self._rolled

    def unused(self) -> tuple[str, tuple] | None:
        """(what, where) of the first choice or die the run never took, or None."""
        for choice in self.choices:
            if not choice.used:
                return f"the scripted choice '{choice.kind}' was never used", choice.path
        left = [die for die in self.dice if not die.used]
        if left:
            noun = "die was" if len(left) == 1 else "dice were"
            return f"{len(left)} scripted {noun} never rolled", left[0].path
        return None
