"""Coverage: how much printed card text the game's engine runs, counted by sentence
(`charnel.coverage`). Dice Duel encodes its champions' one sentence; any other is text only."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from projects import DUEL, copy_project, only_game
from typer.testing import CliRunner

from charnel import coverage, pipeline
from charnel.cli import app
from charnel.diagnostics import Problems

GAME = only_game(DUEL)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return copy_project(tmp_path, DUEL)


def measured(root: Path) -> coverage.Coverage:
    problems = Problems()
    verified = pipeline.check(root, GAME, problems)
    assert not problems, [p.render(root) for p in problems]
    return coverage.measure(verified)


def add_sentence(root: Path, name: str, sentence: str) -> None:
    (path,) = [p for p in (root / "cards" / GAME).rglob("*.yaml") if f"name: {name}\n" in
               p.read_text(encoding="utf-8")]
    text = path.read_text(encoding="utf-8")
    old = "text: Each blow of this champion adds its might."
    path.write_text(text.replace(old, f"{old} {sentence}"), encoding="utf-8")


def test_sentences_split_at_full_stops_and_line_ends():
    assert coverage.sentences("Gain 1 soul. Draw a card.") == ["Gain 1 soul.", "Draw a card."]
    assert coverage.sentences("«Draw a card.»\nThen rest.") == ["«Draw a card.»", "Then rest."]
    assert coverage.sentences("Deal 2.5 damage") == ["Deal 2.5 damage"]
    assert coverage.sentences("  ") == []


def test_every_champion_runs_in_full(project: Path):
    figure = measured(project)
    assert (figure.executable, figure.total) == (3, 3)
    assert figure.figure == "3/3 cards fully executable (100.0%)"


def test_a_sentence_nothing_encodes_leaves_the_card_text_only(project: Path):
    add_sentence(project, "Ash Page", "It glows.")
    card = measured(project).by_card()["ash-page"]
    assert not card.executable
    assert card.missing == ["Each blow of this champion adds its might", "It glows"]
    assert card.reason_problem == "is not fully executable and gives no reason"


def test_check_coverage_prints_the_figure_and_the_gaps(project: Path):
    add_sentence(project, "Ash Page", "It glows.")
    result = CliRunner().invoke(app, ["check", "--root", str(project), "--coverage"])
    assert result.exit_code == 0, result.output
    assert "2/3 cards fully executable (66.7%)" in result.stdout
    assert "not executable:" in result.stdout and "ash-page" in result.stdout


def test_the_database_holds_the_figure_and_each_cards_flag(project: Path):
    add_sentence(project, "Ash Page", "It glows.")
    database = pipeline.build(project, GAME, project / "build").database
    conn = sqlite3.connect(database)
    try:
        meta = dict(conn.execute("SELECT key, value FROM meta"))
        flags = dict(conn.execute("SELECT id, executable FROM cards"))
    finally:
        conn.close()
    assert (meta["cards_executable"], meta["cards_total"]) == ("2", "3")
    assert meta["coverage"] == "2/3 cards fully executable (66.7%)"
    assert flags == {"ash-page": 0, "cinder-knight": 1, "rime-warden": 1}
