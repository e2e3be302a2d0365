"""Files that cannot be read as text at all, and projects missing what a game needs.

Each must end in `path:line:col: message` lines and a summary, exit status 1, no traceback,
and leave the previous database as it was.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from badinput import located
from projects import DUEL, copy_project, only_game
from typer.testing import CliRunner

from charnel.cli import app

GAME = only_game(DUEL)
CARD = f"cards/{GAME}/embers/ash-page.yaml"


@pytest.fixture
def built(tmp_path: Path) -> Path:
    copy_project(tmp_path, DUEL)
    assert build(tmp_path).exit_code == 0
    return tmp_path


def build(root: Path, *extra: str):
    args = ["build", "--root", str(root), "--out", str(root / "build"), "--no-site", "--no-print"]
    return CliRunner().invoke(app, [*args, *extra])


def problems_of(result) -> list[tuple[str, int, int, str]]:
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert result.stderr.splitlines()[-1].startswith("error: ")
    return located(result.stderr.splitlines())


def fails_with(root: Path, path: str, line: int, col: int, message: str, *extra: str) -> None:
    database = root / "build" / f"{GAME}.db"
    before = database.read_bytes()
    found = problems_of(build(root, *extra))
    assert any(f[:3] == (path, line, col) and message in f[3] for f in found), found
    assert database.read_bytes() == before


def first_bad_byte(raw: bytes) -> tuple[int, int]:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        return before.count(b"\n") + 1, exc.start - (before.rfind(b"\n") + 1) + 1
    raise AssertionError("the junk happens to be UTF-8")


def test_not_utf8_names_the_line_and_column(built: Path):
    (built / CARD).write_bytes("name: Ash\nflavor: caf\xe9 au lait\n".encode("latin-1"))
    fails_with(built, CARD, 2, 12, "file is not UTF-8 (byte 0xe9)")


def test_binary_junk(built: Path):
    junk = random.Random(7).randbytes(4096)
    (built / CARD).write_bytes(junk)
    fails_with(built, CARD, *first_bad_byte(junk), "not UTF-8")


def test_control_characters_in_utf8(built: Path):
    (built / CARD).write_bytes(b"name: Ash\nflavor: \x00\x01\x02\n")
    fails_with(built, CARD, 2, 9, "control character U+0000 is not allowed")


def test_ten_megabyte_file(built: Path):
    with (built / CARD).open("w", encoding="utf-8") as fh:
        fh.write("name: Ash Whisper\nflavor: >\n")
        line = "  " + "bone " * 20 + "\n"
        fh.write(line * (10 * 1024 * 1024 // len(line)))
    fails_with(built, CARD, 1, 1, "file is 10.0 MB")


def test_empty_card_file(built: Path):
    (built / CARD).write_bytes(b"")
    fails_with(built, CARD, 1, 1, "card file is empty")


def test_directory_where_a_file_should_be(built: Path):
    (built / f"cards/{GAME}/embers/folder.yaml").mkdir()
    shutil.rmtree(built / f"rules/{GAME}/glossary.yaml", ignore_errors=True)
    (built / f"rules/{GAME}/glossary.yaml").unlink()
    (built / f"rules/{GAME}/glossary.yaml").mkdir()
    fails_with(built, f"cards/{GAME}/embers/folder.yaml", 1, 1, "not a regular file (a folder)")
    fails_with(built, f"rules/{GAME}/glossary.yaml", 1, 1, "not a regular file (a folder)")


def test_unreadable_file(built: Path):
    # a symbolic link to itself cannot be opened, even by root
    (built / CARD).unlink()
    (built / CARD).symlink_to(built / CARD)
    fails_with(built, CARD, 1, 1, "cannot read file")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_file_without_read_permission(built: Path):
    (built / CARD).chmod(0)
    fails_with(built, CARD, 1, 1, "cannot read file: Permission denied")


def test_missing_game_yaml(built: Path):
    (built / f"rules/{GAME}/game.yaml").unlink()
    fails_with(built, f"rules/{GAME}/game.yaml", 1, 1, "file is missing", "--game", GAME)


def test_missing_game_yaml_without_game_option(built: Path):
    (built / f"rules/{GAME}/game.yaml").unlink()
    result = build(built)
    assert result.exit_code == 1
    assert "no games under" in result.stderr and "rules/<game>/game.yaml" in result.stderr


def test_unknown_game_option(built: Path):
    result = build(built, "--game", "nope")
    assert result.exit_code == 1
    assert f"unknown game 'nope' (games under rules/: {GAME})" in result.stderr
    result = CliRunner().invoke(app, ["check", "--root", str(built), "--game", "nope"])
    assert result.exit_code == 1 and "unknown game 'nope'" in result.stderr


def test_game_without_a_package(built: Path):
    shutil.copytree(built / f"rules/{GAME}", built / "rules/other")
    result = build(built, "--game", "other")
    found = problems_of(result)
    assert ("rules/other", 1, 1) in [f[:3] for f in found]
    assert "no game package for 'other'" in result.stderr


def test_all_problems_of_several_files_in_one_run(built: Path):
    (built / CARD).write_bytes(b"\xff\xfe")
    (built / f"cards/{GAME}/embers/cinder-knight.yaml").write_text("name: [\n")
    (built / f"rules/{GAME}/02-blows.md").write_text("no heading\n")
    found = problems_of(build(built))
    # without section 2, the glossary's two citations of 2.1a dangle as well
    assert {f[0] for f in found} == {
        CARD,
        f"cards/{GAME}/embers/cinder-knight.yaml",
        f"rules/{GAME}/02-blows.md",
        f"rules/{GAME}/glossary.yaml",
    }
    assert build(built).stderr.splitlines()[-1] == "error: 5 problems in 4 files"


def test_a_real_process_prints_no_traceback(built: Path):
    """The installed command, not the test runner: exit 1 and located messages on stderr."""
    (built / CARD).write_text("name: Ash\nnumber: [\n")
    command = [sys.executable, "-m", "charnel.cli", "check", "--root", str(built)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith(f"{CARD}:3:1: YAML syntax error")
    assert done.stderr.rstrip().endswith("error: 1 problem in 1 file")


def test_check_reports_an_example_the_engine_cannot_read(built: Path):
    """`check` runs each example once: an unknown action is a located problem, not "ok"."""
    rules = built / f"rules/{GAME}/01-duellists.md"
    refused = "when:\n  - strike: {by: a}\n    expect: illegal\n    reason: fallen"
    rules.write_text(rules.read_text("utf-8").replace(refused, "when:\n  - teleport: {}"))
    result = CliRunner().invoke(app, ["check", "--root", str(built)])
    found = problems_of(result)
    assert found == [(f"rules/{GAME}/01-duellists.md", 16, 5,
                      found[0][3])], result.stderr
    assert "unknown action 'teleport'" in found[0][3]
    assert "   16 |   - teleport: {}" in result.stderr
    assert "examples: ok" not in result.output


@pytest.mark.parametrize(
    "body",
    [
        "flavor: " + "[" * 50_000 + "]" * 50_000 + "\n",
        "flavor:\n" + "- " * 50_000 + "x\n",
        "flavor: " + "{a: " * 50_000 + "1" + "}" * 50_000 + "\n",
    ],
    ids=["flow lists", "block lists", "flow mappings"],
)
def test_yaml_nested_50000_deep_is_a_problem_not_a_crash(built: Path, body: str):
    """libyaml's composer recurses in C: 50,000 levels once killed the process (exit 139)."""
    (built / CARD).write_text("name: Ash\n" + body)
    command = [sys.executable, "-m", "charnel.cli", "check", "--root", str(built)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith((f"{CARD}:2:", f"{CARD}:3:"))
    assert "nest" in done.stderr.splitlines()[0]


def test_an_alias_bomb_is_refused_quickly(built: Path):
    lines = ["name: Ash", "a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 10)]
    (built / CARD).write_text("\n".join(lines) + "\n")
    command = [sys.executable, "-m", "charnel.cli", "check", "--root", str(built)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "aliases more than 1000 times" in done.stderr


@pytest.mark.skipif(os.geteuid() == 0, reason="root lists folders whatever their mode")
def test_unreadable_set_folder_is_reported(built: Path):
    folder = built / f"cards/{GAME}/embers"
    folder.chmod(0)
    try:
        fails_with(built, f"cards/{GAME}/embers/", 1, 1, "cannot read folder")
    finally:
        folder.chmod(0o755)


def test_unreadable_folders_are_listed(built: Path, monkeypatch):
    """As root, a folder's mode stops nothing: the listing fails as it would for a user."""
    from charnel.sources import files

    real = os.scandir

    def scandir(path):
        if str(path).endswith(f"cards/{GAME}/embers"):
            raise PermissionError(13, "Permission denied")
        return real(path)

    monkeypatch.setattr(files.os, "scandir", scandir)
    assert files.unreadable_folders(built, GAME) == [built / f"cards/{GAME}/embers"]


def test_a_file_name_with_an_escape_sequence_is_shown_escaped(built: Path):
    (built / f"cards/{GAME}/embers/x\x1b[2J\x1b]0;owned\x07.yaml").write_text("name: X\n")
    result = build(built)
    assert result.exit_code == 1
    assert "\x1b" not in result.stderr and "\x07" not in result.stderr
    assert f"cards/{GAME}/embers/x\\x1b[2J\\x1b]0;owned\\x07.yaml:1:1: card file name" in (
        result.stderr
    )


def _unlistable(monkeypatch, *folders: Path) -> None:
    """As root a folder's mode stops nothing: listing these fails as it would for a user."""
    from charnel.sources import files

    real, refused = os.scandir, {str(f) for f in folders}

    def scandir(path="."):
        if str(path) in refused:
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(files.os, "scandir", scandir)


def test_a_release_folder_that_cannot_be_listed_stops_the_build(built: Path, monkeypatch):
    release = built / f"releases/{GAME}/1.0"
    release.mkdir(parents=True)
    _unlistable(monkeypatch, release)
    fails_with(built, f"releases/{GAME}/1.0/", 1, 1, "cannot read folder")


def test_a_release_that_is_a_link_to_itself_stops_the_build(built: Path):
    """A link loop cannot be listed by root either: a real folder that cannot be read."""
    (built / f"releases/{GAME}").mkdir(parents=True)
    (built / f"releases/{GAME}/1.1").symlink_to(built / f"releases/{GAME}/1.1")
    fails_with(built, f"releases/{GAME}/1.1/", 1, 1, "cannot read folder")


def test_a_folder_inside_a_release_that_cannot_be_listed_stops_the_build(built: Path,
                                                                         monkeypatch):
    cards = built / f"releases/{GAME}/1.0/cards/{GAME}/embers"
    cards.mkdir(parents=True)
    _unlistable(monkeypatch, cards)
    fails_with(built, f"releases/{GAME}/1.0/cards/{GAME}/embers/", 1, 1, "cannot read folder")


def test_a_template_folder_that_cannot_be_listed_stops_the_build(built: Path, monkeypatch):
    from charnel import templates

    folder = templates.root() / "site"
    _unlistable(monkeypatch, folder)
    fails_with(built, f"{folder}/", 1, 1, "cannot read folder")


def test_a_folder_of_the_game_package_that_cannot_be_listed_stops_the_build(built: Path,
                                                                             monkeypatch):
    from charnel import registry

    folder = registry.get(GAME).folder
    _unlistable(monkeypatch, folder)
    fails_with(built, f"{folder}/", 1, 1, "cannot read folder", "--force")
