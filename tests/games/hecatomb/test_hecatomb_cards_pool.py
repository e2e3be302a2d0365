"""The bundled Hecatomb card pool: big enough, in the game's proportions, every keyword used."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from charnel.diagnostics import Problems
from charnel.keywords import KeywordBook
from charnel.sources import loader

REPO = Path(__file__).resolve().parents[3]
DOOMS = {"corruption", "deceit", "destruction", "greed"}


@pytest.fixture(scope="module")
def records():
    problems = Problems()
    loaded = loader.load(REPO, "hecatomb", problems)
    assert loaded is not None
    return loaded


@pytest.fixture(scope="module")
def uses(records):
    """(card, keyword use) for every keyword printed on every card."""
    book = KeywordBook(records.glossary.terms, records.info)
    return [(card, use) for card in records.cards for use in book.read(card.text)[0]]


def test_two_sets_of_at_least_150_cards(records):
    sets = {s.code: s for s in records.info.sets}
    per_set = Counter(c.set_code for c in records.cards)
    assert len(records.cards) >= 150
    assert len(sets) >= 2 and set(per_set) == set(sets)
    assert len({s.released for s in sets.values()}) == len(sets)
    assert len({s.symbol for s in sets.values()}) == len(sets)
    for code, count in per_set.items():
        numbers = sorted(c.number for c in records.cards if c.set_code == code)
        assert numbers == list(range(1, count + 1)), code


def test_proportions_of_types_dooms_and_rarities(records):
    cards = records.cards
    types = Counter(c.type for c in cards)
    assert set(types) == {"minion", "fate", "relic", "god"}
    assert types["minion"] > len(cards) / 2 > types["fate"] > types["relic"]
    assert {c.doom for c in cards} == DOOMS
    assert {c.rarity for c in cards} == {"common", "uncommon", "rare"}
    assert Counter(c.rarity for c in cards).most_common(1)[0][0] == "common"
    for kind in ("minion", "fate"):
        assert any(c.combat for c in cards if c.type == kind), f"no combat {kind}"
    for doom in DOOMS:
        assert Counter(c.type for c in cards if c.doom == doom).keys() == types.keys(), doom


def test_minions_and_the_other_types_have_their_parts(records):
    minions = [c for c in records.cards if c.type == "minion"]
    assert all(len(c.triggers) == 4 and c.subtype and c.strength is not None for c in minions)
    assert sum(c.conditional is not None for c in minions) > len(minions) / 2
    assert {c.conditional.doom for c in minions if c.conditional} == DOOMS
    kinds = {c.conditional.text.startswith("«") for c in minions if c.conditional}
    assert kinds == {True, False}  # one-time summon effects and continual ones
    fates = [c for c in records.cards if c.type == "fate"]
    assert {c.subtype for c in fates} == {"Invocation", "Curse", "Tactic", "Mishap"}
    assert sum("target" in c.text.lower() for c in fates) > len(fates) / 2
    assert any("strength 2- minion" in c.text for c in records.cards)
    assert any("until end of turn" in c.text for c in fates)
    gods = [c for c in records.cards if c.type == "god"]
    assert all(c.text.startswith("«") and "»\n" in c.text for c in gods)
    relics = [c for c in records.cards if c.type == "relic"]
    timed = ("continual", "ready", "end_of_turn", "end_of_your_turn")
    assert all(any(e.get("on") in timed for e in c.effects) for c in relics)


def test_costs_include_x_and_zero(records):
    costs = {c.cost for c in records.cards}
    assert "0" in costs and {"X", "X+1", "X+2"} <= costs
    melt = next(c for c in records.cards if c.name == "Melt")
    assert melt.cost == "X+2" and "X damage to target abomination" in melt.text


def test_every_keyword_is_on_three_cards_with_varied_parameters(records, uses):
    cards_with = {kw.slug: set() for kw in records.keywords}
    params = {kw.slug: set() for kw in records.keywords}
    for card, use in uses:
        cards_with[use.keyword].add(card.slug)
        params[use.keyword].add(tuple(sorted((k, str(v)) for k, v in use.params.items())))
    for slug, cards in cards_with.items():
        assert len(cards) >= 3, f"{slug}: only on {sorted(cards)}"
    for slug in ("evader", "nemesis", "soulbound"):
        assert {dict(p)["doom"] for p in params[slug]} == DOOMS, slug
    for slug in ("rager", "reaper", "survivor", "follower"):
        assert len(params[slug]) >= 2, slug
    sizes = {dict(p)["size"] for p in params["tap"]}
    assert len(sizes) >= 3, sizes


def test_at_least_80_rulings_each_dated_sourced_and_citing_rules(records):
    rulings = [r for c in records.cards for r in c.rulings]
    assert len(rulings) >= 80
    assert all(r.date and r.source and r.rules for r in rulings)
    numbers = {c.number for c in records.clauses}
    assert {n for r in rulings for n in r.rules} <= numbers
    # rulings sit on many cards, not a few
    assert sum(bool(c.rulings) for c in records.cards) >= 70


def test_the_pool_says_it_is_original(records):
    assert "original" in records.info.card_pool_note
