"""docs/security.md names the test that holds each promise: every test it names exists."""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DOC = REPO / "docs" / "security.md"
NAMED = re.compile(r"`(tests/[\w/.-]+\.(?:py|txt))(?:::(\w+))?`")


def promises() -> list[str]:
    text = DOC.read_text("utf-8")
    table = text.split("## How each promise is tested", 1)[1]
    return [line for line in table.splitlines() if line.startswith("| ") and "---" not in line][1:]


def test_every_promise_names_a_test_that_exists():
    rows = promises()
    assert len(rows) >= 10
    for row in rows:
        named = NAMED.findall(row)
        assert named, f"no test named: {row}"
        for path, function in named:
            assert (REPO / path).is_file(), f"{path} does not exist ({row})"
            if function:
                tree = ast.parse((REPO / path).read_text("utf-8"))
                defined = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
                assert function in defined, f"{path} has no {function} ({row})"
