"""`charnel schema`: JSON Schema for card files that accepts the real cards and catches mistakes."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema as validator
import pytest
import yaml
from projects import DUEL, copy_project, only_game
from typer.testing import CliRunner

from charnel import registry
from charnel.cli import app

GAME = only_game(DUEL)
# a field whose values come from one of game.yaml's lists
FACET = next(f.name for f in registry.get(GAME).fields if f.facet)


@pytest.fixture
def schema_file(tmp_path: Path) -> Path:
    copy_project(tmp_path, DUEL)
    result = CliRunner().invoke(app, ["schema", "--root", str(tmp_path)])
    assert result.exit_code == 0, result.output
    return tmp_path / "schema" / f"{GAME}-card.json"


def test_schema_accepts_every_fixture_card(schema_file: Path):
    schema = json.loads(schema_file.read_text())
    validator.Draft202012Validator.check_schema(schema)
    cards = sorted((DUEL / "cards").rglob("*.yaml"))
    assert len(cards) == 3
    for path in cards:
        validator.validate(yaml.safe_load(path.read_text()), schema)


@pytest.mark.parametrize(
    "change",
    [
        {"colour": "grey"},  # unknown field
        {"type": "artifact"},  # not a card type of game.yaml
        {FACET: "mythic"},  # not a value of its list
        {"might": "three"},
        {"name": 3},
    ],
)
def test_schema_rejects_mistakes(schema_file: Path, change: dict):
    schema = json.loads(schema_file.read_text())
    card = yaml.safe_load((DUEL / f"cards/{GAME}/embers/cinder-knight.yaml").read_text())
    with pytest.raises(validator.ValidationError):
        validator.validate({**card, **change}, schema)


def test_schema_is_written_the_same_each_time(schema_file: Path):
    first = schema_file.read_bytes()
    root = schema_file.parent.parent
    CliRunner().invoke(app, ["schema", "--root", str(root)])
    assert schema_file.read_bytes() == first


def test_schema_reports_a_broken_game_yaml(tmp_path: Path):
    copy_project(tmp_path, DUEL)
    (tmp_path / f"rules/{GAME}/game.yaml").write_text("id: [\n")
    result = CliRunner().invoke(app, ["schema", "--root", str(tmp_path), "--out", str(tmp_path)])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"rules/{GAME}/game.yaml:2:1: YAML syntax error")
