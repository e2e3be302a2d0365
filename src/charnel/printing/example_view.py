"""An example as print shows it: the game's drawings of the states when it has them, else a
compact before/after table of the example's stated facts."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from charnel.games.base import Game
from charnel.records import Example, GameRecords

_PROLOGUE = re.compile(r"^\s*(<\?xml[^>]*\?>\s*)?(<!DOCTYPE[^>]*>\s*)?", re.IGNORECASE)


@dataclass
class ExampleView:
    title: str
    actions: list[str] = field(default_factory=list)
    before_svg: str = ""
    after_svg: str = ""
    rows: list[tuple[str, str, str]] = field(default_factory=list)  # fact, before, after


def view(example: Example, game: Game, records: GameRecords) -> ExampleView:
    body = example.body
    shown = ExampleView(example.title, actions=[_line(a) for a in _as_list(body.get("when"))])
    states = game.example_states(example, records)
    if states is not None:
        before, after = (_inline_svg(game.draw_state(s)) for s in states)
        if before and after:
            shown.before_svg, shown.after_svg = before, after
            return shown
    given, then = dict(_facts(body.get("given"))), dict(_facts(body.get("then")))
    keys = list(given) + [k for k in then if k not in given]
    shown.rows = [(k, given.get(k, "—"), then.get(k, "")) for k in keys]
    return shown


def _inline_svg(svg: str) -> str:
    """An SVG document made fit to sit inside HTML (no XML prologue or doctype)."""
    return _PROLOGUE.sub("", svg or "").strip()


def _facts(value: Any, prefix: str = ""):
    """Nested data as (dotted path, short text) pairs, in the order written."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _facts(inner, f"{prefix}.{key}" if prefix else str(key))
    elif isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
        for i, inner in enumerate(value, start=1):
            yield from _facts(inner, f"{prefix}[{i}]")
    elif prefix:
        yield prefix, _text(value)


def _line(action: Any) -> str:
    if isinstance(action, dict):
        return "; ".join(
            str(k) if v in (None, True) else f"{k} {_text(v)}" for k, v in action.items()
        )
    return _text(action)


def _text(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(_text(v) for v in value) or "none"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_text(v)}" for k, v in value.items())
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _as_list(value: Any) -> list:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]
