"""Benchmark area `odds`: the time to compute one matchup's exact fight odds (Cave Evil: both
sides' totals and the attacker's chance for every first attribute; target: well under 10 ms).

Matchups are drawn, seeded, from the Cave Evil cards under cards/cave-evil/ (read as plain
YAML, so no build is needed): one to three squads a side of one to three creatures, an item
now and then. Part of scripts/bench.py (area "odds"), or on its own:

    .venv/bin/python scripts/bench_odds.py [--matchups 2000] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
TARGET_MS = 10.0


def fighters(source: Path):
    from charnel.games.cave_evil.engine.fight import Creature
    from charnel.games.cave_evil.fighters import Pool

    cards = [yaml.safe_load(p.read_text()) for p in sorted(source.glob("cards/cave-evil/*/*.yaml"))]
    pool = list(Pool(c for c in cards if isinstance(c, dict)).by_key.values())
    creatures = [f for f in pool if isinstance(f, Creature)]
    return creatures, [f for f in pool if not isinstance(f, Creature)]


def matchups(count: int, seed: int, source: Path):
    from charnel.games.cave_evil.engine.fight import Matchup, Squad

    creatures, items = fighters(source)
    rng = random.Random(seed)

    def side():
        return tuple(
            Squad(
                tuple(rng.choices(creatures, k=rng.randint(1, 3))),
                tuple(rng.choices(items, k=rng.random() < 0.5)) if items else (),
            )
            for _ in range(rng.choice((1, 1, 1, 2, 3)))
        )

    return [Matchup(side(), side()) for _ in range(count)], len(creatures), len(items)


def run(args) -> None:
    from charnel.games.cave_evil.engine.odds import odds

    source = getattr(args, "source", HERE.parent)
    count = getattr(args, "matchups", 2000)
    found, creatures, items = matchups(count, getattr(args, "seed", 1), source)
    if not creatures:
        print(f"no Cave Evil creatures under {source / 'cards' / 'cave-evil'}")
        return
    # Each matchup's best of three: on a shared machine a single timing is mostly the wait
    # for a core.
    times = []
    for matchup in found:
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            odds(matchup)
            best = min(best, time.perf_counter() - start)
        times.append(best)
    ms = sorted(t * 1000 for t in times)
    print(
        f"fight odds, {count:,} matchups from {creatures} creatures and {items} items/spells, "
        f"best of 3 each: median {statistics.median(ms):.3f} ms, "
        f"p99 {ms[int(len(ms) * 0.99) - 1]:.3f} ms, max {ms[-1]:.3f} ms a matchup "
        f"(target: under {TARGET_MS:.0f} ms)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matchups", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--source", type=Path, default=HERE.parent, help="project to read")
    run(parser.parse_args())


if __name__ == "__main__":
    main()
