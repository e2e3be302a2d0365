"""An example as the site shows it: before/after pictures, the actions, the facts checked.

The pictures come from the game (`example_states` then `draw_state`); a game that draws no
states gets the example's own `given` and `then` facts as tables instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from charnel.records import Example
from charnel.site.model import SiteModel


@dataclass
class ExampleView:
    id: str
    title: str
    status: str  # "pass", "fail" or "not run"
    message: str
    before_svg: str = ""
    after_svg: str = ""
    actions: list[str] = field(default_factory=list)
    given: list[tuple[str, str]] = field(default_factory=list)
    then: list[tuple[str, str]] = field(default_factory=list)
    cites: list[str] = field(default_factory=list)


def view(model: SiteModel, example: Example) -> ExampleView:
    outcome = model.outcome_of_example.get(example.id)
    status = "not run" if outcome is None else ("pass" if outcome.passed else "fail")
    body = example.body
    out = ExampleView(
        example.id, example.title, status, outcome.message if outcome else "",
        actions=[_action(step) for step in body.get("when") or []],
        then=_facts(body.get("then")),
        cites=[str(c) for c in body.get("cites") or []],
    )
    states = model.game.example_states(example, model.records)
    if states is not None:
        before, after = states
        out.before_svg = model.game.draw_state(before)
        out.after_svg = model.game.draw_state(after)
    if not out.before_svg:
        out.given = _facts(body.get("given"))
    return out


def _action(step: Any) -> str:
    if isinstance(step, dict):
        parts = []
        for name, args in step.items():
            parts.append(f"{name} {_value(args)}" if args not in (None, {}) else str(name))
        return "; ".join(parts)
    return str(step)


def _value(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_value(v)}" for k, v in value.items())
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _facts(tree: Any, prefix: str = "") -> list[tuple[str, str]]:
    """Nested facts flattened to (path, value) rows: abominations.A.minions = [2]."""
    if not isinstance(tree, dict) or not tree:
        return [(prefix, _value(tree))] if prefix else []
    rows: list[tuple[str, str]] = []
    for key, value in tree.items():
        path = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, dict) and value and len(path.split(".")) < 3:
            rows += _facts(value, path)
        else:
            rows.append((path, _value(value)))
    return rows
