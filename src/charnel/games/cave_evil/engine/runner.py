"""Running one Cave Evil example: build the state from `given`, run each step of `when`
(a step marked `expect: illegal` must be refused, for the stated reason), then require every
scripted die and choice to have been used, and compare `then`."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from charnel import example_language as language
from charnel.games.cave_evil.engine import (
    battle,
    conjure,
    cycle,
    excavation,
    facts,
    movement,
    setup,
    spawn,
)
from charnel.games.cave_evil.engine.args import Args
from charnel.games.cave_evil.engine.scripted import Choice, Choices, Dice
from charnel.games.cave_evil.engine.state import ExampleError, Illegal, State, reject_unknown

FIELDS = {*language.FIELDS, "dice"}


def _spawn(state: State, args: Args) -> None:
    spawn.roll(state, args.need("roll"), args.hex("at"))


ACTIONS: dict[str, tuple[Any, set[str]]] = {
    "conjure": (conjure.conjure, {"deck", "take", "discard_pile"}),
    "secondary_conjure": (conjure.secondary_conjure, {"deck"}),
    "invoke": (conjure.invoke, {"card", "to", "at"}),
    "cast": (conjure.cast, {"squad", "spell"}),
    "sacrifice": (conjure.sacrifice, {"card", "from"}),
    "discard": (conjure.discard_hand, {"card", "resource"}),
    "move": (movement.move, {"squad", "path"}),
    "split": (movement.split, {"squad", "creatures", "items", "resources", "into", "path"}),
    "join": (movement.join, {"from", "creatures", "items", "into"}),
    "merge": (movement.merge, {"squad", "into"}),
    "pick_up": (movement.pick_up, {"squad", "resources", "items", "from"}),
    "pass": (movement.pass_goods, {"from", "to", "resources", "items"}),
    "attack": (battle.attack, {"squad", "with", "target", "first", "ranged", "order", "crystal"}),
    "hire": (battle.hire, {"squad", "monster", "into", "step", "join"}),
    "subdue": (battle.subdue, {"squad", "monster", "first", "into", "step", "join"}),
    "excavate": (excavation.declare, {"squad", "collapse", "helpers", "tile"}),
    "dig": (excavation.dig, {"squad", "helpers", "tile"}),
    "abandon_dig": (excavation.abandon, {"squad"}),
    "spawn": (_spawn, {"roll", "at"}),
    "next_phase": (cycle.next_phase, set()),
    "end_turn": (cycle.end_turn, set()),
}
CHOICES = {"second", "ranged_defence", "spawn_at", "tile"}


@dataclass
class RunResult:
    passed: bool
    message: str = ""
    diff: list[str] = field(default_factory=list)
    path: tuple = ()
    broken: bool = False
    key: bool = False
    before: State | None = None
    after: State | None = None


def run(body: dict, pool: dict[str, dict[str, Any]], *, odds=None, keep: bool = False) -> RunResult:
    at: list[tuple] = [()]
    try:
        return _run(body, pool, odds, keep, at)
    except (ExampleError, language.LanguageError) as exc:
        return RunResult(False, exc.message, path=exc.path, broken=True, key=exc.key)
    except (TypeError, ValueError, AttributeError, KeyError, IndexError) as exc:
        return RunResult(False, f"cannot read this part of the example ({exc})", path=at[0], broken=True)


def _run(body: dict, pool, odds, keep: bool, at: list) -> RunResult:
    reject_unknown(body, FIELDS, (), "example field")
    for key in ("given", "then"):
        if body.get(key) is not None and not isinstance(body[key], dict):
            raise ExampleError((key,), f"'{key}' is a mapping")
    steps = language.steps(body)
    at[0] = ("given",)
    state, cards = setup.build(body.get("given") or {}, pool)
    state.cards = cards
    dice = body.get("dice") or []
    if not isinstance(dice, list):
        raise ExampleError(("dice",), "dice is a list of scripted rolls, in the order the rules roll them")
    state.dice = Dice(list(dice))
    state.choices = Choices()
    for scripted in language.choices(body):
        if scripted.kind not in CHOICES:
            raise ExampleError(
                scripted.path, f"unknown choice '{scripted.kind}' (known: {', '.join(sorted(CHOICES))})"
            )
        state.choices.items.append(Choice(scripted.kind, scripted.value, scripted.path))
    before = copy.deepcopy(state, {id(state.cards): state.cards}) if keep else None
    for n, step in enumerate(steps, start=1):
        at[0] = state.path = step.path
        entry = ACTIONS.get(step.action)
        if entry is None:
            raise ExampleError(
                step.path, f"unknown action '{step.action}' (known: {', '.join(sorted(ACTIONS))})"
            )
        apply, known = entry
        reject_unknown(step.args, known | {"player"}, step.path, "field", f" for {step.action}")
        actor = step.args.get("player", state.turn)
        if actor not in state.players:
            raise ExampleError((*step.path, "player"), f"no player '{actor}'")
        if state.winner is not None or state.everyone_lost:
            raise ExampleError(step.path, "the game is over: no step may follow")
        label = f"step {n} ({step.action})"
        if step.illegal:
            saved = copy.deepcopy(state, {id(state.cards): state.cards})
            try:
                apply(state, Args(state, step.args, step.path, actor))
            except Illegal as exc:
                if step.reason is not None and exc.reason != step.reason:
                    return RunResult(False, f"{label} was refused for '{exc.reason}', not '{step.reason}': {exc.message}", path=step.path)
                state = saved
                continue
            return RunResult(False, f"{label} should be illegal ({step.reason or 'any reason'}) but the engine allowed it", path=step.path)
        try:
            apply(state, Args(state, step.args, step.path, actor))
        except Illegal as exc:
            return RunResult(False, f"{label} was refused: {exc.message} [{exc.reason}]", path=step.path)
    state.dice.check_all_used()
    state.choices.check_all_used()
    at[0] = ("then",)
    mismatches = facts.compare(state, body.get("then") or {}, odds)
    if mismatches:
        noun = "fact differs" if len(mismatches) == 1 else "facts differ"
        return RunResult(
            False,
            f"{len(mismatches)} {noun} from what the engine computed",
            diff=language.diff_lines(mismatches),
            path=("then",),
            before=before,
            after=state if keep else None,
        )
    return RunResult(True, before=before, after=state if keep else None)
