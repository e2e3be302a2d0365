"""Each game's coverage table maps every heading of its rulebook to clauses that exist.

The tables are each game's `rules-coverage.md`, in its documents folder (`Game.docs_dir`); each
has a header row naming its columns, of which `Rulebook heading`, `Page` and `Clauses` are
common to all. How the rulebook's own headings are read depends on the rulebook's text: each
game's tests check that part (`tests/games/<game>/test_rules_coverage_<game>.py`) with the
helpers here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from corpus import load_corpus

from charnel import registry

REPO = Path(__file__).resolve().parent.parent
# the rulebooks' text lies beside the checkout, or beside the folder of worktrees
SEEDS = next(
    (
        p
        for p in (REPO.parent / "shared" / "seeds", REPO.parent.parent / "shared" / "seeds")
        if p.is_dir()
    ),
    REPO.parent / "shared" / "seeds",
)
CLAUSE = re.compile(r"^\d+\.\d+[a-z]$")
COVERAGE = {
    game.id: game.docs_dir / "rules-coverage.md"
    for game in registry.available().values()
    if (game.docs_dir / "rules-coverage.md").is_file()
}
NO_PAGE = "—"


def _cells(line: str) -> list[str]:
    """A table row's cells; '\\|' is a pipe inside a cell."""
    inner = line.strip().strip("|")
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", inner)]


def _tables(text: str) -> dict[str, list[dict[str, str]]]:
    """Rows of each Markdown table as {column: cell}, by the '## ' heading above it."""
    tables: dict[str, list[dict[str, str]]] = {}
    headers: dict[str, list[str]] = {}
    heading = ""
    for line in text.splitlines():
        if line.startswith("## "):
            heading = line[3:].strip()
        elif line.startswith("|") and not re.fullmatch(r"\|[-| ]+\|", line):
            cells = _cells(line)
            if heading not in headers:
                headers[heading] = [c.casefold() for c in cells]
            else:
                tables.setdefault(heading, []).append(
                    dict(zip(headers[heading], cells, strict=True))
                )
    return tables


def _rule_of(number: str) -> str:
    return number.rstrip("abcdefghijklmnopqrstuvwxyz")


def norm(heading: str) -> str:
    heading = heading.replace("*", "").replace("\u2019", "'").replace("“", '"').replace("”", '"')
    return re.sub(r"\s+", " ", heading).strip().casefold()


def _numbers(row: dict[str, str]) -> list[str]:
    return [n.strip() for n in row["clauses"].split(",") if n.strip()]


@pytest.fixture(scope="module", params=sorted(COVERAGE))
def game(request) -> str:
    return request.param


@pytest.fixture(scope="module")
def tables(game) -> dict[str, list[dict[str, str]]]:
    return _tables(COVERAGE[game].read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def clause_numbers(game) -> set[str]:
    records, problems = load_corpus(game)
    assert records is not None and not problems, f"the {game} rules do not load: {problems}"
    return {c.number for c in records.clauses}


def rulebook(pattern: str) -> str:
    """The text of the rulebook whose file matches `pattern` in the seeds folder."""
    books = sorted(SEEDS.glob(pattern))
    if not books:
        pytest.skip(f"the rulebook text {pattern} is not at {SEEDS}")
    return books[0].read_text(encoding="utf-8")


def coverage_table(game_id: str) -> dict[str, list[dict[str, str]]]:
    return _tables(COVERAGE[game_id].read_text(encoding="utf-8"))


def mapped_names(tables) -> set[str]:
    """The headings a table maps or says why it does not, normalised."""
    return {
        norm(row["rulebook heading"].split(" › ")[-1])
        for rows in (tables[""], tables.get("Not restated", []))
        for row in rows
    }


def test_every_mapped_heading_names_existing_clauses(game, tables, clause_numbers):
    rows = tables[""]
    assert len(rows) > 50, "the coverage table looks truncated"
    for row in rows:
        heading, page = row["rulebook heading"], row["page"]
        assert page.isdigit() or page == NO_PAGE, f"{heading}: page '{page}' is not a number"
        numbers = _numbers(row)
        assert numbers, f"rulebook heading '{heading}' has no clause"
        for number in numbers:
            assert CLAUSE.match(number), f"{heading}: '{number}' is not a sub-rule number"
            assert number in clause_numbers, f"{heading}: clause {number} does not exist"


def test_headings_without_clauses_say_why(tables):
    for row in tables.get("Not restated", []):
        heading, page, reason = row["rulebook heading"], row["page"], list(row.values())[-1]
        assert (page.isdigit() or page == NO_PAGE) and len(reason) > 10, (
            f"'{heading}' needs a page and a reason"
        )


def test_every_clause_is_reached_from_the_table_or_a_mapped_rule(tables, clause_numbers):
    """No sub-rule floats free: each is listed, or shares its rule with a listed one."""
    listed = {n for row in tables[""] for n in _numbers(row)}
    rules_listed = {_rule_of(n) for n in listed}
    orphans = sorted(
        n for n in clause_numbers if CLAUSE.match(n) and _rule_of(n) not in rules_listed
    )
    assert not orphans, f"clauses no rulebook heading maps to: {orphans}"
