"""Hecatomb's coverage table against its rulebook: a contents page with page numbers, and
Markdown headings in the body (the table itself is checked with every game's in
tests/test_rules_coverage.py)."""

from __future__ import annotations

import re

from test_rules_coverage import coverage_table, mapped_names, norm, rulebook

RULEBOOK = "000_*.txt"


def test_hecatomb_body_headings_are_in_the_table():
    """Headings of the rules part of the book (before the glossary), at any level."""
    tables = coverage_table("hecatomb")
    body = rulebook(RULEBOOK).split("# CONTENTS", 1)[1]
    body = body[body.index("\n## ") : body.index("\n## GLOSSARY")]
    headings = [norm(m[1]) for m in re.finditer(r"^#{2,3} (.+)$", body, re.M)]
    assert len(headings) > 40, "could not read the rulebook's headings"
    mapped = mapped_names(tables)
    missing = [h for h in headings if h not in mapped]
    assert not missing, f"rulebook headings missing from the table: {missing}"


def test_hecatomb_contents_headings_are_in_the_table_with_their_pages():
    tables = coverage_table("hecatomb")
    contents = rulebook(RULEBOOK).split("# CONTENTS", 1)[1].split("\n## ", 1)[0]
    entries = []
    for line in contents.splitlines():
        m = re.fullmatch(r"(?:<b>)?(.+?)(?:</b>)?\t(\d+)", line.strip())
        if m:
            entries.append((m[1], int(m[2])))
    assert len(entries) > 20, "could not read the rulebook's contents"
    mapped = {
        norm(row["rulebook heading"].split(" › ")[-1]): int(row["page"])
        for rows in (tables[""], tables.get("Not restated", []))
        for row in rows
    }
    for heading, page in entries:
        key = norm(heading)
        assert key in mapped, f"contents heading '{heading}' (p. {page}) is not in the table"
        assert mapped[key] == page, f"'{heading}' is on p. {page}, the table says p. {mapped[key]}"
