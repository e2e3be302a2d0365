"""The README's tour, run command by command in a fresh copy of the repository, works as
written (scripts/tour.py). Slow: it builds everything and starts each server line."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def fresh_copy(target: Path, built: Path) -> Path:
    """The repository's files as a clone has them (tracked and new, not ignored), with an
    environment as the README's first command leaves it, and the outputs of a first `charnel
    build` of the same sources (`built`), so the tour lays out only what that build did not."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO, capture_output=True, check=True,
    ).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = REPO / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    (target / "build").mkdir(exist_ok=True)
    subprocess.run(["cp", "-a", f"{built / 'build'}/.", str(target / "build")], check=True)
    environment(target)
    return target


def environment(project: Path) -> None:
    """project/.venv: a virtual environment of the copy's own that sees this one's packages and
    has the copy's charnel installed, so the tour's `pip install -e` changes it and not the
    environment the rest of the suite imports from meanwhile."""
    venv = project / ".venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    python = str(venv / "bin" / "python")
    where = [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]
    own = Path(subprocess.run(where, check=True, capture_output=True, text=True).stdout.strip())
    suite = sysconfig.get_paths()["purelib"]
    (own / "suite-packages.pth").write_text(f"import site; site.addsitedir({suite!r})\n")
    subprocess.run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                    "--no-deps", "-e", str(project)], check=True, capture_output=True)


def newcomer(project: Path) -> dict[str, str]:
    """The environment of someone who cloned the project: its own sources are the ones
    installed (as `pip install -e .` in the clone would make them), and none of the test
    suite's own games are added."""
    env = {k: v for k, v in os.environ.items() if k not in ("CHARNEL_GAMES", "PYTHONPATH")}
    env["PYTHONPATH"] = str(project / "src")
    return env


@pytest.mark.slow
def test_every_tour_command_works_in_order(tmp_path: Path, bundled_build: Path):
    project = fresh_copy(tmp_path / "charnel", bundled_build)
    done = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "tour.py"), str(project)],
        capture_output=True, text=True, timeout=1800, env=newcomer(project),
    )
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
    assert "tour: every command works as written" in done.stdout
