"""The limits of docs/security.md on one YAML document, each a located problem."""

from __future__ import annotations

import pytest

from charnel.diagnostics import Origin, Problems
from charnel.sources import yamltext
from charnel.sources.yamltext import MAX_ALIASES, MAX_DEPTH, MAX_VALUES, parse


def problems_of(text: str) -> list[tuple[int, int, str]]:
    problems = Problems()
    parse(text, Origin("f.yaml"), problems)
    return [(p.origin.line, p.origin.col, p.message) for p in problems.items]


def test_depth_at_the_limit_parses_and_one_more_is_a_problem():
    assert problems_of("a: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1)) == []
    found = problems_of("a: " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    assert found == [(1, 1, f"YAML nests deeper than {MAX_DEPTH} lists and mappings")]


def test_block_nesting_is_measured_too():
    text = "a:\n" + "".join("  " * i + "- \n" for i in range(MAX_DEPTH + 2)) + "  " * 70 + "x\n"
    assert "nests deeper" in problems_of(text)[0][2]


def test_values_past_the_limit():
    assert problems_of("[" + ", ".join(["1"] * MAX_VALUES) + "]") == []
    found = problems_of("[" + ", ".join(["1"] * (MAX_VALUES + 1)) + "]")
    assert found == [(1, 1, f"YAML holds more than {MAX_VALUES:,} values (aliases expanded)")]


def test_aliases_past_the_limit():
    ok = "a: &a [x]\nb: [" + ", ".join(["*a"] * MAX_ALIASES) + "]\n"
    assert problems_of(ok) == []
    over = "a: &a [x]\nb: [" + ", ".join(["*a"] * (MAX_ALIASES + 1)) + "]\n"
    assert problems_of(over) == [(1, 4, f"YAML uses aliases more than {MAX_ALIASES} times")]


@pytest.mark.parametrize(
    "value, ok",
    [
        ("9223372036854775807", True),
        ("-9223372036854775808", True),
        ("9223372036854775808", False),
        ("-9223372036854775809", False),
        ("0x" + "f" * 40, False),
        (".inf", False),
        ("-.inf", False),
        (".nan", False),
        ("1.5", True),
    ],
)
def test_numbers_are_within_range(value: str, ok: bool):
    found = problems_of(f"n: {value}\n")
    assert (found == []) == ok
    if not ok:
        assert found[0][:2] == (1, 4) and "number out of range" in found[0][2]


@pytest.mark.parametrize("escape", ["\\e", "\\0", "\\x1b", "\\u009b", "\\a", "\\x7f"])
def test_control_characters_made_by_escapes_are_problems(escape: str):
    found = problems_of(f'text: "a{escape}b"\n')
    assert found and found[0][:2] == (1, 7) and "control character" in found[0][2]


def test_tabs_and_line_breaks_made_by_escapes_are_text():
    assert problems_of('text: "a\\tb\\nc"\n') == []


def test_oversize_text_is_refused_before_decoding():
    problems = Problems()
    assert yamltext.read_text("f.yaml", b"x" * (yamltext.MAX_BYTES + 1), problems) is None
    assert "authored files are limited to 2 MB" in problems.items[0].message
