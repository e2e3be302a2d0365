"""Benchmark area `examples`: example runs per second, and verifying every card of the
synthetic pool against its keywords' examples (target: under 10 s for 50,000 cards).

Figures are printed with ratios to a baseline measured in the same process (loading the pool).
Part of scripts/bench.py (area "examples"), or on its own:

    .venv/bin/python scripts/bench_examples.py [--cards 50000]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from charnel.engine import outcomes

HERE = Path(__file__).resolve().parent
TARGET_SECONDS = 10.0


def run(args) -> None:
    from charnel import registry
    from charnel.diagnostics import Problems
    from charnel.examples import no_cycle_collection, run_all
    from charnel.sources import loader

    start = time.perf_counter()
    problems = Problems()
    records = loader.load(args.pool, args.game, problems)
    load_s = time.perf_counter() - start
    if records is None or problems:
        print(f"pool does not load: {problems.summary()}")
        return
    game = registry.get(args.game)
    counts = f"{len(records.cards):,} cards, {len(records.examples)} examples"
    print(f"baseline: load {counts}: {load_s:.2f} s")

    runs, start = 0, time.perf_counter()
    with no_cycle_collection():
        while time.perf_counter() - start < 2.0:
            made = [outcomes.run_example(game, e, records) for e in records.examples]
            failed = sum(not o.passed for o in made)
            runs += len(records.examples)
    run_s = time.perf_counter() - start
    print(
        f"examples: {runs / run_s:,.0f} runs/s ({len(records.examples)} examples, "
        f"{failed} failing), one pass = {len(records.examples) / (runs / run_s):.3f} s"
    )

    start = time.perf_counter()
    outcomes = run_all(records)
    verify_s = time.perf_counter() - start
    passed = sum(o.passed for o in outcomes)
    verdict = "within" if verify_s < TARGET_SECONDS else "OVER"
    print(
        f"verify cards: {len(records.cards):,} cards, {len(outcomes):,} example results "
        f"({passed:,} pass) in {verify_s:.2f} s: {verdict} the {TARGET_SECONDS:.0f} s target; "
        f"{verify_s / load_s:.2f}x the load"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="example-run benchmarks")
    parser.add_argument("--cards", type=int, default=50_000)
    parser.add_argument("--clauses", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--source", type=Path, default=HERE.parent)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(HERE))
    from synth import game_ids, make_pool

    args.game = game_ids(args.source)[0]
    with tempfile.TemporaryDirectory(prefix="charnel-bench-") as tmp:
        args.pool = make_pool(
            Path(tmp) / "pool",
            cards=args.cards,
            clauses=args.clauses,
            seed=args.seed,
            source=args.source,
            game_id=args.game,
        )
        run(args)


if __name__ == "__main__":
    main()
