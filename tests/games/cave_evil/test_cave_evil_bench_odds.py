"""scripts/bench_odds.py at a small size: it times `charnel odds`'s in-process path and the
bare arithmetic on the same matchups, and prints both with their ratio (no time asserted)."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "scripts"))

import bench_odds  # noqa: E402


def test_bench_odds_prints_the_path_the_baseline_and_their_ratio(capsys):
    bench_odds.run(argparse.Namespace(source=ROOT, matchups=4, seed=3))
    out = capsys.readouterr().out
    assert re.search(r"card pool loaded once in \d+ ms \(\d+ cards\)", out)
    assert re.search(r"charnel odds in-process, 4 matchups, .* median [\d.]+ ms", out)
    assert re.search(r"the whole path is [\d.]+x the bare arithmetic", out)
    assert re.search(r"what flips it .*, 4 matchups: median [\d.]+ ms, .* [\d]+x one matchup", out)


def test_the_drawn_sides_are_ones_charnel_odds_accepts():
    records = bench_odds.load(ROOT)
    from charnel.games.cave_evil.odds_report import fight_odds

    for attacker, defender in bench_odds.draw(records, 5, seed=3):
        assert fight_odds(records.cards, attacker, defender)["data"]["result"]["attacker"]
