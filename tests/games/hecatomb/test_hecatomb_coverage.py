"""Coverage: a card is executable when every non-keyword sentence has an encoded effect."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from typer.testing import CliRunner

from charnel import coverage, pipeline
from charnel.cli import app
from charnel.diagnostics import Problems


def verified(root: Path):
    problems = Problems()
    result = pipeline.check(root, "hecatomb", problems)
    assert not problems, [p.render(root) for p in problems]
    return result


def edit(root: Path, slug: str, old: str, new: str) -> None:
    (path,) = (root / "cards/hecatomb").glob(f"*/{slug}.yaml")
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_keyword_text_needs_no_effects(project: Path):
    by_card = coverage.measure(verified(project)).by_card()
    hound = by_card["grave-hound"]  # Evader and Reaper only
    assert hound.executable and hound.parts == []


def test_each_part_is_measured_on_its_own(project: Path):
    by_card = coverage.measure(verified(project)).by_card()
    assert by_card["sun-drinker-priest"].executable  # tap ability and conditional, both encoded
    labels = [p.label for p in by_card["sun-drinker-priest"].parts]
    assert labels == ["↻3", "conditional"]

    # drop the tap ability's effect: the card is no longer executable, for that part only
    edit(project, "sun-drinker-priest", "- 'on': tap\n", "- 'on': continual\n")
    card = coverage.measure(verified(project)).by_card()["sun-drinker-priest"]
    assert not card.executable
    assert card.missing == ["↻3: Deal 2 damage to target abomination"]


def unencode(root: Path) -> None:
    """The bundled pool is fully executable: take one card's encoding away to have a gap."""
    edit(root, "grave-robbing", "effects:\n- exhume:\n    card: {type: minion}\n", "")


def test_a_sentence_without_an_effect_is_not_executable(project: Path):
    unencode(project)
    before = coverage.measure(verified(project))
    assert "grave-robbing" not in [c.card for c in before.cards if c.executable]
    # two sentences need two effects: remove one of Salvage Rights' two
    edit(project, "salvage-rights", "- draw: {amount: 1}\n", "")
    after = coverage.measure(verified(project))
    assert after.executable == before.executable - 1
    assert after.by_card()["salvage-rights"].missing == ["Gain 1 soul", "Draw a card"]


def test_check_coverage_prints_the_figure(project: Path):
    unencode(project)
    result = CliRunner().invoke(app, ["check", "--root", str(project), "--coverage"])
    assert result.exit_code == 0, result.output
    figure = coverage.measure(verified(project))
    assert f"{figure.executable}/{figure.total} cards fully executable" in result.stdout
    assert "not executable:" in result.stdout and "grave-robbing" in result.stdout
    assert figure.total >= 150 and figure.percent >= 90


def test_database_stores_the_figure_and_the_column(project: Path):
    unencode(project)
    database = pipeline.build(project, "hecatomb", project / "build", force=True).database
    conn = sqlite3.connect(database)
    try:
        meta = dict(conn.execute("SELECT key, value FROM meta"))
        executable, total = conn.execute("SELECT sum(executable), count(*) FROM cards").fetchone()
        flag = conn.execute("SELECT executable FROM cards WHERE id = 'grave-robbing'").fetchone()
    finally:
        conn.close()
    assert (int(meta["cards_executable"]), int(meta["cards_total"])) == (executable, total)
    assert meta["coverage"] == coverage.measure(verified(project)).figure
    assert flag == (0,)
