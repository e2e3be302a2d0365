"""A build is one transaction: killed at any moment, run twice at once, or out of disk, the
outputs readers see are all those of the last build or all those of the new one, and search
works. Each check reads through build/current, as readers do."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from site_fixtures import GAME, make_project

from charnel import outputs

CARD = Path("cards") / GAME / "base" / "grave-hound.yaml"
CLI = [sys.executable, "-m", "charnel.cli"]


def run_build(project: Path, *args: str, fault: str | None = None, **kw):
    env = {**os.environ, outputs.FAULT_ENV: fault} if fault else dict(os.environ)
    env.pop("CI", None)
    return subprocess.Popen(
        [*CLI, "build", "--no-print", "--root", str(project), "--out", str(project / "build"),
         *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw,
    )


def ended(build: subprocess.Popen) -> tuple[int, str]:
    """The build's exit code and error output, its pipes read to their end while it runs: a
    build waited for with a full pipe stops on its write, holding the lock."""
    _, err = build.communicate()
    return build.returncode, err


def mark(project: Path, text: str) -> None:
    card = project / CARD
    lines = [ln for ln in card.read_text().splitlines() if not ln.startswith("flavor:")]
    card.write_text("\n".join([*lines, f"flavor: Mark {text}."]) + "\n")


def shown(out: Path) -> str:
    """The mark every output shows (the database, the card page, the downloads), failing when
    they disagree or when the search index is not whole."""
    gen = (out / outputs.CURRENT).resolve()
    assert (out / f"{GAME}.db").resolve().parent == gen
    conn = sqlite3.connect(f"file:{gen / f'{GAME}.db'}?mode=ro", uri=True)
    try:
        (flavor,) = conn.execute("select flavor from cards where id = 'grave-hound'").fetchone()
    finally:
        conn.close()
    found = flavor.removeprefix("Mark ").removesuffix(".")
    site = gen / "site" / GAME
    assert f"Mark {found}." in (site / "cards" / "grave-hound" / "index.html").read_text()
    assert f"Mark {found}." in (site / "data" / "cards.csv").read_text()
    assert (site / "data" / f"{GAME}.db").read_bytes() == (gen / f"{GAME}.db").read_bytes()
    assert json.loads((gen / f".{GAME}.stamp").read_text())["outputs"]
    for bundle in json.loads((site / "assets" / "search.json").read_text())["bundles"]:
        folder = gen / "site" / bundle.strip("/")
        entry = json.loads((folder / "pagefind-entry.json").read_text())
        for language in entry["languages"].values():
            assert (folder / f"pagefind.{language['hash']}.pf_meta").is_file(), folder
        assert (folder / "pagefind.js").is_file() and any((folder / "fragment").iterdir())
    home = (gen / "site" / "index.html").read_text()
    assert f'href="/{GAME}/"' in home
    return found


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    project = make_project(tmp_path_factory.mktemp("transaction"))
    mark(project, "0")
    build = run_build(project)
    code, err = ended(build)
    assert code == 0, err
    assert shown(project / "build") == "0"
    return project


@pytest.mark.parametrize("point", [
    "before-mirror", "after-mirror", "before-commit", "before-switch", "after-switch",
])
def test_a_build_killed_at_a_named_point_leaves_old_or_new(project, point):
    out = project / "build"
    before = shown(out)
    mark(project, point)
    build = run_build(project, fault=point)
    code, err = ended(build)
    assert code == -signal.SIGKILL, err
    expected = point if point == "after-switch" else before
    assert shown(out) == expected
    build = run_build(project)  # the next build recovers
    code, err = ended(build)
    assert code == 0, err
    assert shown(out) == point


def test_a_build_killed_at_random_moments_leaves_old_or_new(project):
    out = project / "build"
    chance = random.Random(14)
    for attempt in range(6):
        before = shown(out)
        mark(project, f"random-{attempt}")
        build = run_build(project)
        time.sleep(chance.uniform(0.2, 4.0))  # a cached rebuild takes a few seconds
        build.send_signal(signal.SIGKILL)
        ended(build)
        assert shown(out) in (before, f"random-{attempt}")
    build = run_build(project)
    code, err = ended(build)
    assert code == 0, err
    assert shown(out) == "random-5"


def test_two_builds_at_once_take_turns(project):
    import fcntl

    out = project / "build"
    # a build that finds the lock taken says so and waits for it
    fd = os.open(out / outputs.LOCK, os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_EX)
    mark(project, "waited")
    waiting = run_build(project)
    said = []  # read until it says it waits: a loaded machine may take long to get there
    for line in waiting.stderr:
        said.append(line)
        if "waiting for another build writing into" in line:
            break
    assert "waiting for another build writing into" in "".join(said), said
    assert waiting.poll() is None  # still waiting
    os.close(fd)
    assert ended(waiting)[0] == 0
    assert shown(out) == "waited"
    # two real builds at once: both finish, one after the other, and the outputs are whole
    mark(project, "both")
    first = run_build(project, "--force")
    while not _held(out / outputs.LOCK) and first.poll() is None:
        time.sleep(0.05)
    second = run_build(project, "--force")
    results = [ended(b) for b in (first, second)]
    assert [code for code, _ in results] == [0, 0], results
    assert shown(out) == "both"


def _held(lock: Path) -> bool:
    import fcntl

    fd = os.open(lock, os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def _mount_small_disk(where: Path) -> bool:
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", str(where)],
                          capture_output=True)
    return done.returncode == 0


@pytest.mark.parametrize("room", [256 * 1024, 1024 * 1024, 3 * 1024 * 1024],
                         ids=["at once", "later", "late"])
def test_a_build_that_runs_out_of_disk_leaves_the_previous_outputs(project, tmp_path, room):
    if os.getuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    disk = tmp_path / "disk"
    assert _mount_small_disk(disk), "cannot mount a tmpfs"
    try:
        small = disk / "project"
        shutil.copytree(project / "cards", small / "cards")
        shutil.copytree(project / "rules", small / "rules")
        mark(small, "roomy")
        build = run_build(small)
        code, err = ended(build)
        assert code == 0, err
        assert shown(small / "build") == "roomy"
        free = shutil.disk_usage(disk).free
        filler = disk / "filler"
        with open(filler, "wb") as fh:
            fh.truncate(0)
            fh.write(b"\0" * max(free - room, 0))
        mark(small, "cramped")
        build = run_build(small, "--force")
        code, err = ended(build)
        assert "Traceback" not in err, err
        if code == 0:  # it fitted
            assert shown(small / "build") == "cramped"
        else:
            assert code == 1 and "the previous outputs are unchanged" in err, err
            assert shown(small / "build") == "roomy"
        filler.unlink()
        build = run_build(small)
        code, err = ended(build)
        assert code == 0, err
        assert shown(small / "build") == "cramped"
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)
