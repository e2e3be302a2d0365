"""Hecatomb's rules engine as the core runs it (`charnel.engine.Engine`): its actions and
choices, a state from `given`, the facts of `then`, and its keywords as the abilities card
verification checks."""

from __future__ import annotations

import copy
from typing import Any

from charnel.engine import Ability, Action, Engine, ExampleError, Script
from charnel.example_language import Step
from charnel.keywords import KeywordBook
from charnel.records import CardBase, Example, GameRecords

from . import combat, facts, play, setup, turn, verify
from .refs import Args
from .snapshot import snapshot
from .state import State
from .verbs import VERBS


def _action(apply, fields: set[str] | None) -> Action:
    # any action may say which player takes it; the others read their own fields
    return Action(apply, None if fields is None else frozenset(fields | {"player"}))


ACTIONS = {
    name: _action(apply, fields)
    for name, (apply, fields) in {
        "ready": (turn.ready, set()),
        "end_turn": (turn.end_turn, set()),
        "add_mana": (play.add_mana, {"card"}),
        "play": (play.play, {"card", "on", "as", "x", "targets", "pay"}),
        "attack": (combat.attack, {"attackers", "enemy"}),
        "block": (combat.block, None),  # blocker: attacker pairs
        "fight": (combat.fight, set()),
        "tap_ability": (play.tap_ability, {"abomination", "minion", "targets"}),
        **VERBS,
    }.items()
}
CHOICES = frozenset({"hunt", "rip", "soulbound", "summon", "discard", "order", "take", "up_to"})


class HecatombEngine(Engine):
    actions = ACTIONS
    choice_kinds = CHOICES
    zones = frozenset(setup.GIVEN_FIELDS)

    def __init__(self, records: GameRecords):
        self.records = records
        self.book = KeywordBook(records.keywords, records.info)
        self.pool: dict[str, Any] = {c.slug: c for c in records.cards}

    def body(self, example: Example) -> dict:
        return verify.bind(example, self.records, self.book)

    def setup(self, given: dict, script: Script) -> State:
        state = setup.build(given, self.book, self.pool)
        state.script = script
        return state

    def perform(self, state: State, action: Action, step: Step) -> None:
        actor = step.args.get("player", state.turn) if action.fields is not None else state.turn
        if actor not in state.players:
            raise ExampleError((*step.path, "player"), f"no player '{actor}'")
        action.apply(state, Args(state, step.args, step.path, actor))

    def copy(self, state: State, memo: dict) -> State:
        memo[id(self.book)] = self.book
        return copy.deepcopy(state, memo)

    def settle(self, state: State) -> None:
        if state.combat is not None and state.winner is None:  # the attack is fought out
            combat.fight(state)
        state.combat = None  # after a win, the attack ends unfought (ruling 10.1g)

    def compare(self, state: State, then: dict):
        return facts.compare(state, then)

    def snapshot(self, state: State) -> dict:
        return snapshot(state)

    # --- card verification: a card's keywords, each checked on a minion of the examples ----

    def abilities(self, card: CardBase) -> list[Ability]:
        out = []
        for entry in card.keywords:
            try:
                use = self.book.decode(entry)
            except ValueError:
                continue  # reported by the checks already
            term = self.records.term(use.keyword)
            out.append(
                Ability(
                    use.keyword,
                    use.text,
                    tuple(term.rules) if term is not None else (),
                    f"the {use.text} minion",
                    entry,
                    use.params,
                )
            )
        return out

    def subject(self, example: Example, ability: Ability):
        return verify.find_subject(example.body, ability.name, self.book)

    def applies(self, example: Example, subject, ability: Ability) -> bool:
        return verify.applies(example, subject, ability.params)

    def substitute(self, example: Example, subject, card: CardBase, ability: Ability) -> dict:
        return verify.substituted(example, subject, card, ability.entry, ability.params)

    def run_key(self, example: Example, card: CardBase, ability: Ability):
        carried = verify.CARRIED_EFFECTS.get(ability.name)
        return (
            repr(ability.entry),
            *verify.stats_read(example, card),
            repr(card.effects) if carried else None,
        )
