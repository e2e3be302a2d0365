"""The example language, the part every game shares: the fields of an example, the shape of
its steps and choices, variables for card verification, reading example blocks from any
Markdown or YAML file, and the expected-vs-actual diff. What the actions and facts mean is
the game engine's business.
"""

from __future__ import annotations

import ast
import operator
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt

from charnel.diagnostics import Origin, Problems
from charnel.records import VARIABLE as _VAR
from charnel.records import Example, variables_used
from charnel.sources import yamltext

FIELDS = {
    "id", "title", "cites", "ability", "given", "when", "choices", "dice", "then", "decklist"
}
# Field names the language once had, and the name that took each one's place: an ability the
# example tests is named neutrally, whether the game calls it a keyword or not.
RENAMED = {"keyword": "ability"}
STEP_FLAGS = {"expect", "reason"}
ID = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


class LanguageError(Exception):
    """An example that doesn't follow the language; `path` points into its body."""

    def __init__(self, path: tuple, message: str, *, key: bool = False):
        super().__init__(message)
        self.path = path
        self.message = message
        self.key = key or message.startswith("unknown ")  # a wrong name: point at it


@dataclass
class Step:
    action: str
    args: dict[str, Any]
    path: tuple
    illegal: bool = False
    reason: str | None = None


@dataclass
class Scripted:
    kind: str
    value: Any
    path: tuple


def bare_on(value: Any) -> Any:
    """YAML 1.1 reads an unquoted `on` key as true; give such keys back their name."""
    if isinstance(value, dict):
        return {("on" if k is True else k): bare_on(v) for k, v in value.items()}
    if isinstance(value, list):
        return [bare_on(v) for v in value]
    return value


def in_current_language(examples: list[Example]) -> None:
    """Examples of a frozen release, written when a field had its older name, read with the
    current names (the release's files stay as they were released)."""
    for example in examples:
        if RENAMED.keys() & example.body.keys():
            example.body = {RENAMED.get(k, k): v for k, v in example.body.items()}


def check_fields(body: dict) -> None:
    for key in body:
        if key in RENAMED:
            raise LanguageError(
                (key,), f"unknown example field '{key}': did you mean '{RENAMED[key]}'? "
                f"(an example names the ability it tests with '{RENAMED[key]}:')"
            )
        if key not in FIELDS:
            raise LanguageError(
                (key,), f"unknown example field '{key}' (known: {', '.join(sorted(FIELDS))})"
            )
    for key in ("given", "then"):
        if body.get(key) is not None and not isinstance(body[key], dict):
            raise LanguageError((key,), f"'{key}' is a mapping")


def steps(body: dict) -> list[Step]:
    """`when` as steps: `- ready`, or `- attack: {...}` with optional `expect`/`reason`."""
    raw = body.get("when") or []
    if not isinstance(raw, list):
        raise LanguageError(("when",), "'when' is a list of actions")
    out = []
    for i, item in enumerate(raw):
        path = ("when", i)
        if isinstance(item, str):
            out.append(Step(item, {}, path))
            continue
        if not isinstance(item, dict):
            raise LanguageError(path, "a step is an action name or 'action: {arguments}'")
        actions = [k for k in item if k not in STEP_FLAGS]
        if len(actions) != 1:
            raise LanguageError(path, f"a step holds exactly one action (found {len(actions)})")
        action = str(actions[0])
        args = bare_on(item[action])
        if args is None:
            args = {}
        if not isinstance(args, dict):
            raise LanguageError((*path, action), f"the arguments of '{action}' are a mapping")
        expect = item.get("expect")
        if expect not in (None, "illegal"):
            raise LanguageError((*path, "expect"), "expect is 'illegal' (legal steps need no mark)")
        reason = item.get("reason")
        if reason is not None and expect is None:
            raise LanguageError((*path, "reason"), "'reason' goes with 'expect: illegal'")
        out.append(
            Step(
                action,
                args,
                (*path, action),
                expect == "illegal",
                str(reason) if reason is not None else None,
            )
        )
    return out


def choices(body: dict) -> list[Scripted]:
    raw = body.get("choices") or []
    if not isinstance(raw, list):
        raise LanguageError(("choices",), "'choices' is a list such as [- rip: {...}]")
    out = []
    for i, item in enumerate(raw):
        if not isinstance(item, dict) or len(item) != 1:
            raise LanguageError(("choices", i), "a choice is one 'kind: value' pair")
        kind, value = next(iter(item.items()))
        out.append(Scripted(str(kind), value, ("choices", i, kind)))
    return out


def dice(body: dict) -> list[tuple[int, tuple]]:
    """`dice: [5, 8, 9, 4]`: (value, path) of each scripted die, in the order they are rolled."""
    raw = body.get("dice")
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise LanguageError(("dice",), "'dice' is a list of die results such as [5, 8, 9, 4]")
    out = []
    for i, value in enumerate(raw):
        if isinstance(value, bool) or not isinstance(value, int):
            raise LanguageError(("dice", i), f"a die is a whole number, not {flow(value)}")
        out.append((value, ("dice", i)))
    return out


# --- variables (card verification) -----------------------------------------------------

_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul}


def substitute(value: Any, variables: dict[str, Any], path: tuple = ()) -> Any:
    """Replace `$name` by its value and compute `"$n + 3"`, everywhere in an example body."""
    if isinstance(value, dict):
        return {k: substitute(v, variables, (*path, k)) for k, v in value.items()}
    if isinstance(value, list):
        return [substitute(v, variables, (*path, i)) for i, v in enumerate(value)]
    if not isinstance(value, str) or "$" not in value:
        return value
    for name in _VAR.findall(value):
        if name not in variables:
            known = ", ".join(f"${k}" for k in sorted(variables)) or "none here"
            raise LanguageError(path, f"unknown variable ${name} (known: {known})")
    whole = _VAR.fullmatch(value.strip())
    if whole:
        return variables[whole[1]]
    text = _VAR.sub(lambda m: repr(variables[m[1]]), value)
    try:
        return _compute(ast.parse(text, mode="eval").body)
    except (SyntaxError, ValueError, TypeError):
        raise LanguageError(
            path, f"cannot compute '{value}' (use numbers, variables, + - *)"
        ) from None


def _compute(node: ast.AST) -> int:
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        return _OPS[type(node.op)](_compute(node.left), _compute(node.right))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_compute(node.operand)
    raise ValueError("not arithmetic")


def uses_variables(value: Any) -> bool:
    return bool(variables_used(value))


# --- diffs -------------------------------------------------------------------------------


def flow(value: Any) -> str:
    """A value written the way examples write it (YAML flow style)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def diff_lines(mismatches: list[tuple[str, Any, Any]]) -> list[str]:
    """(fact path, expected, actual) -> '- path: expected' / '+ path: actual' lines."""
    out = []
    for where, expected, actual in mismatches:
        out.append(f"- {where}: {flow(expected)}")
        out.append(f"+ {where}: {flow(actual)}")
    return out


# --- example blocks in any file ------------------------------------------------------------

_md = MarkdownIt("commonmark")


def read_file(path: Path, shown: str, problems: Problems) -> list[Example]:
    """Example blocks of a user's file: ```example fences in Markdown; in YAML one example,
    a list of them, or a mapping with `examples:` (as in card files)."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        problems.add(Origin(shown), f"cannot read file: {exc.strerror}")
        return []
    text = yamltext.read_text(shown, raw, problems)
    if text is None:
        return []
    origin = Origin(shown)
    found: list[Example] = []
    if path.suffix.lower() in (".md", ".markdown"):
        for tok in _md.parse(text):
            if tok.type == "fence" and tok.info.strip() == "example" and tok.map:
                found += read_block(tok.content, shown, problems, line_offset=tok.map[0] + 1)
        return found
    doc = yamltext.parse(text, origin, problems)
    if doc is None:
        return []
    if isinstance(doc.value, dict) and "examples" in doc.value:
        doc = doc.sub(("examples",))
    if isinstance(doc.value, list):
        for i in range(len(doc.value)):
            _add(doc.sub((i,)), shown, "", found, problems)
    else:
        _add(doc, shown, text, found, problems)
    return found


def read_block(text: str, shown: str, problems: Problems, *, line_offset: int = 0) -> list[Example]:
    """The example of one ```example block's text (none when it has a problem)."""
    doc = yamltext.parse(text, Origin(shown), problems, line_offset=line_offset)
    found: list[Example] = []
    if doc is not None:
        _add(doc, shown, text, found, problems)
    return found


def _add(
    doc: yamltext.Located, owner: str, source: str, found: list[Example], problems: Problems
) -> None:
    body = doc.value
    if not isinstance(body, dict):
        problems.add(doc.origin, "an example is a mapping with at least 'id' and 'title'")
        return
    for key in ("id", "title"):
        if not isinstance(body.get(key), str) or not body[key]:
            problems.add(doc.origin, f"example is missing its '{key}' (text)")
            return
    if not ID.fullmatch(body["id"]):
        problems.add(doc.at(("id",)), "example id must be lower-case words joined by '-'")
        return
    cites = body.get("cites") or []
    found.append(
        Example(
            body["id"],
            body["title"],
            "file",
            owner,
            body,
            source,
            doc,
            [str(c) for c in cites] if isinstance(cites, list) else [],
        )
    )
