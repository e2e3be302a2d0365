"""A build never succeeds over outputs that are wrong: a disk that fills at any point of a
build of both games (database, site, search index, PDFs) fails it with every output the
previous one byte for byte, or lets it finish with every output complete; Pagefind's files
are checked whole, since Pagefind exits 0 after a write that failed; and a later build finds
and remakes any output whose bytes are not those its build recorded, instead of saying
"up to date" over it."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from projects import DUEL, copy_built, copy_project, only_game

from charnel import output_record, outputs
from charnel.site import search_whole

REPO = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-m", "charnel.cli"]


def _markable(card: Path) -> bool:
    """A card whose flavor, if it has one, is on one line: `mark` replaces that line."""
    lines = card.read_text("utf-8").splitlines()
    for i, line in enumerate(lines):
        if line.startswith("flavor:"):
            following = lines[i + 1] if i + 1 < len(lines) else ""
            value = line.removeprefix("flavor:").strip()
            return value not in ("", ">", "|", ">-", "|-") and not following.startswith(" ")
    return True


# a card of each bundled game, marked by each build so that every output shows its build
CARDS = {game.name: next(c for c in sorted(game.glob("*/*.yaml")) if _markable(c))
         .relative_to(REPO).as_posix()
         for game in sorted((REPO / "cards").iterdir()) if game.is_dir()}
ID = {game: Path(card).stem for game, card in CARDS.items()}
KEPT = sorted(CARDS)[-1]  # the bundled game a one-game build of the bundled project keeps


def build(project: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    return subprocess.run([*CLI, "build", "--root", str(project), "--out",
                           str(project / "build"), *args],
                          env=env, capture_output=True, text=True, timeout=900)


def mark(project: Path, text: str) -> None:
    for card in CARDS.values():
        path = project / card
        lines = [ln for ln in path.read_text().splitlines() if not ln.startswith("flavor:")]
        path.write_text("\n".join([*lines, f"flavor: Mark {text}."]) + "\n")


def snapshot(out: Path) -> dict[str, str]:
    """Every output readers see, by its bytes, read through build/current."""
    gen = (out / outputs.CURRENT).resolve()
    return {p.relative_to(gen).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(gen.rglob("*")) if p.is_file() and not p.is_symlink()}


def seen(files: dict[str, str]) -> dict[str, str]:
    """The files readers see: not the build's own bookkeeping (dot files)."""
    return {k: v for k, v in files.items() if not any(p.startswith(".") for p in k.split("/"))}


def complete(out: Path, text: str) -> None:
    """Every output is whole and shows the mark `text`."""
    gen = (out / outputs.CURRENT).resolve()
    assert output_record.damaged(gen) == []
    scripts = search_whole.reference()
    for game, card in ID.items():
        conn = sqlite3.connect(f"file:{gen / f'{game}.db'}?mode=ro", uri=True)
        try:
            (flavor,) = conn.execute("select flavor from cards where id = ?", (card,)).fetchone()
        finally:
            conn.close()
        assert flavor == f"Mark {text}."
        site = gen / "site" / game
        bundles = json.loads((site / "assets" / "search.json").read_text())["bundles"]
        assert bundles[0] == f"/{game}/pagefind/"
        for bundle in bundles:  # the main one, and the delta after an edit
            assert search_whole.problems(gen / "site" / bundle.strip("/"), scripts) == []
        assert (site / "data" / f"{game}.db").read_bytes() == (gen / f"{game}.db").read_bytes()
    for pdf in (gen / "print").glob("*.pdf"):
        data = pdf.read_bytes()
        assert data.startswith(b"%PDF-") and b"%%EOF" in data[-32:], pdf


def _mount(where: Path, size: str) -> None:
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                          capture_output=True, text=True)
    assert done.returncode == 0, f"cannot mount a tmpfs: {done.stderr}"


def _fill(disk: Path, room: int) -> Path:
    """Leave `room` bytes free on the disk; returns the file that takes the rest."""
    filler = disk / "filler"
    free = shutil.disk_usage(disk).free
    with open(filler, "wb") as fh:
        left = max(free - room, 0)
        while left > 0:
            try:
                left -= fh.write(b"\0" * min(left, 1 << 20))
            except OSError:
                break
    return filler


# Bytes free when the build starts. The build rewrites the marked cards' pages, both games'
# databases, search indexes and PDFs, in that order, so the room left decides at which of
# them the disk fills: from the first write to past the last.
ROOMS = [0, 48 * 1024, 512 * 1024, 2 << 20, 5 << 20, 9 << 20, 11 << 20, 12 << 20, 14 << 20,
         20 << 20]


@pytest.mark.skipif(os.geteuid() != 0 and os.environ.get("CI") != "true",
                    reason="mounting a small tmpfs needs root")
@pytest.mark.slow
def test_a_disk_that_fills_anywhere_fails_the_build_or_lets_it_finish_whole(tmp_path):
    assert os.geteuid() == 0, "mounting a small tmpfs needs root"
    disk = tmp_path / "disk"
    _mount(disk, "160m")
    try:
        # built from nothing, not copied: a build with a second generation to reclaim finds
        # room where the first build of a project does not
        project = disk / "project"
        for part in ("cards", "rules", "releases"):
            shutil.copytree(REPO / part, project / part)
        out = project / "build"
        mark(project, "start")
        done = build(project)
        assert done.returncode == 0, done.stderr
        complete(out, "start")
        outcomes = []
        for room in ROOMS:
            before, text = snapshot(out), f"room {room}"
            mark(project, text)
            filler = _fill(disk, room)
            done = build(project)
            filler.unlink()
            assert "Traceback" not in done.stderr, done.stderr
            if done.returncode == 0:
                complete(out, text)
            else:
                assert done.returncode == 1, done.stderr
                assert "the previous outputs are unchanged" in done.stderr, done.stderr
                assert snapshot(out) == before
            outcomes.append((room, done.returncode, done.stderr.strip().splitlines()[-1:]))
        print(*outcomes, sep="\n")  # where each point failed, with -s
        codes = [code for _, code, _ in outcomes]
        assert 1 in codes and 0 in codes, outcomes  # the points span the build
        done = build(project)
        assert done.returncode == 0, done.stderr
        complete(out, f"room {ROOMS[-1]}")
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


@pytest.mark.slow
def test_a_later_build_remakes_outputs_whose_bytes_changed(tmp_path, bundled_build):
    """A page, a search file, a PDF and a database changed or cut short after the build: the
    next build says which, makes them again (byte for byte as before), then is up to date."""
    project = copy_built(bundled_build, tmp_path / "project")
    for other in sorted(set(CARDS) - {KEPT}):
        shutil.rmtree(project / "rules" / other)
        shutil.rmtree(project / "cards" / other)
    out = project / "build"
    done = build(project, "--game", KEPT)
    assert done.returncode == 0, done.stderr
    gen = (out / outputs.CURRENT).resolve()
    good = snapshot(out)
    site = gen / "site" / KEPT
    wasm = next((site / "pagefind").glob("wasm.*.pagefind"))
    with open(wasm, "r+b") as fh:  # cut short in place, as a full disk leaves it
        fh.truncate(wasm.stat().st_size // 2)
    page = site / "cards" / ID[KEPT] / "index.html"
    data = bytearray(page.read_bytes())
    data[100] ^= 1  # one bit, the size unchanged
    page.write_bytes(bytes(data))
    (gen / "print" / f"{KEPT}-player-aid.pdf").unlink()
    with open(gen / f"{KEPT}.db", "ab") as fh:
        fh.write(b"junk")
    assert sorted(output_record.damaged(gen)) == sorted([
        wasm.relative_to(gen).as_posix(), page.relative_to(gen).as_posix(),
        f"print/{KEPT}-player-aid.pdf", f"{KEPT}.db"])

    done = build(project, "--game", KEPT)
    assert done.returncode == 0, done.stderr
    assert "up to date" not in done.stderr + done.stdout
    assert "remaking 4 output(s)" in done.stderr
    assert seen(snapshot(out)) == seen(good)
    done = build(project, "--game", KEPT)
    assert "up to date" in done.stdout + done.stderr


def test_an_incomplete_pagefind_bundle_is_found(tmp_path):
    site = tmp_path / "site"
    for i in range(3):
        page = site / f"p{i}" / "index.html"
        page.parent.mkdir(parents=True)
        page.write_text(f"<html><body data-pagefind-body><h1>Page {i}</h1>"
                        f"<p>bone ash {i}</p></body></html>")
    from charnel.site.search import UNUSED, _pagefind

    bundle = tmp_path / "bundle"
    subprocess.run([*_pagefind(), "--site", str(site), "--output-path", str(bundle),
                    "--silent", "--force-language", "en"], check=True, capture_output=True)
    for name in UNUSED:  # removed by the build too
        (bundle / name).unlink()
    scripts = search_whole.reference()
    assert search_whole.problems(bundle, scripts) == []

    def broken(change) -> list[str]:
        copy = tmp_path / "copy"
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(bundle, copy)
        change(copy)
        return search_whole.problems(copy, scripts)

    def cut(name: str):
        def change(copy: Path) -> None:
            path = next(copy.glob(name))
            path.write_bytes(path.read_bytes()[: path.stat().st_size * 3 // 4])
        return change

    assert "wasm.en.pagefind: incomplete" in broken(cut("wasm.*.pagefind"))[0]
    assert "pagefind.js: " in broken(cut("pagefind.js"))[0]
    assert "incomplete" in broken(cut("fragment/*"))[0]
    assert "missing" in broken(lambda c: next(c.glob("fragment/*")).unlink())[0]
    assert "pagefind-entry.json" in broken(cut("pagefind-entry.json"))[0]
    gz = gzip.compress(b"x" * 1000)
    assert "incomplete" in broken(
        lambda c: next(c.glob("index/*")).write_bytes(gz[:-8]))[0]


def test_a_bundle_pagefind_cut_short_fails_the_build_and_keeps_the_outputs(tmp_path, monkeypatch):
    """Pagefind exiting 0 over a WebAssembly file a full disk cut short, as it did: the build
    fails with a message and every output is the previous one."""
    from charnel import pipeline
    from charnel.site import search

    project = copy_project(tmp_path / "project", DUEL)
    game = only_game(DUEL)
    out = project / "build"
    pipeline.build_all(project, [game], out, site=True)
    before = snapshot(out)
    real = search._pagefind()
    cutting = tmp_path / "pagefind-on-a-full-disk.py"
    cutting.write_text(
        "import pathlib, subprocess, sys\n"
        f"done = subprocess.run({real!r} + sys.argv[1:])\n"
        "out = pathlib.Path(sys.argv[sys.argv.index('--output-path') + 1])\n"
        "for wasm in out.glob('wasm.*.pagefind'):\n"
        "    wasm.write_bytes(wasm.read_bytes()[:4096])\n"
        "sys.exit(done.returncode)\n"
    )
    monkeypatch.setattr(search, "_pagefind", lambda: [sys.executable, str(cutting)])
    monkeypatch.setattr(search, "FOLD", 1)  # a one-card edit of the small project stays a delta
    card = project / "cards" / game / "embers" / "ash-page.yaml"
    card.write_text(card.read_text() + "flavor: Changed.\n")
    cut = r"search index pagefind-delta/ .* incomplete .*: wasm"  # an edit indexes the delta
    with pytest.raises(pipeline.BuildFailed, match=cut):
        pipeline.build_all(project, [game], out, site=True)
    assert snapshot(out) == before


def test_a_full_disk_is_named_in_the_message():
    import errno

    from charnel import pipeline

    failed = pipeline._failed(OSError(errno.ENOSPC, "No space left on device"), Path("build"))
    assert str(failed).startswith("the disk of build is full")
    assert str(failed).endswith("; the previous outputs are unchanged")
    import sqlite3

    conn = sqlite3.connect(":memory:")
    conn.execute("pragma max_page_count = 2")
    try:
        conn.execute("create table t (x)")
        conn.execute("insert into t values (zeroblob(100000))")
    except sqlite3.Error as exc:
        assert str(pipeline._failed(exc, Path("build"))).startswith("the disk of build is full")
    else:
        raise AssertionError("sqlite did not fill")
