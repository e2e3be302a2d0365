"""Running one example: build the state from `given`, run each step of `when` (illegal steps
must be refused for the stated reason), check that every scripted choice was used, and
compare `then`."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from charnel import example_language as language
from charnel.games.hecatomb.engine import combat, facts, play, setup, turn
from charnel.games.hecatomb.engine.refs import Args
from charnel.games.hecatomb.engine.snapshot import snapshot
from charnel.games.hecatomb.engine.state import Choice, ExampleError, Illegal, State, reject_unknown
from charnel.games.hecatomb.engine.verbs import VERBS

ACTIONS = {
    "ready": (turn.ready, set()),
    "end_turn": (turn.end_turn, set()),
    "add_mana": (play.add_mana, {"card"}),
    "play": (play.play, {"card", "on", "as", "x", "targets", "pay"}),
    "attack": (combat.attack, {"attackers", "enemy"}),
    "block": (combat.block, None),  # blocker: attacker pairs
    "fight": (combat.fight, set()),
    "tap_ability": (play.tap_ability, {"abomination", "minion", "targets"}),
    **VERBS,
}
CHOICES = {"hunt", "rip", "soulbound", "summon", "discard", "order", "take"}


@dataclass
class RunResult:
    passed: bool
    message: str = ""
    diff: list[str] = field(default_factory=list)
    path: tuple = ()  # where in the example body the problem is
    broken: bool = False  # the example itself is wrong, not the rules
    key: bool = False  # point at the key at `path` rather than its value
    before: dict[str, Any] | None = None
    after: dict[str, Any] | None = None


def run(body: dict, book: Any, pool: dict[str, Any], *, states: bool = False) -> RunResult:
    at: list[tuple] = [()]  # the part being read, for values of a shape nothing checked
    try:
        return _run(body, book, pool, states, at)
    except (ExampleError, language.LanguageError) as exc:
        return RunResult(False, exc.message, path=exc.path, broken=True, key=exc.key)
    except (TypeError, ValueError, AttributeError, KeyError, IndexError) as exc:
        return RunResult(
            False, f"cannot read this part of the example ({exc})", path=at[0], broken=True
        )


def _run(body: dict, book: Any, pool: dict[str, Any], states: bool, at: list) -> RunResult:
    at[0] = ("given",)
    language.check_fields(body)
    steps = language.steps(body)
    state = setup.build(body.get("given") or {}, book, pool)
    for scripted in language.choices(body):
        if scripted.kind not in CHOICES:
            raise ExampleError(
                scripted.path,
                f"unknown choice '{scripted.kind}' (known: {', '.join(sorted(CHOICES))})",
            )
        state.choices.append(Choice(scripted.kind, scripted.value, scripted.path))
    before = snapshot(state) if states else None
    for n, step in enumerate(steps, start=1):
        at[0] = step.path
        entry = ACTIONS.get(step.action)
        if entry is None:
            raise ExampleError(
                step.path, f"unknown action '{step.action}' (known: {', '.join(sorted(ACTIONS))})"
            )
        apply, fields = entry
        if fields is not None:
            reject_unknown(
                step.args, fields | {"player"}, step.path, "field", f" for {step.action}"
            )
        actor = step.args.get("player", state.turn) if fields is not None else state.turn
        if actor not in state.players:
            raise ExampleError((*step.path, "player"), f"no player '{actor}'")
        label = f"step {n} ({step.action})"
        if step.illegal:
            saved = copy.deepcopy(state, {id(book): book})
            try:
                apply(state, Args(state, step.args, step.path, actor))
            except Illegal as exc:
                if step.reason is not None and exc.reason != step.reason:
                    return RunResult(
                        False,
                        f"{label} was refused for '{exc.reason}', not '{step.reason}': "
                        f"{exc.message}",
                        path=step.path,
                    )
                state = saved
                continue
            return RunResult(
                False,
                f"{label} should be illegal ({step.reason or 'any reason'}) but the "
                "engine allowed it",
                path=step.path,
            )
        try:
            apply(state, Args(state, step.args, step.path, actor))
        except Illegal as exc:
            return RunResult(
                False, f"{label} was refused: {exc.message} [{exc.reason}]", path=step.path
            )
    if state.combat is not None:
        combat.fight(state)
    for choice in state.choices:
        if not choice.used:
            return RunResult(
                False, f"the scripted choice '{choice.kind}' was never used", path=choice.path
            )
    at[0] = ("then",)
    mismatches = facts.compare(state, body.get("then") or {})
    after = snapshot(state) if states else None
    if mismatches:
        noun = "fact differs" if len(mismatches) == 1 else "facts differ"
        return RunResult(
            False,
            f"{len(mismatches)} {noun} from what the engine computed",
            diff=language.diff_lines(mismatches),
            path=("then",),
            before=before,
            after=after,
        )
    return RunResult(True, before=before, after=after)


def states_of(body: dict, book: Any, pool: dict[str, Any]) -> tuple[dict, dict] | None:
    result = run(body, book, pool, states=True)
    if result.before is None or result.after is None:
        return None
    return result.before, result.after


__all__ = ["run", "states_of", "RunResult", "State"]
