"""`charnel build`: skips work when nothing changed, and knows which outputs it built."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest
from projects import DUEL, copy_project, only_game
from typer.testing import CliRunner

from charnel import pipeline
from charnel.cli import app

GAME = only_game(DUEL)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return copy_project(tmp_path, DUEL)


def build(root: Path, *extra: str):
    args = ["build", "--root", str(root), "--out", str(root / "build"), "--no-site", "--no-print"]
    return CliRunner().invoke(app, [*args, *extra])


def test_second_build_says_up_to_date_and_leaves_the_file(project: Path):
    assert f"{GAME}: wrote" in build(project).stdout
    database = project / "build" / f"{GAME}.db"
    first = database.stat()
    result = build(project)
    assert result.exit_code == 0
    assert f"{GAME}: up to date" in result.stdout
    assert (
        database.stat().st_ino == first.st_ino and database.stat().st_mtime_ns == first.st_mtime_ns
    )


@pytest.mark.parametrize(
    "change",
    [
        lambda root: (root / f"cards/{GAME}/embers/ash-page.yaml").write_text(
            (root / f"cards/{GAME}/embers/ash-page.yaml").read_text().replace("Each", "Every")
        ),
        lambda root: shutil.copy(
            root / f"cards/{GAME}/embers/ash-page.yaml",
            root / f"cards/{GAME}/embers/ash-copy.yaml",
        ),
        lambda root: (root / f"rules/{GAME}/02-blows.md").unlink(),
        lambda root: (root / f"build/current/{GAME}.db").unlink(),
    ],
    ids=["edited card", "new card", "removed rules file", "removed database"],
)
def test_any_change_rebuilds(project: Path, change):
    build(project)
    change(project)
    result = build(project)
    assert "up to date" not in result.stdout


def test_force_rebuilds(project: Path):
    build(project)
    assert f"{GAME}: wrote" in build(project, "--force").stdout


def test_a_failed_build_is_retried_and_keeps_the_old_stamp(project: Path):
    build(project)
    stamp = project / f"build/current/.{GAME}.stamp"
    before = stamp.read_bytes()
    card = project / f"cards/{GAME}/embers/ash-page.yaml"
    good = card.read_text()
    card.write_text("name: [\n")
    assert build(project).exit_code == 1
    assert stamp.read_bytes() == before
    assert build(project).exit_code == 1  # still failing, not "up to date"
    card.write_text(good)
    assert f"{GAME}: wrote" in build(project).stdout


@pytest.fixture
def fake_outputs(monkeypatch):
    """Stand-ins for the site and print modules that count their builds."""
    calls = {"site": 0, "print": 0}

    class SiteBuild:
        def __init__(self, verified, outcomes, printed=(), **options):
            pass

        def build(self, database, out, **options):
            calls["site"] += 1
            out.mkdir(parents=True, exist_ok=True)
            return out

    def build_print(verified, outcomes, out, **options):
        calls["print"] += 1
        return []

    monkeypatch.setitem(sys.modules, "charnel.site", types.SimpleNamespace(SiteBuild=SiteBuild))
    monkeypatch.setitem(
        sys.modules,
        "charnel.printing",
        types.SimpleNamespace(build_print=build_print, existing=lambda *args: []),
    )
    return calls


def test_stamp_accounts_for_the_outputs_asked_for(project: Path, fake_outputs):
    out = project / "build"
    run = lambda **kw: pipeline.build(project, GAME, out, **kw)  # noqa: E731
    assert not run(site=False).up_to_date
    assert fake_outputs["site"] == 0
    # the site was not built last time, so asking for it now builds it
    assert not run(site=True).up_to_date
    assert fake_outputs["site"] == 1
    assert run(site=True).up_to_date
    assert run(site=False).up_to_date  # the site is there and still current
    assert not run(site=True, print_=True).up_to_date
    assert fake_outputs == {"site": 2, "print": 1}
    assert run(site=True, print_=True).up_to_date
    # after a source change, a database-only build leaves the site stale: asking again rebuilds
    card = project / f"cards/{GAME}/embers/ash-page.yaml"
    card.write_text(card.read_text() + "flavor: Dust.\n")
    assert not run(site=False).up_to_date
    assert not run(site=True).up_to_date
    assert fake_outputs["site"] == 3


def test_no_change_build_skips_the_heavy_imports(project: Path):
    """The no-change path answers from file metadata: no SQLAlchemy, PyYAML or markdown-it."""
    build(project)
    script = (
        "import sys\n"
        "from charnel.cli import app\n"
        f"app(['build', '--root', {str(project)!r}, '--out', {str(project / 'build')!r},"
        " '--no-site', '--no-print'], standalone_mode=False)\n"
        "heavy = sorted(m for m in ('sqlalchemy', 'sqlmodel', 'markdown_it', 'yaml')"
        " if m in sys.modules)\n"
        "print('heavy:', ','.join(heavy))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "200"},
    )
    assert done.returncode == 0, done.stderr
    assert "up to date" in done.stdout
    assert done.stdout.rstrip().endswith("heavy:")
