"""Hecatomb's card files validate against the JSON Schema of its card model.

That schema is what editors use to autocomplete card files (`charnel schema` writes it);
a card file that the loader accepts must also satisfy it, and a broken one must not.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml
from typer.testing import CliRunner

from charnel.cli import app

REPO = Path(__file__).resolve().parents[3]
CARD_FILES = sorted((REPO / "cards" / "hecatomb").glob("*/*.yaml"))


def test_the_committed_schema_is_current(tmp_path: Path):
    """Card files point editors at schema/<game>-card.json: it must say what the game says."""
    written = json.dumps(card_schema(tmp_path), indent=2, sort_keys=True, ensure_ascii=False)
    committed = REPO / "schema" / "hecatomb-card.json"
    assert committed.read_text(encoding="utf-8") == written + "\n", (
        "schema/hecatomb-card.json is out of date: run charnel schema"
    )


def card_schema(tmp_path: Path) -> dict:
    """The schema `charnel schema` writes for editors."""
    result = CliRunner().invoke(app, ["schema", "--root", str(REPO), "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    return json.loads((tmp_path / "hecatomb-card.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def validator(tmp_path_factory):
    schema = card_schema(tmp_path_factory.mktemp("schema"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_there_are_card_files():
    assert len(CARD_FILES) >= 150


@pytest.mark.parametrize("path", CARD_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_card_file_validates(validator, path: Path):
    card = yaml.safe_load(path.read_text(encoding="utf-8"))
    errors = [f"{'.'.join(map(str, e.path))}: {e.message}" for e in validator.iter_errors(card)]
    assert errors == []


def test_schema_rejects_what_the_loader_rejects(validator):
    card = yaml.safe_load((REPO / "cards/hecatomb/base/grave-hound.yaml").read_text())
    for broken in (
        {**card, "strenght": 3},  # unknown field: editors flag typos
        {**card, "doom": "purple"},
        {**card, "triggers": ["greed"]},
        {**card, "strength": "three"},
        {**card, "keywords": [{"harvest": 1}]},  # not a keyword of the glossary
        {k: v for k, v in card.items() if k != "name"},
    ):
        assert not validator.is_valid(broken), broken


def test_every_card_file_points_at_the_committed_schema():
    for path in CARD_FILES:
        first = path.read_text(encoding="utf-8").splitlines()[0]
        target = first.partition("$schema=")[2]
        assert target and (path.parent / target).resolve().is_file(), f"{path}: {first}"
