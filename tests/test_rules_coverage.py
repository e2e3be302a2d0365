"""Each game's coverage table maps every heading of its rulebook to clauses that exist.

The tables are each game's `rules-coverage.md`, in its documents folder (`Game.docs_dir`); each
has a header row naming its columns, of which `Rulebook heading`, `Page` and `Clauses` are
common to all. How the rulebook's own headings are read depends on the rulebook's text.
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
RULEBOOK = {"hecatomb": "000_*.txt", "cave-evil": "004_*.txt"}
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


def _norm(heading: str) -> str:
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


def _rulebook(game: str) -> str:
    books = sorted(SEEDS.glob(RULEBOOK[game]))
    if not books:
        pytest.skip(f"the {game} rulebook text is not at {SEEDS}")
    return books[0].read_text(encoding="utf-8")


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


# --- Hecatomb: a contents page with page numbers, and Markdown headings in the body ----------


def _mapped_names(tables) -> set[str]:
    return {
        _norm(row["rulebook heading"].split(" › ")[-1])
        for rows in (tables[""], tables.get("Not restated", []))
        for row in rows
    }


def test_hecatomb_body_headings_are_in_the_table():
    """Headings of the rules part of the book (before the glossary), at any level."""
    tables = _tables(COVERAGE["hecatomb"].read_text(encoding="utf-8"))
    body = _rulebook("hecatomb").split("# CONTENTS", 1)[1]
    body = body[body.index("\n## ") : body.index("\n## GLOSSARY")]
    headings = [_norm(m[1]) for m in re.finditer(r"^#{2,3} (.+)$", body, re.M)]
    assert len(headings) > 40, "could not read the rulebook's headings"
    mapped = _mapped_names(tables)
    missing = [h for h in headings if h not in mapped]
    assert not missing, f"rulebook headings missing from the table: {missing}"


def test_hecatomb_contents_headings_are_in_the_table_with_their_pages():
    tables = _tables(COVERAGE["hecatomb"].read_text(encoding="utf-8"))
    contents = _rulebook("hecatomb").split("# CONTENTS", 1)[1].split("\n## ", 1)[0]
    entries = []
    for line in contents.splitlines():
        m = re.fullmatch(r"(?:<b>)?(.+?)(?:</b>)?\t(\d+)", line.strip())
        if m:
            entries.append((m[1], int(m[2])))
    assert len(entries) > 20, "could not read the rulebook's contents"
    mapped = {
        _norm(row["rulebook heading"].split(" › ")[-1]): int(row["page"])
        for rows in (tables[""], tables.get("Not restated", []))
        for row in rows
    }
    for heading, page in entries:
        key = _norm(heading)
        assert key in mapped, f"contents heading '{heading}' (p. {page}) is not in the table"
        assert mapped[key] == page, f"'{heading}' is on p. {page}, the table says p. {mapped[key]}"


# --- Cave Evil: no contents page; headings by their line in the text export ------------------

# Markdown headings, and the bold numbered entries the Basics chapter uses as headings
CAVE_EVIL_HEADING = re.compile(r"^(?:#{1,4} (.+)|\*\*(\d+\. [^*]+)\*\*)$")


def cave_evil_headings(text: str) -> dict[int, str]:
    """Every heading of the Cave Evil rulebook, by line number (1-based), normalised."""
    found = {}
    for n, line in enumerate(text.splitlines(), 1):
        m = CAVE_EVIL_HEADING.match(line.strip())
        if m:
            found[n] = _norm(m[1] or m[2])
    return found


def test_cave_evil_every_heading_is_in_the_table_at_its_line():
    tables = _tables(COVERAGE["cave-evil"].read_text(encoding="utf-8"))
    headings = cave_evil_headings(_rulebook("cave-evil"))
    assert len(headings) > 100, "could not read the rulebook's headings"
    rows = {
        int(row["line"]): _norm(row["rulebook heading"].split(" › ")[-1])
        for rows in (tables[""], tables.get("Not restated", []))
        for row in rows
    }
    missing = [f"line {n}: {h}" for n, h in headings.items() if n not in rows]
    assert not missing, f"rulebook headings missing from the table: {missing}"
    wrong = [f"line {n}: '{rows[n]}' is '{h}'" for n, h in headings.items() if rows[n] != h]
    assert not wrong, f"table rows that name another heading than their line's: {wrong}"
    stray = sorted(set(rows) - set(headings))
    assert not stray, f"table rows at lines that hold no heading: {stray}"


def test_cave_evil_headings_are_read_from_both_forms():
    text = "## E. Combat\nplain text\n**4. Creature Cards**\n### **Excavation Spawn Roll**\n"
    assert cave_evil_headings(text) == {
        1: "e. combat",
        3: "4. creature cards",
        4: "excavation spawn roll",
    }
