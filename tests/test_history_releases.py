"""Releases and what changed between them, on a small project whose releases each test cuts:
clause identity across renumbering, removal and re-adding, errata computed functional or not,
and every inconsistent history a located problem."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from projects import SMALL, copy_project, only_game
from typer.testing import CliRunner

from charnel.cli import app
from charnel.diagnostics import Problems
from charnel.history import book

GAME = only_game(SMALL)
RULES = Path(f"rules/{GAME}")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return copy_project(tmp_path, SMALL)


def edit(root: Path, path: str, old: str, new: str) -> None:
    target = root / path
    text = target.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    target.write_text(text.replace(old, new, 1), encoding="utf-8")


def cut(root: Path, version: str, changes: str = ""):
    game = root / RULES / "game.yaml"
    game.write_text(
        re.sub(r'rules_version: "[^"]*"', f'rules_version: "{version}"', game.read_text()),
    )
    if changes:
        (root / RULES / "changes.yaml").write_text(changes, encoding="utf-8")
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
    edit(root, f"rules/{GAME}/02-stacks.md", "2.1b Each new minion goes on top. [pp. 8-9]",
         "2.1c Each new minion goes on top. [pp. 8-9]")
    edit(root, f"rules/{GAME}/02-stacks.md", "2.1a A stack holds",
         "2.1a A stack starts with one minion. [p. 8]\n\n2.1b A stack holds")
    result = cut(root, "0.2", "renumbered:\n  2.1a: 2.1b\n  2.1b: 2.1c\nclauses:\n"
                 "  2.1a: Says how a stack starts.\n")
    assert result.exit_code == 0, result.output
    lineage = history(root).lineage
    assert lineage.identity("0.2", "2.1b") == lineage.identity("0.1", "2.1a") == "0.1/2.1a"
    assert lineage.identity("0.2", "2.1a") == "0.2/2.1a"
    assert lineage.current("0.1/2.1b", "0.2") == "2.1c"
    shown = diff(root, "0.1", "0.2")
    assert shown.exit_code == 0, shown.output
    assert "2.1a added: Says how a stack starts." in shown.stdout
    assert "2.1a -> 2.1b renumbered" in shown.stdout and "2.1b -> 2.1c renumbered" in shown.stdout
    data = json.loads(diff(root, "0.1", "0.2", "--json").stdout)
    kinds = {(c["old_number"], c["new_number"]): c["kinds"] for c in data["clauses"]}
    assert kinds == {(None, "2.1a"): ["added"], ("2.1a", "2.1b"): ["renumbered"],
                     ("2.1b", "2.1c"): ["renumbered"]}


def test_a_release_after_one_that_renumbered_is_checked_against_it_not_as_the_first(root: Path):
    assert cut(root, "0.1").exit_code == 0
    edit(root, f"rules/{GAME}/02-stacks.md", "2.1b Each new minion goes on top. [pp. 8-9]",
         "2.1c Each new minion goes on top. [pp. 8-9]")
    edit(root, f"rules/{GAME}/02-stacks.md", "2.1a A stack holds",
         "2.1a A stack starts with one minion. [p. 8]\n\n2.1b A stack holds")
    second = cut(root, "0.2", "renumbered:\n  2.1a: 2.1b\n  2.1b: 2.1c\n")
    assert second.exit_code == 0, second.output
    third = cut(root, "0.3")
    assert third.exit_code == 0, third.output
    assert (root / f"releases/{GAME}/0.3/release.yaml").is_file()


def test_a_changed_clause_shows_its_words(root: Path):
    assert cut(root, "0.1").exit_code == 0
    edit(root, f"rules/{GAME}/02-stacks.md", "one to four minions", "one to five minions")
    assert cut(root, "0.2").exit_code == 0
    shown = diff(root, "0.1", "0.2")
    assert "2.1a changed" in shown.stdout and "[-four-]{+five+}" in shown.stdout


def test_a_removed_clause_that_comes_back_is_a_new_clause(root: Path):
    assert cut(root, "0.1").exit_code == 0
    edit(root, f"rules/{GAME}/02-stacks.md", "2.1b Each new minion goes on top. [pp. 8-9]\n", "")
    assert cut(root, "0.2").exit_code == 0
    assert "2.1b removed" in diff(root, "0.1", "0.2").stdout
    back = "[p. 8]\n\n2.1b Each new minion goes on top. [pp. 8-9]\n"
    edit(root, f"rules/{GAME}/02-stacks.md", "[p. 8]\n", back)
    assert cut(root, "0.3").exit_code == 0
    assert "2.1b added" in diff(root, "0.2", "0.3").stdout
    across = diff(root, "0.1", "0.3").stdout  # two clauses that shared a number, not one
    assert "2.1b added" in across and "2.1b removed" in across
    lineage = history(root).lineage
    assert lineage.ever("2.1b") == ["0.1/2.1b", "0.3/2.1b"]
    assert lineage.current("0.1/2.1b", "0.3") is None


def test_errata_are_functional_only_when_the_engine_sees_a_difference(root: Path):
    example = (
        "examples:\n- id: three-damage-kills-the-hauler\n  title: 3 damage destroys it\n"
        "  given:\n    abominations:\n      A: {owner: you, minions: [bone-hauler, 1]}\n"
        "  when:\n  - damage: {target: A, amount: 3}\n"
        "  then:\n    abominations:\n      A: {minions: [1]}\n"
    )
    (root / f"cards/{GAME}/base/bone-hauler.yaml").open("a").write(example)
    assert cut(root, "0.1").exit_code == 0
    edit(root, f"cards/{GAME}/base/bone-hauler.yaml", "strength: 3", "strength: 4")
    whisper = f"cards/{GAME}/base/ash-whisper.yaml"
    edit(root, whisper, "text: Move a stack.", "text: Move one stack.")
    result = cut(root, "0.2", "cards:\n  bone-hauler: Stronger.\n  ash-whisper: Clearer.\n")
    assert result.exit_code == 0, result.output
    cards = {c["slug"]: c for c in json.loads(diff(root, "0.1", "0.2", "--json").stdout)["cards"]}
    assert cards["bone-hauler"]["functional"] is True and cards["bone-hauler"]["encoding"]
    assert cards["ash-whisper"]["functional"] is False and not cards["ash-whisper"]["encoding"]
    assert cards["ash-whisper"]["wording"]["text"] == [
        ["=", "Move "], ["-", "a"], ["+", "one"], ["=", " stack."]]


def test_an_encoding_change_no_example_sees_is_not_functional(root: Path):
    assert cut(root, "0.1").exit_code == 0
    edit(root, f"cards/{GAME}/base/bone-hauler.yaml", "strength: 3", "strength: 4")
    assert cut(root, "0.2").exit_code == 0
    text = diff(root, "0.1", "0.2").stdout
    assert "Bone Hauler erratum, not functional" in text
    assert "encoding changed: every result the same" in text


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ("renumbered:\n  2.1a: 2.1c\n  2.1b: 2.1c\n", "are both renumbered 2.1c: one clause each"),
        ("renumbered:\n  9.9a: 2.1b\n", "9.9a is not a clause of release 0.1"),
        ("renumbered:\n  2.1a: 7.7z\n", "7.7z is not a clause of release 0.2"),
        ("renumbered:\n  2.1a: 2.1b\n", "2.1b was already a clause of 0.1 and is not renumbered"),
        ("clauses: {}\nrenumbered: [2.1a]\n", "renumbered: input should be a valid dictionary"),
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
    assert f"rules/{GAME}/game.yaml:6:" in again.stderr
    back = cut(root, "0.0")
    assert back.exit_code == 1 and "would come before 0.1" in back.stderr


def test_a_release_must_be_the_version_game_yaml_says(root: Path):
    result = CliRunner().invoke(app, ["release", "0.2", "--root", str(root)])
    assert result.exit_code == 1
    assert "rules_version is 0.1; set it (and rules_date) to cut 0.2" in result.stderr


def test_cutting_empties_the_changes_file_and_freezes_it(root: Path):
    assert cut(root, "0.1").exit_code == 0
    assert cut(root, "0.2", "clauses:\n  2.1a: Why.\n").exit_code == 0
    frozen = root / f"releases/{GAME}/0.2/rules/{GAME}/changes.yaml"
    assert "Why." in frozen.read_text()
    assert "Why." not in (root / RULES / "changes.yaml").read_text()


def test_a_history_edited_by_hand_into_inconsistency_is_a_located_problem(root: Path):
    assert cut(root, "0.1").exit_code == 0
    assert cut(root, "0.2").exit_code == 0
    frozen = root / f"releases/{GAME}/0.2/rules/{GAME}/changes.yaml"
    frozen.write_text("renumbered:\n  2.1a: 2.1b\n  2.1b: 2.1b\n")
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


def test_the_bundled_1_1_lists_exactly_the_changes_it_made():
    repo = Path(__file__).resolve().parents[1]
    result = CliRunner().invoke(app, ["diff", "1.0", "1.1", "--root", str(repo), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    clauses = {(c["old_number"], c["new_number"], tuple(c["kinds"])) for c in data["clauses"]}
    assert clauses == {
        ("11.1c", "11.1c", ("changed",)),
        (None, "14.13b", ("added",)),
        ("14.13b", "14.13c", ("renumbered",)),
        ("14.13c", "14.13d", ("renumbered",)),
    }
    assert [(t["slug"], t["kind"]) for t in data["terms"]] == [("ripper", "changed")]
    cards = {c["slug"]: (c["kind"], c["functional"]) for c in data["cards"]}
    assert cards == {
        "pay-the-ferryman": ("erratum", False),
        "the-sunken-bell": ("erratum", True),
    }
    explained = [c for c in data["clauses"] if c["kinds"] != ["renumbered"]] + data["cards"]
    assert all(c["reason"] for c in explained)


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
    edit(root, f"rules/{GAME}/02-stacks.md", "2.1b Each new minion goes on top. [pp. 8-9]\n", "")
    edit(root, f"rules/{GAME}/02-stacks.md", "is gone. [p. 9]\n",
         "is gone. [p. 9]\n\n2.3b Its minions go to the graveyard. [p. 9]\n")
    assert cut(root, "0.2", "clauses:\n  2.3b: Says where they go.\n").exit_code == 0
    lines = diff(root, "0.1", "0.2").stdout.splitlines()
    added = lines.index("  2.3b added: Says where they go.")
    assert lines[added + 1] == "      Its minions go to the graveyard."
    removed = lines.index("  2.1b removed")
    assert lines[removed + 1] == "      Each new minion goes on top."
    data = json.loads(diff(root, "0.1", "0.2", "--json").stdout)
    texts = {c["new_number"] or c["old_number"]: c["text"] for c in data["clauses"]}
    assert texts == {"2.3b": "Its minions go to the graveyard.",
                     "2.1b": "Each new minion goes on top."}


@pytest.mark.parametrize("version", ["../../etc", "1.0/../../x", "1." + "9" * 5000])
def test_diff_refuses_a_version_before_it_reaches_a_path(root: Path, version: str):
    result = diff(root, version, "0.2")
    assert result.exit_code == 1 and "is not a version such as 1.1" in result.stderr
    assert len(result.stderr) < 300
