"""Card verification in the core, on a game of the suite's own: each ability a card
encodes runs the examples of the clauses that define it (or that name it), with the card
substituted in; equal runs are made once."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

from examples.tally_game import TallyEngine, examples_in

from charnel.engine import verification

CLAUSES = {
    "bonus-adds-to-each-roll": "3.1a",
    "bonus-two-literal": "3.1b",
    "named-elsewhere": "9.9",
    "names-another-ability": "3.1",
    "no-subject": "3.1",
    "not-under-the-clause": "31.1",
}


def checks() -> tuple[verification.Checks, SimpleNamespace]:
    found = [
        replace(e, owner_kind="rule", owner=CLAUSES[e.id])
        for e in examples_in("engine_card_checks.md")
    ]
    return verification.Checks(TallyEngine()), SimpleNamespace(examples=found)


def card(bonus: int, slug: str = "") -> SimpleNamespace:
    return SimpleNamespace(slug=slug or f"card-{bonus}", name=f"Card {bonus}", bonus=bonus)


def test_an_ability_runs_the_examples_of_its_clauses_and_those_that_name_it():
    kept, records = checks()
    ran = [(a.text, e.id, r.passed) for a, e, r in verification.runs(kept, records, card(2))]
    assert ran == [
        ("Bonus 2", "bonus-adds-to-each-roll", True),
        ("Bonus 2", "bonus-two-literal", True),
        ("Bonus 2", "named-elsewhere", True),
    ]


def test_the_card_is_substituted_in():
    kept, records = checks()
    results = {e.id: r for _, e, r in verification.runs(kept, records, card(5))}
    assert results["bonus-adds-to-each-roll"].passed  # written for any bonus
    assert results["named-elsewhere"].passed
    literal = results["bonus-two-literal"]  # written for 2: a bonus of 5 gives 6, not 3
    assert not literal.passed and literal.diff == ["- total: 3", "+ total: 6"]


def test_a_card_without_the_ability_runs_nothing():
    kept, records = checks()
    assert verification.runs(kept, records, card(0)) == []


def test_equal_runs_are_made_once():
    kept, records = checks()
    verification.runs(kept, records, card(2, "one"))
    made = kept.engine.setups
    verification.runs(kept, records, card(2, "two"))
    assert kept.engine.setups == made == 3
