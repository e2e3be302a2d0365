"""`charnel odds`: cards by name, a table or JSON, and one clear line for a bad side."""

from __future__ import annotations

import json
from pathlib import Path

import cave_evil_game
import pytest
from typer.testing import CliRunner

from charnel.cli import app
from charnel.games.cave_evil.engine.fight import ATTRIBUTE_NAMES
from charnel.games.cave_evil.odds_report import fight_odds

HERE = Path(__file__).parent
REPO = HERE.parents[2]


@pytest.fixture
def cave(tmp_path: Path) -> Path:
    """A project of the fight fixtures as card files, the game registered for the test."""
    with cave_evil_game.registered():
        yield cave_evil_game.make_project(tmp_path)


def odds(root: Path, *args: str):
    return CliRunner().invoke(app, ["odds", *args, "--root", str(root), "--game", "cave-evil"])


def test_table_per_first_attribute(cave):
    result = odds(
        cave, "Hunched One, Cavelling, Ghoul", "Necromonk, Horned Hellion + Cool Stretchy Headband"
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "0.9959" in result.output and "best first: wp (0.9976)" in result.output
    # the odds, then the whole outcome: a row per first attribute in each table
    assert (
        sum(line.startswith(("│ st", "│ sp", "│ dd", "│ bt", "│ ar", "│ wp")) for line in lines)
        == 12
    )
    outcome = [line for line in lines if line.startswith("│ st")][1]
    assert [c.strip() for c in outcome.split("│")[2:6]] == ["0.9930", "0.0029", "0.0041", "0.0000"]
    assert "2.99/0.01" in outcome


def test_json_equals_the_function(cave):
    result = odds(cave, "Spitting Grub", "Cavelling", "--mode", "ranged", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (
        data
        == fight_odds(cave_evil_game.FIGHTERS, "Spitting Grub", "Cavelling", ["ranged"])["data"]
    )
    assert [row["first"] for row in data["odds"]] == ["wp"]
    assert data["odds"][0]["attacker_dies"] == "0.0000"


@pytest.mark.parametrize(
    ("attacker", "defender", "more", "message"),
    [
        (
            "Gohul",
            "Cavelling",
            [],
            "error: no creature, item or spell named 'Gohul'; nearest: 'Ghoul'",
        ),
        (
            "Ghoul",
            "Spiked Shield",
            [],
            "error: the defender's squad 'Spiked Shield': a squad holds at least one creature",
        ),
        (
            "Ghoul",
            "Cavelling",
            ["--mode", "sneaky"],
            "error: unknown mode 'sneaky' (known: ranged, ranged-defence, separately)",
        ),
        (
            "Ghoul",
            "Cavelling",
            ["--mode", "ranged"],
            "error: a ranged attack needs a creature with a ranged ability (rule 12.2b)",
        ),
    ],
)
def test_bad_sides_get_one_line(cave, attacker, defender, more, message):
    result = odds(cave, attacker, defender, *more)
    assert result.exit_code == 1
    assert result.output.strip() == message


def test_the_game_answers_for_the_bundled_cards():
    """The installed game's hooks over the bundled card pool, as the loader reads it."""
    from charnel.diagnostics import Problems
    from charnel.games.cave_evil import game
    from charnel.sources import loader

    problems = Problems()
    records = loader.load(REPO, "cave-evil", problems)
    assert records is not None and not problems
    report = game.fight_odds(
        records,
        "Hunched One, Cavelling, Ghoul",
        "Necromonk, Horned Hellion + Cool Stretchy Headband",
        [],
    )
    assert [row[0] for row in report["rows"]] == list(ATTRIBUTE_NAMES)
    (page,) = [p for p in game.site_pages(records) if "fight/pool.json" in p.files]
    pool = json.loads(page.files["fight/pool.json"])
    named = {f["name"]: f for f in pool["fighters"]}
    assert named["Hunched One"]["card"]["abilities"] == [{"binding": {"st": -3}}]
    assert named["Cool Stretchy Headband"]["kind"] == "item"
    with pytest.raises(ValueError, match="nearest: 'Ghoul'"):
        game.fight_odds(records, "Ghoull", "Cavelling", [])


def test_without_game_the_one_game_with_fights_answers():
    """In the bundled project Hecatomb has no fights to give odds for: Cave Evil answers."""
    result = CliRunner().invoke(app, ["odds", "Ghoul", "Cavelling", "--root", str(REPO)])
    assert result.exit_code == 0, result.output
    assert "Ghoul attacking Cavelling" in result.stdout


def test_a_name_with_terminal_controls_is_shown_escaped(cave):
    """A name that would clear the screen and retitle the terminal is shown as text."""
    result = odds(cave, "Gh\x1b[2J\x1b]0;owned\x07oul", "Cavelling")
    assert result.exit_code == 1
    shown = result.stderr + result.stdout
    assert "\x1b" not in shown and "\x07" not in shown
    assert "Gh\\x1b[2J\\x1b]0;owned\\x07oul" in result.stderr


def test_items_that_do_not_count_are_named():
    """A Carry Only creature's item, and a Mace against a Mirror, are carried but not counted:
    the report names them."""
    from charnel.diagnostics import Problems
    from charnel.sources import loader

    records = loader.load(HERE.parents[2], "cave-evil", Problems())
    report = fight_odds(
        records.cards, "Cavelling + Spiked Shield / Ghoul + Mourning Face Mace",
        "Ghoul + Opposition Mirror",
    )
    assert report["data"]["attacker"]["idle"] == ["Spiked Shield", "Mourning Face Mace"]
    assert report["data"]["defender"]["idle"] == ["Opposition Mirror"]
    assert report["title"].endswith(
        "not counted: Spiked Shield, Mourning Face Mace, Opposition Mirror"
    )
