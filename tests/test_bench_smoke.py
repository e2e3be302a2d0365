"""Every benchmark runs at a small size and prints its figures (never a time is asserted): a
benchmark that no longer runs against the code is caught here, not when someone needs it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"
SMALL = ["--cards", "60", "--clauses", "200"]
NUMBER = r"[\d,.]+"

# area -> lines its figures must be printed on
FIGURES = {
    "build": [rf"^load +{NUMBER} s wall", rf"^compile: write +{NUMBER} s wall",
              rf"^baseline executemany +{NUMBER} s wall", rf"^one-card edit .* {NUMBER} s",
              rf"^no-change rebuild, whole `charnel build` process: {NUMBER} s",
              # the edit's database, updated in place, is the one written whole
              r"^database after a one-card edit, updated in place: .*; the same file: yes$"],
    "examples": [rf"^examples: {NUMBER} runs/s",
                 rf"^verify cards: {NUMBER} cards, .* in {NUMBER} s"],
    "site": [rf"^full build +{NUMBER} s", rf"^one card changed +{NUMBER} s",
             rf"^full / one-card rebuild +{NUMBER}x", rf"^search payload, home page {NUMBER} KB",
             rf"^bundled [\w-]+, 2 release\(s\): without them {NUMBER} s .*: {NUMBER}x",
             rf"^charnel / \(hugo \+ pagefind\) pages/s {NUMBER}",
             rf"^hugo \+ pagefind, same words {NUMBER} s .* {NUMBER} words in {NUMBER} pages",
             rf"^charnel / \(hugo \+ pagefind, same words\) pages/s {NUMBER}"],
    "odds": [rf"median {NUMBER} ms, p99 {NUMBER} ms"],
    "serve": [rf"^first serve: / answers after {NUMBER} s",
              rf"^first serve: every rules booklet linked after {NUMBER} s"],
    "field_search": [rf"^### {NUMBER} cards, charnel build {NUMBER} s; field index",
                     rf"^  words .* {NUMBER} s \(baseline\)",
                     rf"^  field .* {NUMBER} s, {NUMBER} requests, {NUMBER} KB; "
                     rf"{NUMBER}x the words"],
    "watch": [rf"^### synthetic pool: {NUMBER} cards",
              rf"^save to new page in Chromium: median {NUMBER} s",
              rf"^baseline, the same edit then `charnel build --no-print` .*: {NUMBER} s",
              rf"^save to new page / baseline build: {NUMBER}x"],
    "search": [rf"^### synthetic pool: {NUMBER} cards, charnel build {NUMBER} s",
               rf"charnel site +first: +{NUMBER} s",
               rf"^after a one-card edit: charnel build {NUMBER} s, delta bundle present",
               rf"charnel site, delta +first: +{NUMBER} s"],
}


def _run(script: str, *args: str, tmp_path: Path) -> str:
    path = os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "BENCH_SEARCH_RUNS": "1", "BENCH_SERVE_POOL": "synthetic",
           "BENCH_SEARCH_POOL": "synthetic",
           "BENCH_WATCH_POOL": "synthetic", "BENCH_WATCH_ROUNDS": "2", "PYTHONPATH": path}
    done = subprocess.run(
        [sys.executable, str(SCRIPTS / script), *args], capture_output=True, text=True,
        env=env, cwd=tmp_path, check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.mark.parametrize("area", sorted(FIGURES))
def test_bench_area_runs_and_prints_its_figures(area, tmp_path):
    said = _run("bench.py", "--only", area, *SMALL, "--tmp", str(tmp_path), tmp_path=tmp_path)
    assert f"## {area}" in said
    for figure in FIGURES[area]:
        assert re.search(figure, said, re.M), f"no line matching {figure!r} in:\n{said}"


def test_bench_compare_runs_both_versions(tmp_path):
    said = _run("bench_compare.py", "--base", "HEAD", "--rounds", "1", "--only", "odds",
                *SMALL, tmp_path=tmp_path)
    assert re.search(r"^=== round 1: base HEAD \(load average", said, re.M), said
    assert re.search(r"^=== round 1: this checkout", said, re.M), said
    rounds = said.split("=== round 1: this checkout")
    assert all(re.search(FIGURES["odds"][0], part) for part in rounds), said
