"""Running one example: build the state from `given`, run each step of `when` (illegal steps
must be refused for the stated reason), settle, check that every scripted choice and die was
used, and compare `then`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from charnel import example_language as language
from charnel.engine.errors import ExampleError, Illegal, reject_unknown
from charnel.engine.protocol import Engine
from charnel.engine.script import Script


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
    steps = language.steps(body)
    script = Script()
    state = engine.setup(body.get("given") or {}, script)
    script.load(body, engine.choice_kinds)
    before = engine.snapshot(state) if states else None
    for n, step in enumerate(steps, start=1):
        at[0] = script.at = step.path
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
                False, f"{label} was refused: {exc.message} [{exc.reason}]", path=step.path
            )
    script.at = ("then",)
    engine.settle(state)
    left = script.unused()
    if left is not None:
        return RunResult(False, left[0], path=left[1])
    at[0] = ("then",)
    mismatches = engine.compare(state, body.get("then") or {})
    after = engine.snapshot(state) if states else None
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


def states_of(body: dict, engine: Engine) -> tuple[dict, dict] | None:
    result = run(body, engine, states=True)
    if result.before is None or result.after is None:
        return None
    return result.before, result.after
