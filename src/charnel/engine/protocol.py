"""What a game's rules engine provides to the core's runner and card verification.

A game subclasses `Engine` (one instance per loaded `GameRecords`, from `Game.engine`) and
fills in the table of actions, the choice kinds it asks for, and the methods below. The core
does everything else: reading steps, refusing unknown actions and fields, illegal steps and
their reasons, scripted choices and dice, comparing `then`, and card verification.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from charnel import example_language as language

if TYPE_CHECKING:
    from charnel.engine.script import Script
    from charnel.records import CardBase, Example, GameRecords

Mismatch = tuple[str, Any, Any]  # (fact, expected, actual)


@dataclass(frozen=True)
class Action:
    """One action of the example language: what runs it, and the fields a step may give it
    (None: the action reads any field itself)."""

    apply: Callable[..., None]
    fields: frozenset[str] | None = frozenset()


@dataclass(frozen=True)
class Ability:
    """An ability a card encodes, as the engine runs it.

    `name` is what examples name in `ability:`; `clauses` are the rules that define it, whose
    examples check it; `role` says what the card stands in for in such an example, for
    messages ("with <card> as <role>: ..."); `entry` and `params` are the card's encoding,
    for the game's own use.
    """

    name: str
    text: str
    clauses: tuple[str, ...]
    role: str
    entry: Any = None
    params: Any = None


class Engine:
    """One game's rules engine over one loaded `GameRecords`."""

    actions: Mapping[str, Action] = {}
    choice_kinds: frozenset[str] = frozenset()
    # the parts of a position an example's `given` may name (the judge page offers them)
    zones: frozenset[str] = frozenset()
    records: GameRecords | None = None  # the records it runs over: deck lists check against them

    # --- running an example -----------------------------------------------------------------

    def body(self, example: Example) -> dict:
        """The body to run for an example on its own (a game with variables binds them)."""
        if language.uses_variables(example.body):
            raise language.LanguageError((), "this game's examples have no $variables")
        return example.body

    def setup(self, given: dict, script: Script) -> Any:
        """The state `given` describes; the state keeps `script` for the actions to ask."""
        raise NotImplementedError

    def perform(self, state: Any, action: Action, step: language.Step) -> None:
        """Run one step (its fields already checked); raises `Illegal` when the rules refuse."""
        action.apply(state, step.args)

    def copy(self, state: Any, memo: dict) -> Any:
        """A copy of the state, kept while an illegal step runs on the original; `memo` (for
        `copy.deepcopy`) names what is shared, not copied."""
        return copy.deepcopy(state, memo)

    def settle(self, state: Any) -> None:
        """Finish what the last step left open (say, a fight the example stops before)."""

    def compare(self, state: Any, then: dict) -> list[Mismatch]:
        """Each fact of `then` that the state does not hold, as (fact, expected, actual)."""
        raise NotImplementedError

    def snapshot(self, state: Any) -> dict | None:
        """The state as plain data, for `Game.draw_state`; None when the game draws none."""
        return None

    # --- card verification ------------------------------------------------------------------

    def abilities(self, card: CardBase) -> list[Ability]:
        """The abilities the card encodes that its examples check, in the card's order."""
        return []

    def subject(self, example: Example, ability: Ability) -> Any | None:
        """Where the example exercises `ability` (the card's place in it), or None."""
        return None

    def applies(self, example: Example, subject: Any, ability: Ability) -> bool:
        """Whether the example speaks for this card's version of the ability."""
        return True

    def substitute(self, example: Example, subject: Any, card: CardBase, ability: Ability) -> dict:
        """The example body with the card in the subject's place."""
        raise NotImplementedError

    def run_key(self, example: Example, card: CardBase, ability: Ability) -> Hashable:
        """What a run of `example` for this card depends on: runs with equal keys run once."""
        return (card.slug, ability.name, repr(ability.entry))
