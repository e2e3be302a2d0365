"""Cave Evil's folder copied out of the tree as a package of its own under another name
(`cave_evil_game`), installed offline into a folder of its own, with the bundled package made
unimportable: charnel finds the installed game under the same id and builds the same site."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
GAME_FOLDER = REPO / "src" / "charnel" / "games" / "cave_evil"
DATA = ("cards", "rules", "releases")  # the project's part of the game: its authored files

DISTRIBUTION = """\
[build-system]
requires = ["setuptools>=70.1"]
build-backend = "setuptools.build_meta"

[project]
name = "cave-evil-game"
version = "1.0"

[project.entry-points."charnel.games"]
cave-evil = "cave_evil_game:game"

[tool.setuptools.packages.find]
include = ["cave_evil_game*"]

[tool.setuptools.package-data]
cave_evil_game = ["print.yaml", "templates/*", "docs/*.md"]
"""

# charnel with the bundled Cave Evil made unimportable: whatever runs is the installed copy
HIDDEN_BUNDLED = """\
import importlib.abc, sys

class Hidden(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "charnel.games.cave_evil" or name.startswith("charnel.games.cave_evil."):
            raise ImportError(f"{name} is hidden: the installed copy must do without it")

sys.meta_path.insert(0, Hidden())
from charnel.cli import app
app(prog_name="charnel")
"""


def _project(target: Path) -> Path:
    for part in DATA:
        shutil.copytree(REPO / part / "cave-evil", target / part / "cave-evil")
    return target


def _charnel(args: list[str], cwd: Path, site: Path | None = None) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("CHARNEL_GAMES", "PYTHONPATH")}
    command = [sys.executable, "-m", "charnel.cli", *args]
    if site is not None:
        env["PYTHONPATH"] = str(site)
        (cwd.parent / "hidden_charnel.py").write_text(HIDDEN_BUNDLED)
        command = [sys.executable, str(cwd.parent / "hidden_charnel.py"), *args]
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """Cave Evil's folder copied out of the tree as the package `cave_evil_game` of a
    distribution of its own, installed (offline) into a folder of its own: that folder."""
    import setuptools  # noqa: F401  (the build backend --no-build-isolation uses: test extras)
    work = tmp_path_factory.mktemp("cave-evil-package")
    shutil.copytree(GAME_FOLDER, work / "dist" / "cave_evil_game",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (work / "dist" / "pyproject.toml").write_text(DISTRIBUTION)
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         "--no-build-isolation", "--no-deps", "--no-index", "--target", str(work / "site"),
         str(work / "dist")],
        capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return work / "site"


@pytest.fixture(scope="module")
def sites(installed, tmp_path_factory) -> tuple[Path, Path]:
    """The same project built with the bundled Cave Evil and with the installed copy."""
    bundled = _project(tmp_path_factory.mktemp("bundled") / "project")
    _charnel(["build", "--no-print"], bundled)
    copied = _project(tmp_path_factory.mktemp("copied") / "project")
    _charnel(["build", "--no-print"], copied, site=installed)
    return bundled / "build" / "site", copied / "build" / "site"


def _tree(site: Path) -> list[str]:
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file())


def test_the_installed_copy_replaces_the_bundled_game(installed, tmp_path):
    env = {**{k: v for k, v in os.environ.items() if k != "CHARNEL_GAMES"},
           "PYTHONPATH": str(installed)}
    done = subprocess.run(
        [sys.executable, "-c", "from charnel import registry; "
         "print(registry.get('cave-evil').folder, registry.problems())"],
        env=env, capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )
    assert done.stdout.split() == [str(installed / "cave_evil_game"), "[]"], done.stderr


def test_the_installed_copy_builds_the_same_site(sites):
    bundled, copied = sites
    assert _tree(copied) == _tree(bundled)
    assert len(_tree(bundled)) > 1000
    assert {"cave-evil/fight/index.html", "cave-evil/decks/index.html"} <= set(_tree(copied))
    different = [name for name in _tree(bundled)
                 if (copied / name).read_bytes() != (bundled / name).read_bytes()]
    assert different == []
