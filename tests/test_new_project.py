"""`charnel new` and the tutorial that uses it (docs/architecture.md, "How to add a game"):
each ```bash block of the tutorial runs as written, line by line, in an empty temporary folder,
with charnel installed and nothing else. Two lines run otherwise, as the README tour's servers
do: `pip install -e .` installs the project offline into a folder of its own
(`--no-build-isolation --no-deps --no-index --target`, then on PYTHONPATH) rather than into the
environment the rest of the suite runs in, and `charnel serve` listens on a free port of
127.0.0.1 until the game's home page is fetched. The game is then found as any installed game
is, through its `charnel.games` entry point."""

from __future__ import annotations

import os
import re
import shlex
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
CHARNEL = Path(sys.executable).parent / "charnel"  # the console script an install gives


def tutorial() -> list[list[str]]:
    """The command lines of each ```bash block of "How to add a game", comments cut off."""
    doc = (REPO / "docs" / "architecture.md").read_text("utf-8")
    section = doc.split("## How to add a game", 1)[1].split("\n## ", 1)[0]
    return [[line.split(" #", 1)[0].strip() for line in block.splitlines() if line.strip()]
            for block in re.findall(r"```bash\n(.*?)```", section, re.S)]


@dataclass
class Run:
    """What one block did: the game it made, each command's output, the page served."""

    game: str = ""
    project: Path = Path()
    output: dict[str, str] = field(default_factory=dict)
    page: str = ""
    failed: str = ""


def _env(site: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CHARNEL_GAMES", "PYTHONPATH")}
    return env | {"PYTHONPATH": str(site)}


def _install(folder: str, cwd: Path, site: Path) -> list[str]:
    return [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
            "--no-build-isolation", "--no-deps", "--no-index", "--target", str(site),
            str(cwd / folder)]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _serve(words: list[str], cwd: Path, env: dict[str, str], game: str) -> str:
    """The game's home page as the server line answers it on a free port of 127.0.0.1."""
    port = _free_port()
    server = subprocess.Popen([str(CHARNEL), *words[1:], "--host", "127.0.0.1", "--port",
                               str(port)], cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE)
    try:
        for _ in range(480):
            try:
                url = f"http://127.0.0.1:{port}/{game}/"
                with urllib.request.urlopen(url, timeout=5) as answer:
                    return answer.read().decode()
            except OSError:
                if server.poll() is not None:
                    return f"the server stopped: {server.stderr.read().decode()[-3000:]}"
                time.sleep(0.25)
        return "the server did not answer"
    finally:
        server.terminate()
        server.wait(timeout=30)


def run_block(lines: list[str], where: Path) -> Run:
    run, cwd, site = Run(), where / "work", where / "site"
    cwd.mkdir()
    site.mkdir()
    env = _env(site)
    for line in lines:
        words = shlex.split(line)
        if words[0] == "cd":
            cwd = (cwd / words[1]).resolve()
            continue
        if words[:2] == ["charnel", "new"]:
            run.game = words[words.index("--game") + 1]
            run.project = (cwd / words[2]).resolve()
        if words[:2] == ["charnel", "serve"]:
            run.page = _serve(words, cwd, env, run.game)
            continue
        if words[:2] == ["pip", "install"]:
            command = _install(words[-1], cwd, site)
        elif words[0] == "charnel":
            command = [str(CHARNEL), *words[1:]]
        else:
            run.failed = f"{line}: the tutorial runs charnel, pip and cd only"
            return run
        done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                              timeout=600)
        run.output[line] = done.stdout
        if done.returncode != 0 or "Traceback" in done.stderr:
            run.failed = f"{line}: exit {done.returncode}\n{done.stdout[-2000:]}"
            run.failed += done.stderr[-3000:]
            return run
    return run


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Run]:
    """Each block of the tutorial run, by whether its game is data only."""
    out = {}
    for lines in tutorial():
        kind = "data-only" if any("--data-only" in line for line in lines) else "engine"
        out[kind] = run_block(lines, tmp_path_factory.mktemp(kind))
    return out


def test_the_tutorial_makes_a_game_with_an_engine_and_a_data_only_one():
    blocks = tutorial()
    assert len(blocks) == 2
    for lines in blocks:
        commands = [" ".join(line.split()[:2]) for line in lines]
        for step in ("charnel new", "pip install", "charnel check", "charnel build",
                     "charnel serve", "charnel print"):
            assert step in commands, (step, lines)


@pytest.mark.parametrize("kind", ["engine", "data-only"])
def test_every_command_works_as_written(runs, kind):
    run = runs[kind]
    assert run.failed == ""
    assert "<title>" in run.page and run.game.replace("-", " ").title() in run.page
    built = run.project / "build"
    assert (built / f"{run.game}.db").is_file()
    assert (built / "site" / run.game / "cards" / "first-card" / "index.html").is_file()
    assert (built / "print" / f"{run.game}-rules.pdf").is_file()


def test_the_engine_runs_its_example(runs):
    run = runs["engine"]
    assert "1/1 example runs pass" in run.output["charnel examples"]


def test_a_data_only_game_says_why_no_text_runs(runs):
    run = runs["data-only"]
    assert f"no rules engine: '{run.game}' is data only" in run.output["charnel check --coverage"]
    package = run.project / run.game.replace("-", "_")
    assert not (package / "engine.py").exists()
    rules = (run.project / "rules" / run.game / "01-basics.md").read_text("utf-8")
    assert "```example" not in rules


def test_the_project_has_what_a_reference_needs(runs):
    run = runs["engine"]
    package = run.game.replace("-", "_")
    found = sorted(p.relative_to(run.project).as_posix() for p in run.project.rglob("*")
                   if p.is_file() and p.relative_to(run.project).parts[0] in
                   ("README.md", "pyproject.toml", "rules", "cards", package)
                   and "__pycache__" not in p.parts)
    assert found == sorted([
        "README.md", f"cards/{run.game}/base/first-card.yaml", "pyproject.toml",
        f"rules/{run.game}/01-basics.md", f"rules/{run.game}/game.yaml",
        f"rules/{run.game}/glossary.yaml", f"{package}/__init__.py", f"{package}/engine.py",
        f"{package}/game.py",
    ])


@pytest.mark.parametrize(
    ("folder", "game", "message"),
    [("taken", "star-tally", "is not an empty folder"),
     ("fresh", "../Bad Id", "a game id is lower-case words joined by '-'")],
)
def test_a_bad_place_or_id_is_refused(tmp_path: Path, folder: str, game: str, message: str):
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "notes.txt").write_text("mine")
    done = subprocess.run([str(CHARNEL), "new", str(tmp_path / folder), "--game", game],
                          cwd=tmp_path, env=_env(tmp_path), capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 1 and message in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "fresh").exists()
