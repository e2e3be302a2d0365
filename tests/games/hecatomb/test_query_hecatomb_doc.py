"""Hecatomb's search page, as its docs/search.md shows it: each example there runs against the
bundled pool and finds the cards it says, and not the ones it says it does not."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from field_queries import finds_table

from charnel import compile, pipeline, registry
from charnel.diagnostics import Problems
from charnel.query import search

REPO = Path(__file__).resolve().parents[3]
GAME = registry.get("hecatomb")
DOC = GAME.docs_dir / "search.md"
FIELDS = GAME.search_fields()


def doc_examples() -> list[tuple[str, list[str], list[str]]]:
    return finds_table(GAME.id)


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    problems = Problems()
    prepared = pipeline.prepare(REPO, GAME.id, problems)
    assert prepared is not None and not problems, problems.summary()
    return compile.write(prepared.verified, prepared.outcomes,
                         tmp_path_factory.mktemp("docs") / f"{GAME.id}.db")


def names_found(db: Path, query: str) -> set[str]:
    _, _, rows = search(db, query, FIELDS, columns=["name"])
    return {row[0] for row in rows}


def test_the_doc_has_examples():
    assert len(doc_examples()) >= 20


@pytest.mark.parametrize(("query", "finds", "not_"), doc_examples())
def test_doc_example(db: Path, query: str, finds: list[str], not_: list[str]):
    found = names_found(db, query)
    assert finds and set(finds) <= found, f"{query}: missing {set(finds) - found}"
    assert not set(not_) & found, f"{query}: found {set(not_) & found}"


def test_the_opening_query_is_the_first_example():
    opening = re.search(r"```\n(.+)\n```", DOC.read_text("utf-8")).group(1)
    assert opening == doc_examples()[0][0]


def test_the_doc_shows_every_query_of_the_search_help():
    shown = {query for query, _, _ in doc_examples()}
    assert set(GAME.search_examples) <= shown
