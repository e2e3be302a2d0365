"""Cave Evil's card pool: every file valid against the card model and its committed JSON
Schema, every cross-field check clean, clean through the loader and verification (cited rules
exist, facet values are declared), and the pool in the numbers the game needs (70 a
conjuration deck, 42 excavation cards, five each of the special cards, 40 rulings and more)."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import jsonschema
import pytest
import yaml
from typer.testing import CliRunner

from charnel import pipeline, registry
from charnel.cli import app
from charnel.diagnostics import Origin, Problems
from charnel.games.cave_evil.cards import (
    ATTRIBUTES,
    CONJURATION,
    SPACE,
    VOCABULARY,
    CaveEvilCard,
    card_problems,
    check_cards,
)
from charnel.sources import yamltext
from charnel.sources.validate import validate

REPO = Path(__file__).resolve().parents[3]
HERE = Path(__file__).resolve().parent
POOL = REPO / "cards" / "cave-evil"


def read(path: Path, problems: Problems) -> CaveEvilCard | None:
    rel = path.relative_to(REPO).as_posix()
    doc = yamltext.parse(path.read_text(encoding="utf-8"), Origin(rel), problems)
    card = validate(CaveEvilCard, doc, problems, what="card file") if doc else None
    if card is not None:
        card._slug, card._set_code = path.stem, path.parent.name
    return card


@pytest.fixture(scope="module")
def pool() -> list[CaveEvilCard]:
    problems = Problems()
    cards = [read(path, problems) for path in sorted(POOL.glob("*/*.yaml"))]
    check_cards([c for c in cards if c is not None], problems)
    assert not problems, "\n".join(str(p) for p in problems)
    return [c for c in cards if c is not None]


def of(pool, group):
    return [c for c in pool if c.set_code == group]


def test_every_card_file_is_valid_and_legal(pool):
    assert pool


def test_the_pool_loads_and_verifies_clean():
    """Through the loader and verification: cited rules exist, facets hold declared values."""
    problems = Problems()
    verified = pipeline.check(REPO, "cave-evil", problems)
    assert verified is not None and not problems, "\n".join(str(p) for p in problems)
    assert len(verified.records.cards) == len(list(POOL.glob("*/*.yaml")))


def test_every_card_file_satisfies_the_committed_schema(tmp_path: Path):
    committed = REPO / "schema" / "cave-evil-card.json"
    result = CliRunner().invoke(
        app, ["schema", "--root", str(REPO), "--out", str(tmp_path), "-g", "cave-evil"]
    )
    assert result.exit_code == 0, result.output
    assert committed.read_text(encoding="utf-8") == (tmp_path / committed.name).read_text(
        encoding="utf-8"
    ), "schema/cave-evil-card.json is out of date: run charnel schema"
    validator = jsonschema.Draft202012Validator(json.loads(committed.read_text(encoding="utf-8")))
    for path in sorted(POOL.glob("*/*.yaml")):
        text = path.read_text(encoding="utf-8")
        assert text.startswith(f"# yaml-language-server: $schema=../../../schema/{committed.name}")
        errors = [e.message for e in validator.iter_errors(yaml.safe_load(text))]
        assert not errors, (path.name, errors)


def test_four_conjuration_decks_of_70_and_120_distinct_cards(pool):
    conjured = [c for c in pool if c.set_code in CONJURATION]
    assert len(conjured) >= 120
    for deck in CONJURATION:
        assert sum(c.copies for c in of(pool, deck)) == 70, deck


def test_the_decks_have_their_characters(pool):
    """Bribe few events, Summon more, the Abyss most; Construct the most items; Bribe the most
    small excavators; Summon the biggest creatures."""
    def copies(deck, kind):
        return sum(c.copies for c in of(pool, deck) if c.type == kind)

    events = {deck: copies(deck, "event") for deck in CONJURATION}
    assert events["bribe"] < events["construct"] < events["summon"] < events["abyss"]
    items = {deck: copies(deck, "item") for deck in CONJURATION}
    assert max(items, key=items.get) == "construct"
    diggers = Counter(c.set_code for c in pool if c.type == "creature" and c.excavation
                      and c.size in ("small", "trinket") for _ in range(c.copies))
    assert max(diggers, key=diggers.get) == "bribe"

    def mean_space(deck):
        creatures = [c for c in of(pool, deck) if c.type == "creature"]
        return sum(SPACE[c.size] * c.copies for c in creatures) / sum(c.copies for c in creatures)

    assert mean_space("summon") > max(mean_space("bribe"), mean_space("construct"))
    abyss_costs = {r for c in of(pool, "abyss") if c.cost for r in ("metals", "gore",
                   "shadowflame") if getattr(c.cost, r)}
    assert abyss_costs == {"metals", "gore", "shadowflame"}


def test_bigger_creatures_are_stronger_and_dearer(pool):
    creatures = [c for c in pool if c.type == "creature"]
    by_size: dict[str, list[CaveEvilCard]] = {}
    for card in creatures:
        by_size.setdefault(card.size, []).append(card)
    order = ("trinket", "small", "medium", "large")
    means = [sum(c.attributes.total for c in by_size[s]) / len(by_size[s]) for s in order]
    costs = [sum(c.cost.total for c in by_size[s]) / len(by_size[s]) for s in order]
    assert means == sorted(means) and costs == sorted(costs)


def test_the_cards_around_the_decks(pool):
    assert [(c.name, c.copies) for c in of(pool, "necromonk")] == [("Necromonk", 4)]
    for group in ("awakening-evil", "protector"):
        assert len(of(pool, group)) == 5, group
    assert sum(c.copies for c in of(pool, "excavation")) == 42
    # five necromancers and the Black Wizard's two split cards, which have no ability (L53)
    uses = Counter(c.ability_use for c in of(pool, "necromancer"))
    assert uses == {"once_per_game": 4, "permanent": 1, None: 2}


def test_black_diamond_cards_are_the_ones_the_rulebook_names(pool):
    marked = {(c.set_code, c.name) for c in pool if c.black_diamond}
    assert {("abyss", "Demonic Wind"), ("abyss", "Necrotic Devil")} <= marked
    assert all(c.black_diamond for c in of(pool, "protector"))
    tiles = {c.name: c.abilities for c in of(pool, "excavation") if c.black_diamond}
    assert sum(c.copies for c in of(pool, "excavation") if c.black_diamond) == 4
    assert all(any(a.get("tile") in ("shrine", "temple") for a in v) for v in tiles.values())


def test_the_cards_set_aside_for_a_first_game_are_marked(pool):
    """Rule 4.1c names them: Black Diamond cards aside, these leave a first game too."""
    aside = {(c.set_code, c.name) for c in pool if not c.first_game}
    assert aside == {
        ("abyss", "Astral Worm"), ("abyss", "Brain Sentry"), ("abyss", "Incur Wrath"),
        ("abyss", "Slave Revolt"), ("summon", "Mind Chanter"), ("summon", "Mind Control"),
        ("summon", "Obscene Romance"), ("awakening-evil", "Evil Black Old Goat"),
    }
    assert next(c for c in pool if c.name == "Mind Control").copies == 2


def test_every_ability_of_the_vocabulary_is_on_some_card(pool):
    used = {name for c in pool for a in c.abilities for name in a}
    assert used == set(VOCABULARY)
    bound = {attr for c in pool for a in c.abilities for attr in a.get("binding", {})}
    assert bound == {*ATTRIBUTES, "against"}


def test_at_least_40_rulings_each_citing_a_clause(pool):
    rulings = [r for c in pool for r in c.rulings]
    assert len(rulings) >= 40
    assert all(r.rules for r in rulings)


@pytest.mark.parametrize(
    ("fields", "group", "message"),
    [
        ({"type": "creature", "cost": {"gore": 2}}, "construct", "needs 'attributes'"),
        ({"type": "event", "cost": {"gore": 2}}, "construct", "an event has no resource cost"),
        ({"type": "item", "cost": {"gore": 2}}, "construct", "an item needs its 'use'"),
        ({"type": "spell", "cost": {"metals": 2}}, "construct", "every construct card costs gore"),
        ({"type": "spell", "cost": {}}, "abyss", "at least one resource"),
        ({"type": "spell", "cost": {"gore": 1}, "abilities": [{"fly": 1}]}, "abyss",
         "unknown ability 'fly'"),
        ({"type": "spell", "cost": {"gore": 1}, "abilities": [{"binding": {"st": 3}}]}, "abyss",
         "'binding' is for creature"),
        ({"type": "item", "use": "always_use", "cost": {"gore": 1},
          "abilities": [{"bonus": {"xx": 3}}]}, "abyss", "'xx' is not an attribute"),
        ({"type": "event", "trinket": True}, "abyss", "only items have 'trinket'"),
        ({"type": "protector"}, "protector", "every protector is a Black Diamond card"),
        ({"type": "excavation", "abilities": [{"tile": "shrine"}]}, "excavation",
         "shrine excavation cards are Black Diamond"),
        ({"type": "necromancer"}, "bribe", "the bribe cards are creature, item, spell or event"),
    ],
)
def test_checks_that_span_fields(fields, group, message):
    card = CaveEvilCard.model_validate({"name": "Test", **fields})
    found = [m for _, m in card_problems(card, group)]
    assert any(message in m for m in found), found


def test_the_card_page_of_the_docs_names_every_field_and_ability():
    from charnel.games.cave_evil.cards import FIELDS, SPAWN_ROLLS, TILES

    doc = (registry.get("cave-evil").docs_dir / "cards.md").read_text(encoding="utf-8")
    for name in [f.name for f in FIELDS] + list(VOCABULARY) + list(TILES) + list(SPAWN_ROLLS):
        assert f"`{name}`" in doc, name


def test_bad_cards_are_located_problems(tmp_path: Path):
    """Each bad card of fixtures/cave-evil-bad-cards is reported at its place, with its line
    shown, in one run that exits 1 without a traceback."""
    fixture = HERE / "fixtures" / "cave-evil-bad-cards"
    shutil.copytree(REPO / "rules" / "cave-evil", tmp_path / "rules" / "cave-evil")
    shutil.copytree(fixture / "cards", tmp_path / "cards")
    result = CliRunner().invoke(app, ["check", "--root", str(tmp_path), "-g", "cave-evil"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    lines = result.output.splitlines()
    expected = [
        line for line in (fixture / "expected.txt").read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("#")
    ]
    for want in expected:
        place, _, message = want.partition(": ")
        found = [i for i, line in enumerate(lines) if line.startswith(place + ": ")]
        assert any(message in lines[i] for i in found), (want, result.output)
        assert any(lines[i + 1].strip() for i in found if i + 1 < len(lines)), want


def test_the_pool_keeps_what_the_rulebook_states():
    facts = yaml.safe_load(
        (HERE / "fixtures" / "cave_evil_rulebook_facts.yaml").read_text("utf-8")
    )
    for name, want in facts.items():
        card = yaml.safe_load((POOL / f"{name}.yaml").read_text("utf-8"))
        for field, value in want.items():
            got = card.get(field)
            if isinstance(value, dict) and isinstance(got, dict):
                got = {k: got.get(k) for k in value}
            if isinstance(value, list) and isinstance(got, list):  # stated among what it has
                got = [g for g in got if g in value]
            assert got == value, (name, field)
    dracor = yaml.safe_load((POOL / "summon" / "dracor.yaml").read_text("utf-8"))
    assert dracor["movement"] >= 5  # it moved 5 spaces the turn it was invoked (L703)
