"""An example as a reader sees it, on the site and in print: its title and result, the
actions in order, the dice it rolls, and the game's drawings of the states before and after;
a game that draws no states gets the example's own `given` and `then` facts instead."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from charnel.engine import outcomes

if TYPE_CHECKING:
    from charnel.game import Game
    from charnel.records import Example, GameRecords, Outcome

_PROLOGUE = re.compile(r"^\s*(<\?xml[^>]*\?>\s*)?(<!DOCTYPE[^>]*>\s*)?", re.IGNORECASE)


@dataclass
class ExampleView:
    id: str
    title: str
    status: str  # "pass", "fail" or "not run"
    message: str
    actions: list[str] = field(default_factory=list)
    dice: list[str] = field(default_factory=list)
    decklist: list[str] = field(default_factory=list)  # a deck list's lines, as written
    before_svg: str = ""
    after_svg: str = ""
    given: list[tuple[str, str]] = field(default_factory=list)  # when there are no drawings
    then: list[tuple[str, str]] = field(default_factory=list)
    cites: list[str] = field(default_factory=list)
    source: str = ""  # the example as written, for the judge page; "" for a game without one

    @property
    def rows(self) -> list[tuple[str, str, str]]:
        """(fact, before, after) for a game that draws no states: `given` beside `then`."""
        if self.before_svg:
            return []
        given, then = dict(self.given), dict(self.then)
        keys = list(given) + [k for k in then if k not in given]
        return [(k, given.get(k, "—"), then.get(k, "")) for k in keys]


def view(
    example: Example, game: Game, records: GameRecords, outcome: Outcome | None = None
) -> ExampleView:
    body = example.body
    dice = body.get("dice")
    out = ExampleView(
        example.id,
        example.title,
        "not run" if outcome is None else ("pass" if outcome.passed else "fail"),
        outcome.message if outcome else "",
        actions=[action_text(step) for step in as_list(body.get("when"))],
        dice=[_value(d) for d in dice] if isinstance(dice, list) else [],
        decklist=_decklist(body.get("decklist")),
        then=facts(body.get("then")),
        cites=[str(c) for c in body.get("cites") or []],
        source=example.source if game.has_engine and example.source else "",
    )
    states = outcomes.example_states(game, example, records)
    if states is not None:
        before, after = (inline_svg(game.draw_state(s)) for s in states)
        if before and after:
            out.before_svg, out.after_svg = before, after
    if not out.before_svg:
        out.given = facts(body.get("given"))
    return out


def _decklist(text: Any) -> list[str]:
    return [line for line in text.splitlines() if line.strip()] if isinstance(text, str) else []


def inline_svg(svg: str) -> str:
    """An SVG document made fit to sit inside HTML (no XML prologue or doctype)."""
    return _PROLOGUE.sub("", svg or "").strip()


def action_text(step: Any) -> str:
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


def facts(tree: Any, prefix: str = "") -> list[tuple[str, str]]:
    """Nested facts flattened to (path, value) rows, three keys deep: `a.b.c = [2]`."""
    if not isinstance(tree, dict) or not tree:
        return [(prefix, _value(tree))] if prefix else []
    rows: list[tuple[str, str]] = []
    for key, value in tree.items():
        path = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, dict) and value and len(path.split(".")) < 3:
            rows += facts(value, path)
        else:
            rows.append((path, _value(value)))
    return rows


def as_list(value: Any) -> list:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]
