"""The Cave Evil rules corpus loads clean, is complete enough, and marks what it must."""

from __future__ import annotations

import re

import pytest
from corpus import load_corpus
from test_rules_coverage import rulebook
from test_rules_coverage_cave_evil import RULEBOOK, cave_evil_headings

# terms the rules cannot be read without (issue 15)
REQUIRED_TERMS = {
    "squad", "control-card", "invoke", "conjure", "fight-round", "binding", "flanking",
    "ranged-combat", "hire", "subdue", "spawn-roll", "wandering-monster", "blood-eye",
    "awaken-track", "kill-points", "excavator", "collapse", "trinket", "spellcaster",
    "necromancer",
}  # fmt: skip
ADVANCED_SECTION = "18"


@pytest.fixture(scope="module")
def records():
    records, problems = load_corpus("cave-evil")
    assert records is not None and not problems, "\n".join(map(str, problems))
    return records


@pytest.fixture(scope="module")
def subrules(records):
    return [c for c in records.clauses if c.level == 2]


def test_the_corpus_is_large_enough(records, subrules):
    assert len(subrules) >= 150
    assert len(records.glossary.terms) >= 40
    assert REQUIRED_TERMS <= {t.slug for t in records.glossary.terms}


def test_every_ruling_gives_its_reason(subrules):
    rulings = [c for c in subrules if c.ruling]
    assert len(rulings) >= 58
    unreasoned = [c.number for c in rulings if "Reason:" not in c.text]
    assert not unreasoned, f"rulings that give no reason: {unreasoned}"


def test_the_advanced_section_is_marked_throughout(subrules):
    unmarked = [c.number for c in subrules if c.section == ADVANCED_SECTION and not c.advanced]
    assert not unmarked, f"advanced rules without the mark: {unmarked}"


def test_a_mark_is_never_left_in_the_middle_of_a_clause(subrules):
    for c in subrules:
        marks = re.findall(r"\*\*(?:Ruling|Advanced)\.\*\*", c.text)
        opening = re.match(r"(?:\*\*(?:Ruling|Advanced)\.\*\*\s*)*", c.text)[0]
        assert len(marks) == len(re.findall(r"\*\*", opening)) // 2, (
            f"{c.number}: a mark must open the clause"
        )


def test_every_cited_heading_is_a_heading_of_the_rulebook(subrules):
    headings = {
        re.sub(r"[.:]+$", "", h) for h in cave_evil_headings(rulebook(RULEBOOK)).values()
    }
    for c in subrules:
        if c.heading:
            cited = c.heading.casefold().rstrip(".:")
            assert any(h.startswith(cited) for h in headings), (
                f"{c.number} cites '{c.heading}', which is no heading of the rulebook"
            )


def test_every_clause_cites_a_page_or_a_heading(subrules):
    assert all(c.pages or c.heading for c in subrules)
    assert {c.pages for c in subrules} - {""} <= {
        "4, 25", "12", "16", "21", "23", "25", "29", "36",
    }, "a page no cross-reference of the rulebook gives"  # fmt: skip


def test_every_worked_example_has_an_existing_clause(records):
    from test_rules_coverage import COVERAGE, _tables

    rows = _tables(COVERAGE["cave-evil"].read_text(encoding="utf-8"))["Worked examples"]
    assert len(rows) >= 30
    numbers = {c.number for c in records.clauses}
    for row in rows:
        for number in re.split(r",\s*", row["clause"]):
            assert number in numbers, f"{row['example']}: clause {number} does not exist"


def test_every_worked_example_runs_as_the_table_says(records):
    """Each worked example names the examples that run it, under its own clause, and they
    pass; the figure the page gives is the table's."""
    from cave_evil_support import run
    from test_rules_coverage import COVERAGE, _tables

    text = COVERAGE["cave-evil"].read_text(encoding="utf-8")
    rows = _tables(text)["Worked examples"]
    by_id = {e.id: e for e in records.examples}
    running = 0
    for row in rows:
        clauses = set(re.split(r",\s*", row["clause"]))
        names = [n for n in re.split(r",\s*", row["runs as"]) if n and n != "—"]
        for name in names:
            assert name in by_id, f"{row['example']}: no example '{name}'"
            example = by_id[name]
            assert example.owner in clauses, f"{row['example']}: {name} is under {example.owner}"
            result = run(example)
            assert result.passed, f"{row['example']}: {name}: {result.message}"
        running += bool(names)
    figure = re.search(r"\*\*(\d+) of (\d+) worked examples run\.\*\*", text)
    assert figure and (int(figure[1]), int(figure[2])) == (running, len(rows))
