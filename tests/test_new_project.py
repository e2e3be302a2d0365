"""`charnel new`: a game's project written outside this repository checks, runs its example,
builds, serves a page and prints, with its package found as a game under development is
(CHARNEL_GAMES), and its pyproject.toml registers that package's game as installing it would."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import tomllib
import urllib.request
from pathlib import Path

import pytest

GAME = "star-tally"


def charnel(project: Path, *args: str, **kw) -> subprocess.CompletedProcess:
    # the project's package is found as a game under development is (CHARNEL_GAMES), without
    # installing it into the environment the rest of the suite runs in
    env = {k: v for k, v in os.environ.items() if k not in ("CHARNEL_GAMES", "PYTHONPATH")}
    env |= {"CHARNEL_GAMES": "star_tally", "PYTHONPATH": str(project)}
    return subprocess.run([sys.executable, "-m", "charnel.cli", *args], cwd=project, env=env,
                          capture_output=True, text=True, timeout=600, **kw)


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("elsewhere") / "star"
    done = charnel(target.parent, "new", str(target), "--game", GAME)
    assert done.returncode == 0, done.stderr
    return target


def test_the_project_has_what_a_reference_needs(project: Path):
    found = sorted(p.relative_to(project).as_posix() for p in project.rglob("*") if p.is_file())
    assert found == [
        "README.md", "cards/star-tally/base/first-card.yaml", "pyproject.toml",
        "rules/star-tally/01-basics.md", "rules/star-tally/game.yaml",
        "rules/star-tally/glossary.yaml", "star_tally/__init__.py", "star_tally/engine.py",
        "star_tally/game.py",
    ]


def test_it_checks_runs_its_example_builds_and_prints(project: Path):
    assert charnel(project, "check").returncode == 0
    examples = charnel(project, "examples")
    assert examples.returncode == 0 and "1/1 example runs pass" in examples.stdout
    built = charnel(project, "build")
    assert built.returncode == 0, built.stderr
    assert (project / "build" / f"{GAME}.db").is_file()
    assert (project / "build" / "site" / GAME / "cards" / "first-card" / "index.html").is_file()
    printed = charnel(project, "print")
    assert printed.returncode == 0, printed.stderr
    assert (project / "build" / "print" / f"{GAME}-rules.pdf").is_file()


def test_it_serves_a_page(project: Path):
    if not (project / "build" / f"{GAME}.db").exists():
        assert charnel(project, "build").returncode == 0
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if k not in ("CHARNEL_GAMES", "PYTHONPATH")}
    env |= {"CHARNEL_GAMES": "star_tally", "PYTHONPATH": str(project)}
    server = subprocess.Popen(
        [sys.executable, "-m", "charnel.cli", "serve", "--no-build", "--port", str(port)],
        cwd=project, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    try:
        page = None
        for _ in range(240):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/{GAME}/", timeout=5) as r:
                    page = r.read().decode()
                    break
            except OSError:
                assert server.poll() is None, server.stderr.read().decode()
                time.sleep(0.5)
        assert page is not None and "Star Tally" in page
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_its_package_registers_the_game(project: Path):
    """The entry point pyproject.toml declares names the package's game, as an installed
    package's would be found (`module:attribute`)."""
    declared = tomllib.loads((project / "pyproject.toml").read_text("utf-8"))
    entry = declared["project"]["entry-points"]["charnel.games"][GAME]
    assert declared["tool"]["setuptools"]["packages"] == ["star_tally"]
    found = charnel(project, "search", "-g", GAME, "pts>=1")  # the game, as the registry has it
    assert found.returncode == 0 and "First Card" in found.stdout
    module, _, attribute = entry.partition(":")
    code = f"import {module}; print(type({module}.{attribute}).__name__, {module}.{attribute}.id)"
    shown = subprocess.run([sys.executable, "-c", code], cwd=project, capture_output=True,
                           text=True, timeout=60)
    assert shown.stdout.split() == ["StarTally", GAME], shown.stderr


def test_a_data_only_game_works_but_for_examples(tmp_path: Path):
    """No engine and no example: it checks, builds and prints, and coverage says why no text
    runs."""
    target = tmp_path / "data"
    env = {k: v for k, v in os.environ.items() if k not in ("CHARNEL_GAMES", "PYTHONPATH")}
    env |= {"CHARNEL_GAMES": "plain_rules", "PYTHONPATH": str(target)}
    run = lambda *args: subprocess.run(  # noqa: E731
        [sys.executable, "-m", "charnel.cli", *args], cwd=target, env=env, capture_output=True,
        text=True, timeout=600)
    made = subprocess.run([sys.executable, "-m", "charnel.cli", "new", str(target), "--game",
                           "plain-rules", "--data-only"], capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    assert not (target / "plain_rules" / "engine.py").exists()
    assert "```example" not in (target / "rules/plain-rules/01-basics.md").read_text("utf-8")
    checked = run("check", "--coverage")
    assert checked.returncode == 0, checked.stderr
    assert "no rules engine: 'plain-rules' is data only" in checked.stdout
    assert run("build").returncode == 0
    assert (target / "build" / "site" / "plain-rules" / "index.html").is_file()
    assert run("print").returncode == 0


@pytest.mark.parametrize(
    ("folder", "game", "message"),
    [("taken", GAME, "is not an empty folder"),
     ("fresh", "../Bad Id", "a game id is lower-case words joined by '-'")],
)
def test_a_bad_place_or_id_is_refused(tmp_path: Path, folder: str, game: str, message: str):
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "notes.txt").write_text("mine")
    done = charnel(tmp_path, "new", str(tmp_path / folder), "--game", game)
    assert done.returncode == 1 and message in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "fresh").exists()
