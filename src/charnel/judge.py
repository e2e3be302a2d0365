"""The judge: one example a reader writes, run by the same runner as `charnel examples`, and
answered with what the site shows for an example (the drawings before and after), the facts
the engine computed, each refusal with the clauses whose examples show that refusal, and
whether the `then` facts hold.

This module runs in the judge's worker process (`charnel.serve.judge`), over records loaded
once; it reads no file and opens no connection while answering.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from charnel import example_language, example_view
from charnel.diagnostics import Problem, Problems, printable
from charnel.engine import outcomes, runner
from charnel.engine.errors import ExampleError, Illegal
from charnel.site.urls import GameUrls
from charnel.sources import yamltext

if TYPE_CHECKING:
    from charnel.game import Game
    from charnel.records import GameRecords

MAX_BYTES = 32 * 1024  # an example as written: the longest in the rules is under 3 KB
TOO_LARGE = f"the example is over {MAX_BYTES // 1024} KB"
SHOWN = "example"
FACT_CHARACTERS = 400  # the name a located message gives the reader's text


class Watched:
    """A game's engine, noting every action the rules refuse before the runner sees it."""

    def __init__(self, engine: Any):
        self._engine = engine
        self.refusals: list[tuple[Any, Illegal]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._engine, name)

    def perform(self, state: Any, action: Any, step: Any) -> None:
        try:
            self._engine.perform(state, action, step)
        except Illegal as exc:
            self.refusals.append((step, exc))
            raise


def refusing_clauses(records: GameRecords) -> dict[str, list[str]]:
    """{refusal reason: the clauses whose examples expect a step refused for it}, in the
    rules' order: the rules' own examples say which clause refuses what."""
    order = {c.number: c.order for c in records.clauses}
    found: dict[str, set[str]] = {}
    for example in records.examples:
        if example.owner_kind != "rule" or example.owner not in order:
            continue
        for step in example.body.get("when") or []:
            if isinstance(step, dict) and step.get("expect") == "illegal" and step.get("reason"):
                found.setdefault(str(step["reason"]), set()).add(example.owner)
    return {k: sorted(v, key=order.__getitem__) for k, v in sorted(found.items())}


def answer(game: Game, records: GameRecords, raw: bytes, clauses: dict[str, list[str]]) -> tuple[
    int, dict[str, Any]
]:
    """(HTTP status, JSON data) for the example written in `raw` (UTF-8 YAML): 200 with the
    engine's answer, 400 with the example language's located messages, or 413 for an example
    over `MAX_BYTES`, as the server answers one it stops reading."""
    if len(raw) > MAX_BYTES:
        return 413, _error(f"{SHOWN}: {TOO_LARGE}")
    problems = Problems()
    text = yamltext.read_text(SHOWN, raw, problems)
    found = [] if text is None else example_language.read_block(text, SHOWN, problems)
    if problems or not found:
        shown = [_located(p, text or "") for p in problems.sorted()]
        return 400, _error(*(shown or [f"{SHOWN}: no example"]))
    example = found[0]
    kept = outcomes.checks(game, records)
    if kept is None:
        return 400, _error(f"game '{game.id}' has no rules engine")
    watched = Watched(kept.engine)
    try:
        body = watched.body(example)
    except (ExampleError, example_language.LanguageError) as exc:
        result = runner.broken(exc)
    else:
        result = runner.run(body, watched, states=True)
    made = outcomes.outcome(example, result)
    if result.broken:
        return 400, _error(_located(Problem(made.origin, made.message), text))
    urls, when = GameUrls(game.id), example.body.get("when")
    titles = {c.number: c.title for c in records.clauses}
    before = after = ""
    if result.before is not None and result.after is not None:
        before = example_view.inline_svg(game.draw_state(result.before))
        after = example_view.inline_svg(game.draw_state(result.after))
    return 200, {
        "id": example.id,
        "title": example.title,
        "passed": result.passed,
        "message": result.message,
        "where": "" if made.origin is None else str(made.origin),
        "diff": list(result.diff),
        "actions": [example_view.action_text(s) for s in example_view.as_list(when)],
        "before_svg": before,
        "after_svg": after,
        "facts": [[k, _short(v)] for k, v in example_view.facts(result.after or {})],
        "refusals": [
            {
                "step": step.path[1] + 1,
                "action": step.action,
                "expected": step.illegal,
                "reason": exc.reason,
                "message": exc.message,
                "clauses": [
                    {"number": n, "title": titles[n], "url": urls.clause_permalink(n)}
                    for n in clauses.get(exc.reason, [])
                ],
            }
            for step, exc in watched.refusals
        ],
    }


def _short(value: str) -> str:
    """A fact's value cut to `FACT_CHARACTERS`: a pool of millions of mana is told, not listed."""
    if len(value) <= FACT_CHARACTERS:
        return value
    return value[:FACT_CHARACTERS] + f"… ({len(value):,} characters)"


def _located(problem: Problem, text: str) -> str:
    """`example:line:col: message`, with the line and a caret under the column."""
    head = f"{problem.origin}: {problem.message}"
    lines = text.splitlines()
    if not 1 <= problem.origin.line <= len(lines):
        return head
    gutter = f"{problem.origin.line:>4} | "
    caret = " " * (len(gutter) + problem.origin.col - 1) + "^"
    return "\n".join([head, gutter + lines[problem.origin.line - 1], caret])


def _error(*lines: str) -> dict[str, Any]:
    return {"error": printable("\n".join(lines))}
