"""Every card file validates against the JSON Schema of its game's card model.

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

REPO = Path(__file__).resolve().parent.parent
CARD_FILES = sorted((REPO / "cards" / "hecatomb").glob("*/*.yaml"))


def card_schema(tmp_path: Path) -> dict:
    """The schema `charnel schema` writes for editors."""
    result = CliRunner().invoke(app, ["schema", "--root", str(REPO), "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    return json.loads((tmp_path / "schema" / "hecatomb-card.json").read_text(encoding="utf-8"))


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
        {k: v for k, v in card.items() if k != "name"},
    ):
        assert not validator.is_valid(broken), broken
