"""Cave Evil's engine for the core runner (`charnel.engine`): its actions, the choices it
asks for, building the state from `given` and comparing `then`."""

from __future__ import annotations

from typing import Any

from charnel.engine import Ability, Action, Engine, Script

from .. import ability_text
from . import (
    awakening,
    battle,
    conjure,
    cycle,
    excavation,
    facts,
    movement,
    obligations,
    setting_up,
    setup,
    snapshot,
    spawn,
    verify,
)
from .args import Args
from .effects import abilities, evil_moves, necromancers, protectors
from .effects import all as _all  # noqa: F401  (every family registers its effects)
from .scripted import Choices, Dice
from .state import Illegal, State


def _spawn(state: State, args: Args) -> None:
    spawn.roll(state, args.need("roll"), args.hex("at"))


def _action(apply, *fields: str, phases: tuple[int, ...] = (3,)) -> Action:
    """An action, allowed in the given phases (Squad Actions unless said)."""

    def run(state: State, args: Args) -> None:
        if state.phase not in phases and 3 in phases and state.phase < 3:
            if not state.conjured:
                raise Illegal("must-conjure", "Phase 2 comes first: the player conjures a card")
            state.phase = 3  # the first Squad Action ends Phase 2
        if state.phase == 1 and phases == (2,):
            obligations.must_fight(state, state.turn)
            state.phase = 2  # conjuring ends Phase 1
        if state.phase not in phases:
            shown = " or ".join(str(p) for p in phases)
            raise Illegal(
                "wrong-phase", f"this is done in Phase {shown}, not in Phase {state.phase}"
            )
        apply(state, args)

    return Action(run, frozenset({*fields, "player"}))


ACTIONS: dict[str, Action] = {
    "conjure": _action(conjure.conjure, "deck", "take", "discard_pile", phases=(2,)),
    "secondary_conjure": _action(conjure.secondary_conjure, "deck"),
    "invoke": _action(conjure.invoke, "card", "to", "at", "from"),
    "cast": _action(conjure.cast, "squad", "spell", "target", "at", "take"),
    "sacrifice": _action(conjure.sacrifice, "card", "from"),
    "discard": _action(conjure.discard_hand, "card", "resource"),
    "move": _action(movement.move, "squad", "path", phases=(3, 4)),
    "split": _action(
        movement.split, "squad", "creatures", "items", "resources", "into", "path", phases=(3, 4)
    ),
    "join": _action(movement.join, "from", "creatures", "items", "into"),
    "merge": _action(movement.merge, "squad", "into"),
    "pick_up": _action(movement.pick_up, "squad", "resources", "items", "from"),
    "pass": _action(movement.pass_goods, "from", "to", "resources", "items", phases=(1, 3)),
    "attack": _action(
        battle.attack,
        "squad",
        "with",
        "target",
        "first",
        "second",
        "ranged",
        "separately",
        "order",
        "crystal",
        phases=(1, 3),
    ),
    "hire": _action(battle.hire, "squad", "monster", "into", "step", "join", phases=(1, 3)),
    "subdue": _action(
        battle.subdue,
        "squad",
        "monster",
        "first",
        "second",
        "ranged",
        "into",
        "step",
        "join",
        phases=(1, 3),
    ),
    "abandon": _action(movement.abandon, "squad", "creatures", "items", "path", "at"),
    "excavate": _action(excavation.declare, "squad", "collapse", "helpers", "tile"),
    "dig": _action(excavation.dig, "squad", "helpers", "tile"),
    "abandon_dig": _action(excavation.abandon, "squad"),
    "spawn": _action(_spawn, "roll", "at", phases=(1, 2, 3, 4)),
    "evil_attacks": _action(awakening.evil_attacks, "first", phases=(1,)),
    "kneel": _action(awakening.kneel),
    "bathe": _action(awakening.bathe, "kills", "target"),
    "roll_for_first": _action(setting_up.roll_for_first, phases=(1, 2, 3, 4)),
    "deal": _action(setting_up.deal, phases=(1, 2, 3, 4)),
    "starting_resources": _action(setting_up.starting_resources, "resources", phases=(1, 2, 3, 4)),
    "next_phase": _action(cycle.next_phase, phases=(1, 2, 3, 4)),
    "end_turn": _action(cycle.end_turn, phases=(1, 2, 3, 4)),
    "use": _action(
        abilities.use, "squad", "card", "at", "take", "spell", "target", phases=(1, 3)
    ),
    "emperor_marches": _action(
        evil_moves.emperor_marches, "target", "path", "first", "tile", phases=(1,)
    ),
    "goat_rampages": _action(evil_moves.goat_rampages, "path", "tile", phases=(1,)),
    "attack_evil": _action(evil_moves.attack_evil, "squad", "first", phases=(1, 3)),
    "protector_attacks": _action(
        protectors.attacks, "protector", "target", "first", "to", phases=(1, 2, 3, 4)
    ),
    "once_per_game": _action(
        necromancers.use_once, "to", "at", "target", "into", phases=(1, 2, 3, 4)
    ),
}
CHOICES = frozenset({
    "first", "second", "ranged_defence", "spawn_at", "tile", "resource", "card", "order", "path",
    "monsters",
})  # fmt: skip


class CaveEvilEngine(Engine):
    actions = ACTIONS
    choice_kinds = CHOICES
    zones = frozenset(setup.GIVEN)

    def __init__(self, pool: dict[str, dict[str, Any]], odds=None):
        self.pool = pool
        self.odds = odds

    def setup(self, given: dict, script: Script) -> State:
        state, cards = setup.build(given, self.pool)
        state.cards = cards
        state.dice, state.choices = Dice(script), Choices(script)
        return state

    def perform(self, state: State, action: Action, step) -> None:
        from charnel.engine.errors import ExampleError

        actor = step.args.get("player", state.turn)
        if actor not in state.players:
            raise ExampleError((*step.path, "player"), f"no player '{actor}'")
        if state.winner is not None or state.everyone_lost:
            raise ExampleError(step.path, "the game is over: no step may follow")
        state.path = step.path
        args = Args(state, step.args, step.path, actor)
        obligations.gate(state, step.action, args)
        action.apply(state, args)

    def copy(self, state: State, memo: dict) -> State:
        import copy

        memo = {
            **memo,
            id(state.cards): state.cards,
            id(state.dice): state.dice,
            id(state.choices): state.choices,
        }
        return copy.deepcopy(state, memo)

    def snapshot(self, state: State) -> dict:
        return snapshot.snapshot(state)

    def compare(self, state: State, then: dict):
        return facts.compare(state, then, self.odds)

    # --- card verification: each encoded ability, on the card that carries it ---------------

    def body(self, example) -> dict:
        return verify.bind(example, self.pool)

    def abilities(self, card) -> list[Ability]:
        out = []
        for entry in card.abilities:
            if not isinstance(entry, dict) or len(entry) != 1:
                continue  # reported by the checks already
            ((name, value),) = entry.items()
            if name in verify.CLAUSES:
                text = ability_text.shown(name, value, card.type)
                params = verify.Encoded(value, card.slug)
                out.append(
                    Ability(name, text, verify.CLAUSES[name], verify.ROLES[name], entry, params)
                )
        return out

    def subject(self, example, ability: Ability):
        return verify.find_subject(example.body, ability.name, self.pool)

    def applies(self, example, subject, ability: Ability) -> bool:
        return verify.applies(example, subject, ability.params, self.pool)

    def substitute(self, example, subject, card, ability: Ability) -> dict:
        return verify.substituted(
            example, subject, self.pool[card.slug], ability.name, ability.params.value
        )
