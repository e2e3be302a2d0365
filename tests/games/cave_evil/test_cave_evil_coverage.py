"""`charnel check --coverage` for Cave Evil: a sentence counts as run only when an encoded
ability says exactly it; what the engine does not run stays text only."""

from __future__ import annotations

from functools import cache

from cave_evil_support import ROOT

from charnel import coverage
from charnel.diagnostics import Problems
from charnel.sources import loader
from charnel.verify import verify


@cache
def measured() -> coverage.Coverage:
    problems = Problems()
    records = loader.load(ROOT, "cave-evil", problems)
    verified = verify(records, problems)
    assert not problems, [p.render(ROOT) for p in problems]
    return coverage.measure(verified)


def by_card(slug: str) -> coverage.CardCoverage:
    return measured().by_card()[slug]


def _changed(slug: str, abilities: list[dict]) -> coverage.CardCoverage:
    from charnel import registry

    problems = Problems()
    records = loader.load(ROOT, "cave-evil", problems)
    card = next(c for c in records.cards if c.slug == slug)
    changed = card.model_copy(update={"abilities": abilities})
    text = verify(records, problems).card_text[slug]
    parts = registry.get("cave-evil").text_parts(changed, text)
    return coverage.CardCoverage(slug, card.name, parts)


def test_encoded_sentences_run():
    for slug in ("hunched-one", "crossbow-brigand", "iron-pick", "great-hall", "demon-tide"):
        assert by_card(slug).missing == [], slug
    assert by_card("hunched-one").executable
    for slug in ("iron-pick", "bone-saw", "femur-club", "skull-lantern", "cinder-crown",
                 "gore-pump", "hungering-blade"):
        assert by_card(slug).executable, slug
    assert by_card("narrow-tunnel").executable


def test_what_the_engine_does_not_run_stays_text_only():
    assert by_card("stitching-kit").executable
    # a size other than the printed one encodes nothing
    assert _changed("stitching-kit", [{"stitch_back": "medium"}]).missing == [
        "Discard it when a Small creature of its Squad dies in a Combat it fights alone while "
        "the rest of its Squad lives: that creature returns to the Squad instead of dying"
    ]
    # a price other than the printed one encodes nothing
    paid = [{"paid_bonus": {"sp": 4, "pay": {"gore": 1}}}]
    assert _changed("cinder-crown", paid).missing == [
        "Pay 1 Shadowflame: +4 Special for one Combat"
    ]
    assert not _changed("iron-pick", [{"pick_axe": 1}]).executable


def test_card_effects_run_as_printed():
    for slug in ("shrine-of-bones", "restless-dead", "blood-moon", "psychomancer-of-fire",
                 "temple-basilisk", "demonic-wind", "armored-gas"):
        assert by_card(slug).executable, slug


def test_a_card_not_fully_run_says_why():
    """Every card the engine does not fully run gives a reason in `text_only`, and a reason,
    not a promise: "not implemented" is refused; a card that runs in full keeps none."""
    problems = [(c.card, c.reason_problem) for c in measured().cards if c.reason_problem]
    assert not problems, problems


def test_a_missing_or_empty_reason_is_a_problem():
    card = _changed("stitching-kit", [])
    assert coverage.CardCoverage(card.card, card.name, card.parts, None).reason_problem
    for said in ("not implemented", "Not yet implemented.", "TODO", "  ",
                 "decided by the fight sides, which do not read the trinket field",
                 "a movement rule, decided where the engine moves squads, which reads no card "
                 "ability", "The price is not asked where the sides are built",
                 "not yet read by the engine"):
        assert coverage.CardCoverage(card.card, card.name, card.parts, said).reason_problem, said
    runs = by_card("blood-moon")
    assert coverage.CardCoverage(runs.card, runs.name, runs.parts, "flavour").reason_problem


def test_an_encoding_that_says_other_numbers_encodes_nothing():
    assert not _changed("hunched-one", [{"binding": {"st": -2}}]).executable
    assert not _changed("great-hall", [{"tile": "great-hall"}, {"spawn": ["resource"]}]).executable
    assert _changed("hunched-one", [{"binding": {"st": -3}}]).executable


def test_the_figure():
    figure = measured().figure
    assert figure.endswith("%)") and "/172 cards fully executable" in figure
    assert figure.startswith("172/172 ")
    assert [c.card for c in measured().cards if not c.executable] == []
