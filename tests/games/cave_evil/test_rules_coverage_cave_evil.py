"""Cave Evil's coverage table against its rulebook: no contents page, so headings are found by
their line in the text export (the table itself is checked with every game's in
tests/test_rules_coverage.py)."""

from __future__ import annotations

import re

from test_rules_coverage import coverage_table, norm, rulebook

RULEBOOK = "004_*.txt"

# Markdown headings, and the bold numbered entries the Basics chapter uses as headings
CAVE_EVIL_HEADING = re.compile(r"^(?:#{1,4} (.+)|\*\*(\d+\. [^*]+)\*\*)$")


def cave_evil_headings(text: str) -> dict[int, str]:
    """Every heading of the Cave Evil rulebook, by line number (1-based), normalised."""
    found = {}
    for n, line in enumerate(text.splitlines(), 1):
        m = CAVE_EVIL_HEADING.match(line.strip())
        if m:
            found[n] = norm(m[1] or m[2])
    return found


def test_cave_evil_every_heading_is_in_the_table_at_its_line():
    tables = coverage_table("cave-evil")
    headings = cave_evil_headings(rulebook(RULEBOOK))
    assert len(headings) > 100, "could not read the rulebook's headings"
    rows = {
        int(row["line"]): norm(row["rulebook heading"].split(" › ")[-1])
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
