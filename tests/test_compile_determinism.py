"""The same sources give a byte-identical database, wherever and however they are built."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

from projects import DUEL, copy_project, only_game

GAME = only_game(DUEL)


def copy_reversed(source: Path, target: Path) -> None:
    """Copy a tree creating files in reverse order, so directory listings come back differently."""
    for path in sorted(source.rglob("*"), reverse=True):
        dest = target / path.relative_to(source)
        if path.is_file():
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, dest)


def build_in_process(root: Path, seed: str, game: str = GAME) -> bytes:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    command = [
        sys.executable,
        "-m",
        "charnel.cli",
        "build",
        "--root",
        str(root),
        "--out",
        str(root / "out"),
        "--no-site",
        "--no-print",
    ]
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    return (root / "out" / f"{game}.db").read_bytes()


def test_byte_identical_across_places_orders_and_hash_seeds(tmp_path: Path):
    first, second = tmp_path / "a", tmp_path / "elsewhere" / "b"
    shutil.copytree(DUEL, first)
    copy_reversed(DUEL, second)
    one = build_in_process(first, "1")
    two = build_in_process(second, "987654")
    assert one == two
    # and the database really holds the sources, so equality is not vacuous
    with sqlite3.connect(first / "out" / f"{GAME}.db") as db:
        assert db.execute("select count(*) from cards").fetchone()[0] == 3
        assert db.execute("select count(*) from rules").fetchone()[0] == 7


def test_a_forced_rebuild_gives_the_same_bytes(tmp_path: Path):
    copy_project(tmp_path / "p", DUEL)
    one = build_in_process(tmp_path / "p", "0")
    (tmp_path / "p" / "out" / "current" / f".{GAME}.stamp").unlink()  # the outputs
    assert build_in_process(tmp_path / "p", "5") == one


def test_a_changed_source_changes_the_bytes(tmp_path: Path):
    copy_project(tmp_path / "p", DUEL)
    one = build_in_process(tmp_path / "p", "0")
    (card,) = (tmp_path / "p" / "cards").rglob("ash-page.yaml")
    card.write_text(card.read_text().replace("Each blow", "Every blow"))
    assert build_in_process(tmp_path / "p", "0") != one
