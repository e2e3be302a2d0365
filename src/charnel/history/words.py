"""Word-level differences between two texts, as a judge reads a rules change."""

from __future__ import annotations

import difflib
import re

TOKEN = re.compile(r"\s+|[^\s]+")


def diff(old: str, new: str) -> list[tuple[str, str]]:
    """Runs of ('=', text), ('-', removed text) and ('+', added text) that turn `old` into
    `new`, whole words at a time; spaces stay with the words around them."""
    a, b = TOKEN.findall(old), TOKEN.findall(new)
    out: list[tuple[str, str]] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            _add(out, "=", "".join(a[i1:i2]))
            continue
        if op in ("delete", "replace"):
            _add(out, "-", "".join(a[i1:i2]))
        if op in ("insert", "replace"):
            _add(out, "+", "".join(b[j1:j2]))
    return out


def _add(out: list[tuple[str, str]], op: str, text: str) -> None:
    if not text:
        return
    if out and out[-1][0] == op:
        out[-1] = (op, out[-1][1] + text)
    else:
        out.append((op, text))


def inline(runs: list[tuple[str, str]]) -> str:
    """The diff in one line of text: removed words in [-...-], added in {+...+}."""
    marks = {"=": "{}", "-": "[-{}-]", "+": "{{+{}+}}"}
    return "".join(marks[op].format(text) for op, text in runs)
