"""Benchmarks, one section per area, over one synthetic project made by scripts/synth.py.

    .venv/bin/python scripts/bench.py                      # every area, 50,000 cards
    .venv/bin/python scripts/bench.py --only build --cards 5000
    .venv/bin/python scripts/bench.py --only build --cards 5000 --game cave-evil

An area is a module `scripts/bench_<area>.py` with a `run(args)` function that prints its
figures; `args.pool` is the synthetic project (built once, shared) and `args.game` its game.
Add an area by writing the module and adding its name to AREAS.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from synth import DEFAULT_GAME, make_pool  # noqa: E402 - found through the line above

AREAS = [
    "build",  # load, check and compile (bench_build.py)
    "examples",  # example runs and card verification (bench_examples.py)
    "site",  # static site: full and one-card builds vs Hugo (bench_site.py)
    "odds",  # exact fight odds per matchup (bench_odds.py)
    "search",  # a query typed on the served site in Chromium, emulated networks (bench_search.py)
    "field_search",  # a field query on a static copy, phone on Fast 3G (bench_field_search.py)
    "serve",  # a first `charnel serve` of the bundled data, as a whole process (bench_serve.py)
    "watch",  # from a saved card file to the new page in Chromium (bench_watch.py)
]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="charnel benchmarks")
    parser.add_argument("--only", choices=AREAS, action="append", help="run only this area")
    parser.add_argument("--cards", type=int, default=50_000)
    parser.add_argument("--clauses", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--source", type=Path, default=HERE.parent, help="project to copy from")
    parser.add_argument("--keep", type=Path, help="write the pool here and keep it")
    parser.add_argument("--tmp", type=Path, help="folder for the work files (default: the "
                        "system's); /dev/shm keeps a rate-limited disk out of the figures")
    parser.add_argument("--game", default=DEFAULT_GAME,
                        help=f"the game the pool copies (default: {DEFAULT_GAME})")
    args = parser.parse_args(argv)
    if args.tmp:
        try:
            args.tmp.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            parser.error(f"--tmp {args.tmp}: {exc.strerror}")
        tempfile.tempdir = str(args.tmp)
    with tempfile.TemporaryDirectory(prefix="charnel-bench-") as tmp:
        args.pool = args.keep or Path(tmp) / "pool"
        start = time.perf_counter()
        make_pool(
            args.pool,
            cards=args.cards,
            clauses=args.clauses,
            seed=args.seed,
            source=args.source,
            game_id=args.game,
        )
        print(
            f"# charnel benchmarks: {args.cards:,} cards, {args.clauses:,} clauses "
            f"(seed {args.seed}) of {args.game}, {os.cpu_count()} cores, "
            f"Python {sys.version.split()[0]}"
        )
        print(f"synthetic pool written in {time.perf_counter() - start:.1f} s\n")
        for area in args.only or AREAS:
            print(f"## {area}")
            importlib.import_module(f"bench_{area}").run(args)
            print()


if __name__ == "__main__":
    main()
