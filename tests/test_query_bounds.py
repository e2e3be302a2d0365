"""The search language is bounded: hostile queries are answered at once with a located error,
from the library and from `charnel search`, never with a traceback."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from projects import DUEL, copy_project, only_game
from typer.testing import CliRunner

from charnel import pipeline, registry
from charnel.cli import app
from charnel.query import MAX_DEPTH, MAX_DIGITS, MAX_LENGTH, MAX_TERMS, QueryError, parse

GAME = only_game(DUEL)
HOSTILE = {
    "1,000 nested parentheses": "(" * 1000 + "a" + ")" * 1000,
    "nested one past the limit": "(" * (MAX_DEPTH + 1) + "a" + ")" * (MAX_DEPTH + 1),
    "negations": "-" * (MAX_DEPTH + 1) + "a",
    "too long": "a" * (MAX_LENGTH + 1),
    "too many terms": " ".join(["a"] * (MAX_TERMS + 1)),
    "a huge number": "m>" + "9" * 25,
    "a number of 5,000 digits": "m:" + "9" * 400,
    "rich markup": "[bold red]x[/] [/]",
    "unclosed": "((a",
}


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("query")
    copy_project(root, DUEL)
    pipeline.build(root, GAME, root / "build")
    return root


@pytest.mark.parametrize("query", list(HOSTILE.values()), ids=list(HOSTILE))
def test_charnel_search_answers_hostile_queries_without_a_traceback(built: Path, query: str):
    start = time.monotonic()
    result = CliRunner().invoke(
        app, ["search", "--root", str(built), "--out", str(built / "build"), "--", query]
    )
    assert time.monotonic() - start < 5
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    "query, message",
    [
        (HOSTILE["1,000 nested parentheses"], "characters long"),
        (HOSTILE["nested one past the limit"], f"more than {MAX_DEPTH} nested"),
        (HOSTILE["negations"], f"more than {MAX_DEPTH} nested"),
        (HOSTILE["too many terms"], f"more than {MAX_TERMS} search terms"),
    ],
)
def test_bounds_are_errors_that_point_at_the_place(query: str, message: str):
    with pytest.raises(QueryError) as caught:
        parse(query)
    assert message in caught.value.message
    assert 1 <= caught.value.col <= len(query) + 1


def test_numbers_are_bounded_in_digits(built: Path):
    from charnel.query import compile_query

    fields = registry.get(GAME).search_fields()
    compile_query("m>" + "9" * MAX_DIGITS, fields)  # the toy game's might
    with pytest.raises(QueryError) as caught:
        compile_query("m>" + "9" * (MAX_DIGITS + 1), fields)
    assert caught.value.col == len("m>") + 1


def test_a_query_at_the_bounds_parses():
    parse("(" * MAX_DEPTH + "a" + ")" * MAX_DEPTH)
    parse(" ".join(["a"] * MAX_TERMS))
