"""A sub-rule cites the rulebook by page, or by heading where the book prints no page, and
may be marked as the project's own ruling or as an advanced rule."""

from __future__ import annotations

from charnel.diagnostics import Problems
from charnel.sources import rules_md

DOC = """# 3. Fights

## 3.1 Rounds

3.1a A fight has three rounds. [pp. 16-17]

3.1b **Ruling.** A tie is rolled again, because the book says so only once. [§ Blows]

3.1c **Advanced.** Squads may pass through each other. [§ Crowded Tunnels]

3.1d **Advanced.** **Ruling.** Both marks. [§  Fight   Rounds ]

3.1e No citation at all.
"""


def _clauses():
    problems = Problems()
    _, clauses, _ = rules_md.parse("rules/x/03-fights.md", DOC, 0, problems)
    assert not problems
    return {c.number: c for c in clauses}


def test_a_page_citation_gives_pages_and_no_heading():
    c = _clauses()["3.1a"]
    assert (c.pages, c.heading, c.text) == ("16-17", "", "A fight has three rounds.")
    assert not c.ruling and not c.advanced


def test_a_heading_citation_gives_the_heading_with_its_spaces_tidied():
    clauses = _clauses()
    assert (clauses["3.1b"].pages, clauses["3.1b"].heading) == ("", "Blows")
    assert clauses["3.1d"].heading == "Fight Rounds"


def test_marks_set_their_flags_and_stay_in_the_text():
    clauses = _clauses()
    assert clauses["3.1b"].ruling and not clauses["3.1b"].advanced
    assert clauses["3.1c"].advanced and not clauses["3.1c"].ruling
    assert clauses["3.1d"].ruling and clauses["3.1d"].advanced
    assert clauses["3.1b"].text.startswith("**Ruling.** A tie")


def test_a_mark_inside_the_text_is_not_a_mark():
    problems = Problems()
    doc = "# 1. X\n\n## 1.1 Y\n\n1.1a See the **Ruling.** below. [p. 2]\n"
    _, clauses, _ = rules_md.parse("rules/x/01-x.md", doc, 0, problems)
    assert not clauses[-1].ruling


def test_no_citation_leaves_both_empty():
    c = _clauses()["3.1e"]
    assert (c.pages, c.heading) == ("", "")


def test_print_names_the_page_or_else_the_heading():
    from charnel.printing.documents import cite

    clauses = _clauses()
    assert cite(clauses["3.1a"]) == "p. 16-17"
    assert cite(clauses["3.1b"]) == "§ Blows"
    assert cite(clauses["3.1e"]) == ""
