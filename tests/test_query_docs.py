"""Every example query in docs/search.md (the page the site shows as its search language) runs
against the bundled card pool: each example compiles and runs, and each mistake shown gives
the message shown."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from charnel import compile, pipeline, registry
from charnel.diagnostics import Problems
from charnel.query import QueryError, search

REPO = Path(__file__).resolve().parent.parent
DOC = REPO / "docs" / "search.md"
GAME = "hecatomb"  # the game of the page's examples, but where a paragraph names another
FIELDS = registry.get(GAME).search_fields()
TITLES = {"Cave Evil": "cave-evil", "Hecatomb": "hecatomb"}


def _examples() -> list[str]:
    """The backticked queries of each table's example column, the query in the first code
    block, and the game's own: the queries of its search help and each field's example."""
    from charnel.query import field_table

    game = registry.get(GAME)
    own = [*game.search_examples, *(row["example"] for row in field_table(FIELDS))]
    return list(dict.fromkeys([q for g, q in _game_examples() if g == GAME] + own))


def _game_examples() -> list[tuple[str, str]]:
    """(game, query) for each example: a table's game is the one named by the paragraph that
    opens it ("Cave Evil adds ..."), else the page's."""
    found: list[tuple[str, str]] = []
    header: list[str] = []
    game = GAME
    text = DOC.read_text("utf-8")
    for line in text.splitlines():
        if line.startswith("#"):
            game = GAME
        if line and not line.startswith("|"):
            game = next((g for title, g in TITLES.items() if line.startswith(title)), game)
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
                found += [(game, query) for query in re.findall(r"`([^`]+)`", cell)]
    found.append((GAME, re.search(r"```\n(.+)\n```", text).group(1)))
    return found


def _mistakes() -> list[tuple[str, str]]:
    """(query, the error message shown) of each `$ charnel search` that the doc shows failing."""
    text = DOC.read_text("utf-8")
    return re.findall(r"\$ charnel search '([^']+)'\nerror: (.+?) \(column \d+\)", text)


@pytest.fixture(scope="module")
def database(tmp_path_factory) -> Path:
    problems = Problems()
    prepared = pipeline.prepare(REPO, GAME, problems)
    assert prepared is not None and not problems, problems.summary()
    return compile.write(prepared.verified, prepared.outcomes,
                         tmp_path_factory.mktemp("docs") / f"{GAME}.db")


def test_the_doc_has_examples():
    assert len(_examples()) >= 20 and len(_mistakes()) >= 2


@pytest.mark.parametrize("query", _examples())
def test_each_documented_example_runs(database: Path, query: str):
    _, _, rows = search(database, query, FIELDS)
    assert isinstance(rows, list)


@pytest.mark.parametrize(("query", "message"), _mistakes())
def test_each_documented_mistake_says_what_the_doc_says(database: Path, query, message):
    with pytest.raises(QueryError) as caught:
        search(database, query, FIELDS)
    assert caught.value.message == message


def test_the_documented_examples_find_cards(database: Path):
    # each example shows a query that means something on the bundled pool
    empty = [q for q in _examples() if not search(database, q, FIELDS)[2]]
    assert not empty, f"examples that find no card: {empty}"


def test_every_example_belongs_to_a_game_it_runs_on():
    """Another game's examples (Cave Evil's run in tests/games/cave_evil/test_query_cave_evil.py)
    at least compile against that game's fields."""
    from charnel.query import compile_query

    for game, query in _game_examples():
        compile_query(query, registry.get(game).search_fields())
