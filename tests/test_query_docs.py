"""Every example query in docs/search.md (the language's part of each game's page on it) runs
against the test suite's example game, whose fields the page's examples are written in: each
example finds cards, and each mistake shown gives the message shown."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from projects import DUEL, only_game

from charnel import compile, pipeline, registry
from charnel.diagnostics import Problems
from charnel.query import QueryError, field_table, search

REPO = Path(__file__).resolve().parent.parent
DOC = REPO / "docs" / "search.md"
GAME = only_game(DUEL)
FIELDS = registry.get(GAME).search_fields()


def _documented() -> list[str]:
    """The backticked queries of each table's example column, and the query in the first code
    block."""
    found: list[str] = []
    header: list[str] = []
    text = DOC.read_text("utf-8")
    for line in text.splitlines():
        if not line.startswith("|"):
            header = []
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not header:
            header = cells
            continue
        if set(line) <= set("|-: "):
            continue
        for name, cell in zip(header, cells, strict=False):
            if name.startswith("example"):
                found += re.findall(r"`([^`]+)`", cell)
    found.append(re.search(r"```\n(.+)\n```", text).group(1))
    return found


def _examples() -> list[str]:
    """The page's queries, and the game's own: its search help's and each field's example."""
    own = [*registry.get(GAME).search_examples,
           *(row["example"] for row in field_table(FIELDS) if row["example"])]
    return list(dict.fromkeys(_documented() + own))


def _mistakes() -> list[tuple[str, str]]:
    """(query, the error message shown) of each `$ charnel search` that the doc shows failing."""
    text = DOC.read_text("utf-8")
    return re.findall(r"\$ charnel search '([^']+)'\nerror: (.+?) \(column \d+\)", text)


@pytest.fixture(scope="module")
def database(tmp_path_factory) -> Path:
    problems = Problems()
    prepared = pipeline.prepare(DUEL, GAME, problems)
    assert prepared is not None and not problems, problems.summary()
    return compile.write(prepared.verified, prepared.outcomes,
                         tmp_path_factory.mktemp("docs") / f"{GAME}.db")


def test_the_doc_has_examples():
    assert len(_documented()) >= 14 and len(_mistakes()) >= 2


@pytest.mark.parametrize("query", _examples())
def test_each_documented_example_finds_cards(database: Path, query: str):
    # each example shows a query that means something on the example game's pool
    assert search(database, query, FIELDS)[2], f"{query} finds no card"


@pytest.mark.parametrize(("query", "message"), _mistakes())
def test_each_documented_mistake_says_what_the_doc_says(database: Path, query, message):
    with pytest.raises(QueryError) as caught:
        search(database, query, FIELDS)
    assert caught.value.message == message


def test_the_doc_names_no_field_the_example_game_lacks():
    """A `field:` written in the page's prose is one of the example game's, or the language's
    own placeholder `field`."""
    text = DOC.read_text("utf-8")
    named = set(re.findall(r"`-?([a-z]+)(?::|[<>!]?=|[<>])", text))
    unknown = named - set(FIELDS) - {"field"}
    assert not unknown, unknown
