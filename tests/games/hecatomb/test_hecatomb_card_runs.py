"""Every card is verified for real: each keyword it carries has at least one run of that
keyword's examples with the card substituted in, and every run passes."""

from __future__ import annotations

from engine_case import engine, records

from charnel import registry
from charnel.engine import outcomes, verification
from charnel.games.hecatomb.engine import verify


def card_runs(card, recs):
    return outcomes.card_runs(registry.get("hecatomb"), card, recs)


def _runs_by_keyword(card, recs) -> dict[str, list]:
    book = engine().book
    by_text: dict[str, list] = {book.decode(entry).text: [] for entry in card.keywords}
    for text, outcome in card_runs(card, recs):
        by_text[text].append(outcome)
    return by_text


def test_every_keyword_of_every_card_has_a_run():
    recs = records()
    idle = [
        (card.slug, text)
        for card in recs.cards
        for text, runs in _runs_by_keyword(card, recs).items()
        if not runs
    ]
    assert not idle, f"card keywords no example verifies: {idle}"


def test_every_card_run_passes():
    recs = records()
    failed = [
        (card.slug, text, o.example, o.message, o.diff)
        for card in recs.cards
        for text, runs in _runs_by_keyword(card, recs).items()
        for o in runs
        if not o.passed
    ]
    assert not failed, failed


def test_a_tap_card_runs_its_own_encoded_effect():
    """The subject of a tap example takes the card's `on: tap` effects: a card whose effect
    has no legal target fails, instead of passing on the example's own effect."""
    recs = records()
    card = next(c for c in recs.cards if c.slug == "rain-mouth-idolater")
    broken = card.model_copy(
        update={
            "effects": [
                {"on": "tap", "destroy": {"target": {"minion": "yours", "subtype": "Nobody"}}}
            ]
        }
    )
    tap = next(a for a in engine().abilities(card) if a.name == "tap")
    example, subject = next(
        (e, s)
        for e, s in verification.examples_of(recs, engine(), tap)
        if e.id == "tap-ability-size-threshold"
    )
    body = verify.substituted(
        example, subject, broken, card.keywords[0], {"size": 5, "effect": "x"}
    )
    ability = body["given"]["abominations"]["A"]["minions"][0]["effects"]
    assert ability == broken.effects
    runs = [o for t, o in card_runs(broken, recs) if t.startswith("↻")]
    assert runs and not any(o.passed for o in runs if o.example == "tap-ability-size-threshold")


def test_a_follower_card_is_checked_with_its_own_ability():
    recs = records()
    card = next(c for c in recs.cards if c.slug == "toll-gate-ghoul")
    runs = [o for _, o in card_runs(card, recs)]
    assert {"follower-ability-leaves-with-the-god", "follower-ability-arrives-with-a-god"} <= {
        o.example for o in runs
    }
    assert all(o.passed for o in runs)


def test_a_host_card_is_tested_from_the_hand():
    recs = records()
    card = next(c for c in recs.cards if c.slug == "thrice-born-larva")
    ran = {o.example for _, o in card_runs(card, recs)}
    assert "host-cannot-join-abomination" in ran
