"""Benchmark area `odds`: one Cave Evil matchup as `charnel odds` computes it in-process (target:
well under 10 ms), against the bare arithmetic in the same process.

The path timed is `fight_odds(cards, attacker, defender, modes)`, the very call `charnel odds`
makes once the card pool is loaded: the sides read from text against the pool, each card made
by the engine, each squad checked, the fighting sides decided by the engine (`sides`), and the
exact odds for every first attribute with the report's table. The baseline is `odds()` alone on
the same matchups, already made. Loading the card pool (`loader.load`) is timed once apart,
and "what flips it" (`charnel odds --flip`) at its worst on the first ten matchups.

Matchups are drawn, seeded, from the project's Cave Evil cards: one to three squads a side of
one to three creatures and an item or spell now and then; sides the rules refuse are drawn
again. Part of scripts/bench.py (area "odds"), or on its own:

    .venv/bin/python scripts/bench_odds.py [--matchups 500] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
TARGET_MS = 10.0
FLIPS = 10  # matchups timed for what flips them
GAME = "cave-evil"


def load(source: Path):
    from charnel.diagnostics import Problems
    from charnel.sources import loader

    problems = Problems()
    records = loader.load(source, GAME, problems)
    return None if records is None or problems else records


def draw(records, count: int, seed: int) -> list[tuple[str, str]]:
    """Legal sides as `charnel odds` takes them: 'Ghoul, Ratman + Spiked Shield / Cavelling'."""
    from charnel.games.cave_evil.engine.fight import FightError
    from charnel.games.cave_evil.fighters import CREATURE_TYPES, Pool
    from charnel.games.cave_evil.odds_report import squads_of

    pool = Pool(records.cards)
    creatures = [b["name"] for b in pool.by_key.values() if b.get("type") in CREATURE_TYPES[:1]]
    items = [b["name"] for b in pool.by_key.values() if b.get("type") in ("item", "spell")]
    rng = random.Random(seed)

    def side() -> str:
        squads = []
        for _ in range(rng.choice((1, 1, 1, 2, 3))):
            names = rng.choices(creatures, k=rng.randint(1, 3))
            if rng.random() < 0.5:
                names.append(rng.choice(items))
            squads.append(", ".join(names))
        return " / ".join(squads)

    found = []
    while len(found) < count:
        attacker, defender = side(), side()
        try:
            squads_of(pool, attacker, defender, [])
        except FightError:
            continue  # a squad the rules refuse: draw again
        found.append((attacker, defender))
    return found


def best_of_three(call) -> float:
    # on a shared machine a single timing is mostly the wait for a core
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - start)
    return best


def figures(times: list[float]) -> tuple[float, float, float]:
    ms = sorted(t * 1000 for t in times)
    return statistics.median(ms), ms[max(0, int(len(ms) * 0.99) - 1)], ms[-1]


def run(args) -> None:
    from charnel.games.cave_evil.engine.odds import odds
    from charnel.games.cave_evil.fighters import Pool
    from charnel.games.cave_evil.odds_lines import flip
    from charnel.games.cave_evil.odds_report import fight_odds, matchup, squads_of

    source = getattr(args, "source", HERE.parent)
    count = getattr(args, "matchups", 500)
    start = time.perf_counter()
    records = load(source)
    loaded = time.perf_counter() - start
    if records is None:
        print(f"no Cave Evil card pool loads from {source}")
        return
    sides = draw(records, count, getattr(args, "seed", 1))
    pool = Pool(records.cards)
    made = [matchup(*squads_of(pool, a, d, []), []) for a, d in sides]
    whole = [best_of_three(lambda a=a, d=d: fight_odds(records.cards, a, d, [])) for a, d in sides]
    bare = [best_of_three(lambda m=m: odds(m)) for m in made]
    w, b = figures(whole), figures(bare)
    print(f"card pool loaded once in {loaded * 1000:.0f} ms ({len(records.cards)} cards)")
    print(
        f"charnel odds in-process, {count:,} matchups, best of 3 each: median {w[0]:.3f} ms, "
        f"p99 {w[1]:.3f} ms, max {w[2]:.3f} ms a matchup (target: under {TARGET_MS:.0f} ms)"
    )
    print(
        f"baseline, odds() on the matchups already made: median {b[0]:.3f} ms, "
        f"p99 {b[1]:.3f} ms; the whole path is {w[0] / b[0]:.1f}x the bare arithmetic"
    )
    # what flips it, at its worst (no card reaches the chance, so every card is tried in
    # every squad), on the first few matchups: a few hundred matchups each
    tried = sides[:FLIPS]
    flips = [
        best_of_three(lambda a=a, d=d: flip(records.cards, a, d, [], "99.99%")) for a, d in tried
    ]
    f = figures(flips)
    print(
        f"what flips it (--flip 99.99%, every card tried), {len(tried)} matchups: median "
        f"{f[0]:.1f} ms, max {f[2]:.1f} ms; {f[0] / w[0]:.0f}x one matchup"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matchups", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--source", type=Path, default=HERE.parent, help="project to read")
    run(parser.parse_args())


if __name__ == "__main__":
    main()
