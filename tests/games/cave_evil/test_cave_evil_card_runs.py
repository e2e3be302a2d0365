"""Every Cave Evil card is verified for real: each ability it encodes has at least one run of
the examples of its defining clauses with the card substituted in, every run passes, and a
run fails when the card's numbers are not the ones the engine applies."""

from __future__ import annotations

from functools import cache

import pytest
from cave_evil_support import ROOT

from charnel import registry
from charnel.diagnostics import Problems
from charnel.engine import outcomes, runner, verification
from charnel.games.cave_evil.engine import verify
from charnel.sources import loader

GAME = registry.get("cave-evil")


@cache
def records():
    problems = Problems()
    found = loader.load(ROOT, "cave-evil", problems)
    assert found is not None and not problems, [p.render(ROOT) for p in problems]
    return found


def engine():
    return outcomes.checks(GAME, records()).engine


@cache
def runs() -> dict[str, list[tuple[str, object]]]:
    """Each card's runs by ability text, every ability listed."""
    out = {}
    for card in records().cards:
        by_text = {a.text: [] for a in engine().abilities(card)}
        for text, outcome in outcomes.card_runs(GAME, card, records()):
            by_text[text].append(outcome)
        out[card.slug] = by_text
    return out


def card(slug: str):
    return next(c for c in records().cards if c.slug == slug)


def test_every_encoded_ability_has_a_run():
    idle = [(slug, text) for slug, by in runs().items() for text, found in by.items() if not found]
    assert not idle, f"encoded abilities no example verifies: {idle}"


def test_every_card_run_passes():
    failed = [
        (slug, text, o.example, o.message, o.diff)
        for slug, by in runs().items()
        for text, found in by.items()
        for o in found
        if not o.passed
    ]
    assert not failed, failed


def test_every_ability_kind_of_the_pool_is_verified():
    kinds = {a.name for c in records().cards for a in engine().abilities(c)}
    assert kinds == set(verify.CLAUSES)


def test_each_ability_names_clauses_that_exist():
    for name, clauses in verify.CLAUSES.items():
        assert clauses and all(records().clause(c) is not None for c in clauses), name


def _example(example_id: str):
    return next(e for e in records().examples if e.id == example_id)


@pytest.mark.parametrize(
    "slug,example_id,wrong",
    [
        ("hunched-one", "binding-per-enemy-creature-attacking", {"st": -2}),
        ("hunched-one", "binding-per-enemy-creature-defending", {"st": -3, "dd": -1}),
        ("deep-matriarch", "combat-ability-attacking-strength-side", {"sp": 2}),
        (
            "glass-spider",
            "combat-ability-defending-bloodthirst-side",
            {"dd": 3, "when": "defending"},
        ),
        # told it adds when attacking too, the attacking example fails: `when` is the card's
        ("glass-spider", "combat-ability-attacking-bloodthirst-side", {"dd": 2}),
        ("chain-flail", "item-bonus-attacking", {"wp": 4}),
        ("dracor", "ranged-at-its-full-range", {"range": 3, "first": "sp"}),
        ("dracor", "ranged-at-its-full-range", {"range": 2, "first": "wp"}),
        ("abyssal-lodestone", "pick-axe-item-adds-to-speed", 3),
    ],
)
def test_a_run_fails_when_the_numbers_are_not_the_cards(slug, example_id, wrong):
    """The facts follow the encoding the example is told of: told another than the card's
    (what the engine applies), the run fails; told the card's own, it passes."""
    subject_card = card(slug)
    (ability,) = engine().abilities(subject_card)
    example = _example(example_id)
    subject = verify.find_subject(example.body, ability.name, engine().pool)
    written = engine().pool[slug]
    told = verify.substituted(example, subject, written, ability.name, wrong)
    assert not runner.run(told, engine()).passed
    own = verify.substituted(example, subject, written, ability.name, ability.params.value)
    assert runner.run(own, engine()).passed


def test_an_example_in_plain_numbers_speaks_only_for_cards_like_its_subject():
    ran = {o.example for found in runs()["hunched-one"].values() for o in found}
    assert "insectoid-binds-a-large" not in ran
    assert "binding-per-enemy-creature-attacking" in ran
    insectoid = {o.example for found in runs()["insectoid"].values() for o in found}
    assert "insectoid-binds-a-large" in insectoid
    # two excavation cards encoded alike share an example
    winding = {o.example for found in runs()["winding-tunnel"].values() for o in found}
    assert "narrow-tunnel-card-spawns" in winding


def test_the_card_takes_the_subjects_place():
    example = _example("binding-per-enemy-creature-attacking")
    ability = engine().abilities(card("mind-chanter"))[0]
    subject = verify.find_subject(example.body, "binding", engine().pool)
    assert subject.place == ("squads", "you I", "creatures", 0)
    body = engine().substitute(example, subject, card("mind-chanter"), ability)
    assert body["given"]["squads"]["you I"]["creatures"][0]["name"] == "Mind Chanter"
    assert body["then"]["squads"]["you I"]["creatures"] == ["Mind Chanter", "Ballast"]
    assert example.body["given"]["squads"]["you I"]["creatures"][0] == "Hunched One"


def test_examples_of_an_ability_are_found_under_its_clauses():
    ability = engine().abilities(card("chain-flail"))[0]
    found = {e.id for e, _ in verification.examples_of(records(), engine(), ability)}
    assert {"item-bonus-attacking", "item-bonus-defending"} <= found
