"""Cave Evil's search fields, as its docs/search.md shows them: each example there runs against
the bundled pool and finds the cards it says, and not the ones it says it does not; each
query of its search help finds cards."""

from __future__ import annotations

from pathlib import Path

import pytest
from field_queries import finds_table

from charnel import pipeline, registry
from charnel.query import QueryError, search

REPO = Path(__file__).resolve().parents[3]
GAME = registry.get("cave-evil")
FIELDS = GAME.search_fields()


def doc_examples() -> list[tuple[str, list[str], list[str]]]:
    return finds_table(GAME.id)


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("build")
    pipeline.build_all(REPO, ["cave-evil"], out, force=True)
    return out / "cave-evil.db"


def names_found(db: Path, query: str) -> set[str]:
    _, columns, rows = search(db, query, FIELDS, columns=["name"])
    return {row[0] for row in rows}


def test_the_doc_has_examples():
    assert len(doc_examples()) >= 8


@pytest.mark.parametrize(("query", "finds", "not_"), doc_examples())
def test_doc_example(db: Path, query: str, finds: list[str], not_: list[str]):
    found = names_found(db, query)
    assert set(finds) <= found, f"{query}: missing {set(finds) - found}"
    assert not set(not_) & found, f"{query}: found {set(not_) & found}"


def test_field_against_field_is_the_sum_the_cards_hold(db: Path):
    import sqlite3

    conn = sqlite3.connect(db)
    expected = {n for (n,) in conn.execute("select name from cards where sp > wp")}
    conn.close()
    assert expected and names_found(db, "sp>wp") == expected
    assert names_found(db, "-sp>wp") & expected == set()


def test_a_resource_is_asked_for_at_any_amount(db: Path):
    import sqlite3

    conn = sqlite3.connect(db)
    expected = {n for (n,) in conn.execute("select name from cards where gore > 0")}
    conn.close()
    assert names_found(db, "res:gore") == expected == names_found(db, "gore>=1")


def test_a_word_that_is_no_field_is_still_refused(db: Path):
    with pytest.raises(QueryError, match="number field"):
        search(db, "sp>wq", FIELDS)


@pytest.mark.parametrize("query", GAME.search_examples)
def test_each_query_of_the_search_help_finds_cards(db: Path, query: str):
    assert names_found(db, query)


def test_every_field_has_an_example_that_finds_cards(db: Path):
    from charnel.query import field_table

    table = field_table(FIELDS)
    assert all(row["example"] for row in table), [r["names"] for r in table if not r["example"]]
    empty = [row["example"] for row in table if not names_found(db, row["example"])]
    assert not empty, f"examples that find no card: {empty}"
