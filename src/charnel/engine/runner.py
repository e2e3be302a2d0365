"""Running one example: build the state from `given`, run each step of `when` (illegal steps
must be refused for the stated reason), settle, check that every scripted choice and die was
used, and compare `then`."""

from __future__ import annotations

from typing import Any

from charnel import example_language as language
from charnel.engine import decklist
from charnel.engine.errors import ExampleError, Illegal, reject_unknown
from charnel.engine.protocol import Engine
from charnel.engine.result import RunResult
from charnel.engine.script import Script

# A step of `when` that states facts where it stands, before anything later in the example
# runs or the engine settles what the last step left open (say, a fight between its blocks
# and its damage): `- then: {facts}`.
MIDWAY = "then"


def broken(exc: ExampleError | language.LanguageError) -> RunResult:
    return RunResult(False, exc.message, path=exc.path, broken=True, key=exc.key)


def run(body: dict, engine: Engine, *, states: bool = False) -> RunResult:
    at: list[tuple] = [()]  # the part being read, for values of a shape nothing checked
    try:
        return _run(body, engine, states, at)
    except (ExampleError, language.LanguageError) as exc:
        return broken(exc)
    except (TypeError, ValueError, AttributeError, KeyError, IndexError) as exc:
        return RunResult(
            False, f"cannot read this part of the example ({exc})", path=at[0], broken=True
        )


def _run(body: dict, engine: Engine, states: bool, at: list) -> RunResult:
    at[0] = ("given",)
    language.check_fields(body)
    if decklist.FIELD in body:
        return decklist.run(body, engine.records)
    steps = language.steps(body)
    script = Script()
    state = engine.setup(body.get("given") or {}, script)
    script.load(body, engine.choice_kinds)
    before = engine.snapshot(state) if states else None
    for n, step in enumerate(steps, start=1):
        at[0] = script.at = step.path
        if step.action == MIDWAY:
            if step.illegal:
                message = f"a '{MIDWAY}' step states facts; it cannot be illegal"
                raise ExampleError(step.path, message)
            failed = _compare(engine, state, step.args, step.path, f"after step {n - 1}", states,
                              before)
            if failed is not None:
                return failed
            continue
        action = engine.actions.get(step.action)
        if action is None:
            known = ", ".join(sorted(engine.actions))
            raise ExampleError(step.path, f"unknown action '{step.action}' (known: {known})")
        if action.fields is not None:
            reject_unknown(step.args, action.fields, step.path, "field", f" for {step.action}")
        label = f"step {n} ({step.action})"
        if step.illegal:
            saved, mark = engine.copy(state, {id(script): script}), script.mark()
            try:
                engine.perform(state, action, step)
            except Illegal as exc:
                if step.reason is not None and exc.reason != step.reason:
                    return RunResult(
                        False,
                        f"{label} was refused for '{exc.reason}', not '{step.reason}': "
                        f"{exc.message}",
                        path=step.path,
                    )
                state = saved
                script.rewind(mark)
                continue
            return RunResult(
                False,
                f"{label} should be illegal ({step.reason or 'any reason'}) but the "
                "engine allowed it",
                path=step.path,
            )
        try:
            engine.perform(state, action, step)
        except Illegal as exc:
            return RunResult(
                False,
                f"{label} was refused: {exc.message} [{exc.reason}]",
                path=step.path,
                before=before,
                after=engine.snapshot(state) if states else None,
            )
    script.at = ("then",)
    engine.settle(state)
    left = script.unused()
    if left is not None:
        return RunResult(False, left[0], path=left[1])
    at[0] = ("then",)
    failed = _compare(engine, state, body.get("then") or {}, ("then",), "", states, before)
    if failed is not None:
        return failed
    return RunResult(True, before=before, after=engine.snapshot(state) if states else None)


def _compare(engine: Engine, state: Any, facts: dict, path: tuple, when: str, states: bool,
             before: dict | None) -> RunResult | None:
    """A failed result when the state does not hold `facts`; None when it does."""
    try:
        mismatches = engine.compare(state, facts)
    except (ExampleError, language.LanguageError) as exc:
        # a game's compare places its errors under ("then", ...): move them to these facts
        if path != ("then",) and exc.path[:1] == ("then",):
            exc.path = (*path, *exc.path[1:])
        raise
    if not mismatches:
        return None
    noun = "fact differs" if len(mismatches) == 1 else "facts differ"
    return RunResult(
        False,
        f"{len(mismatches)} {noun} from what the engine computed{' ' + when if when else ''}",
        diff=language.diff_lines(mismatches),
        path=path,
        before=before,
        after=engine.snapshot(state) if states else None,
    )


def states_of(body: dict, engine: Engine) -> tuple[dict, dict] | None:
    result = run(body, engine, states=True)
    if result.before is None or result.after is None:
        return None
    return result.before, result.after
