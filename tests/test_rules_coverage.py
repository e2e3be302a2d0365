"""The coverage table maps every heading of the Hecatomb rulebook to clauses that exist."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from charnel.diagnostics import Problems
from charnel.sources.loader import load

REPO = Path(__file__).resolve().parent.parent
COVERAGE = REPO / "docs" / "rules-coverage.md"
SEEDS = REPO.parent / "shared" / "seeds"
CLAUSE = re.compile(r"^\d+\.\d+[a-z]$")


def _tables(text: str) -> dict[str, list[list[str]]]:
    """Rows of each Markdown table, by the '## ' heading above it ('' before the first)."""
    tables: dict[str, list[list[str]]] = {}
    heading = ""
    for line in text.splitlines():
        if line.startswith("## "):
            heading = line[3:].strip()
        elif line.startswith("|") and not re.fullmatch(r"\|[-| ]+\|", line):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            tables.setdefault(heading, []).append(cells)
    return {k: rows[1:] for k, rows in tables.items()}  # drop each header row


def _rule_of(number: str) -> str:
    return number.rstrip("abcdefghijklmnopqrstuvwxyz")


def _norm(heading: str) -> str:
    heading = heading.replace("\u2019", "'").replace("“", '"').replace("”", '"')
    return re.sub(r"\s+", " ", heading).strip().casefold()


@pytest.fixture(scope="module")
def tables() -> dict[str, list[list[str]]]:
    return _tables(COVERAGE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def clause_numbers() -> set[str]:
    problems = Problems()
    records = load(REPO, "hecatomb", problems)
    assert records is not None, "the bundled rules do not load"
    return {c.number for c in records.clauses}


def test_every_mapped_heading_names_existing_clauses(tables, clause_numbers):
    rows = tables[""]
    assert len(rows) > 50, "the coverage table looks truncated"
    for heading, page, clauses in rows:
        assert page.isdigit(), f"{heading}: page '{page}' is not a number"
        numbers = [n.strip() for n in clauses.split(",") if n.strip()]
        assert numbers, f"rulebook heading '{heading}' has no clause"
        for number in numbers:
            assert CLAUSE.match(number), f"{heading}: '{number}' is not a sub-rule number"
            assert number in clause_numbers, f"{heading}: clause {number} does not exist"


def test_headings_without_clauses_say_why(tables):
    for heading, page, reason in tables["Not restated"]:
        assert page.isdigit() and len(reason) > 10, f"'{heading}' needs a page and a reason"


@pytest.fixture(scope="module")
def rulebook() -> str:
    books = sorted(SEEDS.glob("000_*.txt"))
    if not books:
        pytest.skip(f"the rulebook text is not at {SEEDS}")
    return books[0].read_text(encoding="utf-8")


def _mapped_names(tables) -> set[str]:
    return {
        _norm(row[0].split(" › ")[-1])
        for rows in (tables[""], tables["Not restated"])
        for row in rows
    }


def test_every_body_heading_is_in_the_table(tables, rulebook):
    """Headings of the rules part of the book (before the glossary), at any level."""
    body = rulebook.split("# CONTENTS", 1)[1]
    body = body[body.index("\n## ") : body.index("\n## GLOSSARY")]
    headings = [
        _norm(m[1].replace("*", "")) for m in re.finditer(r"^#{2,3} (.+)$", body, re.M)
    ]
    assert len(headings) > 40, "could not read the rulebook's headings"
    mapped = _mapped_names(tables)
    missing = [h for h in headings if h not in mapped]
    assert not missing, f"rulebook headings missing from the table: {missing}"


def test_every_contents_heading_is_in_the_table(tables, rulebook):
    text = rulebook
    contents = text.split("# CONTENTS", 1)[1].split("\n## ", 1)[0]
    entries = []
    for line in contents.splitlines():
        m = re.fullmatch(r"(?:<b>)?(.+?)(?:</b>)?\t(\d+)", line.strip())
        if m:
            entries.append((m[1], int(m[2])))
    assert len(entries) > 20, "could not read the rulebook's contents"
    mapped = {
        _norm(row[0].split(" › ")[-1]): int(row[1])
        for rows in (tables[""], tables["Not restated"])
        for row in rows
    }
    for heading, page in entries:
        key = _norm(heading)
        assert key in mapped, f"contents heading '{heading}' (p. {page}) is not in the table"
        assert mapped[key] == page, f"'{heading}' is on p. {page}, the table says p. {mapped[key]}"


def test_every_clause_is_reached_from_the_table_or_a_mapped_rule(tables, clause_numbers):
    """No sub-rule floats free: each is listed, or shares its rule with a listed one."""
    listed = {n.strip() for row in tables[""] for n in row[2].split(",")}
    rules_listed = {_rule_of(n) for n in listed}
    orphans = sorted(
        n for n in clause_numbers if CLAUSE.match(n) and _rule_of(n) not in rules_listed
    )
    assert not orphans, f"clauses no rulebook heading maps to: {orphans}"
