"""Releases and what changed between them, on a small project whose releases each test cuts:
clause identity across renumbering, removal and re-adding, errata computed functional or not,
and every inconsistent history a located problem."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from projects import DUEL, copy_project, only_game
from typer.testing import CliRunner

from charnel.cli import app
from charnel.diagnostics import Problems
from charnel.history import book

GAME = only_game(DUEL)
RULES = Path(f"rules/{GAME}")
DUELLISTS = f"rules/{GAME}/01-duellists.md"  # clauses 1.1a and 1.1b
BLOWS = f"rules/{GAME}/02-blows.md"  # clause 1.1a
LIFE = "1.1a Each duellist starts with 10 life"
KNIGHT = f"cards/{GAME}/embers/cinder-knight.yaml"
FALLEN_TEXT = "A duellist whose life is 0 or less has fallen and strikes no more [[blow|blows]]."
FALLEN = f"1.1b {FALLEN_TEXT} [p. 1]"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return copy_project(tmp_path, DUEL)


def edit(root: Path, path: str, old: str, new: str) -> None:
    target = root / path
    text = target.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    target.write_text(text.replace(old, new, 1), encoding="utf-8")


def cut(root: Path, version: str, changes: str = ""):
    """Cut `version` of the one game in the project at `root`."""
    (game,) = (root / "rules").glob("*/game.yaml")
    game.write_text(
        re.sub(r'rules_version: "[^"]*"', f'rules_version: "{version}"', game.read_text()),
    )
    if changes:
        (game.parent / "changes.yaml").write_text(changes, encoding="utf-8")
    return CliRunner().invoke(app, ["release", version, "--root", str(root)])


def diff(root: Path, old: str, new: str, *more: str):
    return CliRunner().invoke(app, ["diff", old, new, "--root", str(root), *more])


def history(root: Path) -> book.History:
    problems = Problems()
    found = book.read(root, GAME, problems)
    assert found is not None, list(problems)
    return found


def test_a_renumbered_clause_keeps_its_identity(root: Path):
    assert cut(root, "0.1").exit_code == 0
    edit(root, DUELLISTS, FALLEN, FALLEN.replace("1.1b", "1.1c"))
    edit(root, DUELLISTS, LIFE, "1.1a A duel starts with both duellists standing. [p. 1]\n\n"
         + LIFE.replace("1.1a", "1.1b"))
    result = cut(root, "0.2", "renumbered:\n  1.1a: 1.1b\n  1.1b: 1.1c\nclauses:\n"
                 "  1.1a: Says how a duel starts.\n")
    assert result.exit_code == 0, result.output
    lineage = history(root).lineage
    assert lineage.identity("0.2", "1.1b") == lineage.identity("0.1", "1.1a") == "0.1/1.1a"
    assert lineage.identity("0.2", "1.1a") == "0.2/1.1a"
    assert lineage.current("0.1/1.1b", "0.2") == "1.1c"
    shown = diff(root, "0.1", "0.2")
    assert shown.exit_code == 0, shown.output
    assert "1.1a added: Says how a duel starts." in shown.stdout
    assert "1.1a -> 1.1b renumbered" in shown.stdout and "1.1b -> 1.1c renumbered" in shown.stdout
    data = json.loads(diff(root, "0.1", "0.2", "--json").stdout)
    kinds = {(c["old_number"], c["new_number"]): c["kinds"] for c in data["clauses"]}
    assert kinds == {(None, "1.1a"): ["added"], ("1.1a", "1.1b"): ["renumbered"],
                     ("1.1b", "1.1c"): ["renumbered"]}


def test_a_release_after_one_that_renumbered_is_checked_against_it_not_as_the_first(root: Path):
    assert cut(root, "0.1").exit_code == 0
    edit(root, DUELLISTS, FALLEN, FALLEN.replace("1.1b", "1.1c"))
    edit(root, DUELLISTS, LIFE, "1.1a A duel starts with both duellists standing. [p. 1]\n\n"
         + LIFE.replace("1.1a", "1.1b"))
    second = cut(root, "0.2", "renumbered:\n  1.1a: 1.1b\n  1.1b: 1.1c\n")
    assert second.exit_code == 0, second.output
    third = cut(root, "0.3")
    assert third.exit_code == 0, third.output
    assert (root / f"releases/{GAME}/0.3/release.yaml").is_file()


def test_a_changed_clause_shows_its_words(root: Path):
    assert cut(root, "0.1").exit_code == 0
    edit(root, DUELLISTS, "with 10 life", "with 12 life")
    assert cut(root, "0.2").exit_code == 0
    shown = diff(root, "0.1", "0.2")
    assert "1.1a changed" in shown.stdout and "[-10-]{+12+}" in shown.stdout


def test_a_removed_clause_that_comes_back_is_a_new_clause(root: Path):
    assert cut(root, "0.1").exit_code == 0
    edit(root, DUELLISTS, FALLEN + "\n", "")
    assert cut(root, "0.2").exit_code == 0
    assert "1.1b removed" in diff(root, "0.1", "0.2").stdout
    edit(root, DUELLISTS, "[p. 1]\n", "[p. 1]\n\n" + FALLEN + "\n")
    assert cut(root, "0.3").exit_code == 0
    assert "1.1b added" in diff(root, "0.2", "0.3").stdout
    across = diff(root, "0.1", "0.3").stdout  # two clauses that shared a number, not one
    assert "1.1b added" in across and "1.1b removed" in across
    lineage = history(root).lineage
    assert lineage.ever("1.1b") == ["0.1/1.1b", "0.3/1.1b"]
    assert lineage.current("0.1/1.1b", "0.3") is None


def test_errata_are_functional_only_when_the_engine_sees_a_difference(root: Path):
    assert cut(root, "0.1").exit_code == 0
    # at might 9 its first blow fells the other duellist, who can then strike no more: the
    # example of three blows that it is run in refuses a step
    edit(root, KNIGHT, "might: 3", "might: 9")
    page = f"cards/{GAME}/embers/ash-page.yaml"
    edit(root, page, "text: Each blow", "text: Every blow")
    result = cut(root, "0.2", "cards:\n  cinder-knight: Stronger.\n  ash-page: Clearer.\n")
    assert result.exit_code == 0, result.output
    cards = {c["slug"]: c for c in json.loads(diff(root, "0.1", "0.2", "--json").stdout)["cards"]}
    assert cards["cinder-knight"]["functional"] is True and cards["cinder-knight"]["encoding"]
    assert cards["ash-page"]["functional"] is False and not cards["ash-page"]["encoding"]
    assert cards["ash-page"]["wording"]["text"] == [
        ["-", "Each"], ["+", "Every"], ["=", " blow of this champion adds its might."]]


def test_an_encoding_change_no_example_sees_is_not_functional(root: Path):
    assert cut(root, "0.1").exit_code == 0
    edit(root, KNIGHT, "clan: ember", "clan: frost")  # no rule reads a champion's clan
    assert cut(root, "0.2").exit_code == 0
    text = diff(root, "0.1", "0.2").stdout
    assert "Cinder Knight erratum, not functional" in text
    assert "encoding changed: every result the same" in text


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ("renumbered:\n  1.1a: 1.1c\n  1.1b: 1.1c\n", "are both renumbered 1.1c: one clause each"),
        ("renumbered:\n  9.9a: 1.1b\n", "9.9a is not a clause of release 0.1"),
        ("renumbered:\n  1.1a: 7.7z\n", "7.7z is not a clause of release 0.2"),
        ("renumbered:\n  1.1a: 1.1b\n", "1.1b was already a clause of 0.1 and is not renumbered"),
        ("clauses: {}\nrenumbered: [1.1a]\n", "renumbered: input should be a valid dictionary"),
    ],
)
def test_a_renumbering_that_does_not_fit_is_refused_at_its_place(root, changes, message):
    assert cut(root, "0.1").exit_code == 0
    result = cut(root, "0.2", changes)
    assert result.exit_code == 1
    assert f"rules/{GAME}/changes.yaml:2:" in result.stderr and message in result.stderr
    assert not (root / f"releases/{GAME}/0.2").exists()


def test_a_release_cannot_reuse_a_version_or_go_back(root: Path):
    assert cut(root, "0.1").exit_code == 0
    again = cut(root, "0.1")
    assert again.exit_code == 1 and "release 0.1 exists already" in again.stderr
    line = (root / RULES / "game.yaml").read_text().splitlines().index('rules_version: "0.1"')
    assert f"rules/{GAME}/game.yaml:{line + 1}:" in again.stderr
    back = cut(root, "0.0")
    assert back.exit_code == 1 and "would come before 0.1" in back.stderr


def test_a_release_must_be_the_version_game_yaml_says(root: Path):
    cut(root, "0.1")
    result = CliRunner().invoke(app, ["release", "0.2", "--root", str(root)])
    assert result.exit_code == 1
    assert "rules_version is 0.1; set it (and rules_date) to cut 0.2" in result.stderr


def test_cutting_empties_the_changes_file_and_freezes_it(root: Path):
    assert cut(root, "0.1").exit_code == 0
    assert cut(root, "0.2", "clauses:\n  1.1a: Why.\n").exit_code == 0
    frozen = root / f"releases/{GAME}/0.2/rules/{GAME}/changes.yaml"
    assert "Why." in frozen.read_text()
    assert "Why." not in (root / RULES / "changes.yaml").read_text()


def test_a_history_edited_by_hand_into_inconsistency_is_a_located_problem(root: Path):
    assert cut(root, "0.1").exit_code == 0
    assert cut(root, "0.2").exit_code == 0
    frozen = root / f"releases/{GAME}/0.2/rules/{GAME}/changes.yaml"
    frozen.write_text("renumbered:\n  1.1a: 1.1b\n  1.1b: 1.1b\n")
    result = diff(root, "0.1", "0.2")
    assert result.exit_code == 1
    assert f"releases/{GAME}/0.2/rules/{GAME}/changes.yaml:3:" in result.stderr
    release_file = root / f"releases/{GAME}/0.2/release.yaml"
    release_file.write_text("version: '0.3'\ndate: '2026-01-01'\n")
    moved = diff(root, "0.1", "0.2")
    assert f"releases/{GAME}/0.2/release.yaml:1:10: release 0.3 is in the folder of 0.2" in (
        moved.stderr
    )


def test_diff_names_releases_that_exist(root: Path):
    assert cut(root, "0.1").exit_code == 0
    result = diff(root, "0.1", "0.9")
    assert result.exit_code == 1 and f"no release 0.9 of {GAME} (releases: 0.1)" in result.stderr


def test_a_new_release_makes_the_build_run_again(root: Path):
    from charnel import pipeline

    out = root / "out"
    pipeline.build(root, GAME, out)
    assert pipeline.build(root, GAME, out).up_to_date
    assert cut(root, "0.1").exit_code == 0
    assert not pipeline.build(root, GAME, out).up_to_date


def test_a_broken_release_stops_the_build_at_its_place(root: Path):
    from charnel import pipeline
    from charnel.diagnostics import InputError

    assert cut(root, "0.1").exit_code == 0
    (root / f"releases/{GAME}/0.1/release.yaml").write_text("version: '0.1'\ndate: 'soon'\n")
    with pytest.raises(InputError) as raised:
        pipeline.build(root, GAME, root / "out")
    assert any(p.origin.path == f"releases/{GAME}/0.1/release.yaml"
               for p in raised.value.problems)


def test_a_version_of_five_thousand_digits_is_a_located_problem(root: Path):
    version = "1." + "9" * 5000
    result = CliRunner().invoke(app, ["release", version, "--root", str(root)])
    assert result.exit_code == 1 and result.exception is None or isinstance(
        result.exception, SystemExit)
    first = result.stderr.splitlines()[0]
    assert first.startswith(f"rules/{GAME}/game.yaml:1:1: '1.9999")
    assert "is not a version such as 1.1" in first and len(first) < 300


def test_diff_shows_an_added_clause_text_and_a_removed_one_last_text(root: Path):
    assert cut(root, "0.1").exit_code == 0
    edit(root, DUELLISTS, FALLEN + "\n", "")
    edit(root, BLOWS, "[p. 2]\n", "[p. 2]\n\n2.1b A blow that leaves a duellist at 0 life ends "
         "the duel. [p. 2]\n")
    assert cut(root, "0.2", "clauses:\n  2.1b: Says when a duel ends.\n").exit_code == 0
    lines = diff(root, "0.1", "0.2").stdout.splitlines()
    added = lines.index("  2.1b added: Says when a duel ends.")
    assert lines[added + 1] == "      A blow that leaves a duellist at 0 life ends the duel."
    removed = lines.index("  1.1b removed")
    assert lines[removed + 1] == f"      {FALLEN_TEXT}"
    data = json.loads(diff(root, "0.1", "0.2", "--json").stdout)
    texts = {c["new_number"] or c["old_number"]: c["text"] for c in data["clauses"]}
    assert texts == {"2.1b": "A blow that leaves a duellist at 0 life ends the duel.",
                     "1.1b": FALLEN_TEXT}


@pytest.mark.parametrize("version", ["../../etc", "1.0/../../x", "1." + "9" * 5000])
def test_diff_refuses_a_version_before_it_reaches_a_path(root: Path, version: str):
    result = diff(root, version, "0.2")
    assert result.exit_code == 1 and "is not a version such as 1.1" in result.stderr
    assert len(result.stderr) < 300
