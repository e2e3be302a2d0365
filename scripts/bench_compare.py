"""The same benchmarks over two versions of charnel, side by side, in one run.

    .venv/bin/python scripts/bench_compare.py --base <commit> --only build
    .venv/bin/python scripts/bench_compare.py --base <commit> --only site --cards 10000

The base commit's files are written to a temporary folder (`git archive`); each version runs
over its own sources, with its own `src/` first on the path, in turns (base, this checkout,
base, this checkout ...) so that a machine busy with other work weighs on both alike. Both run
this checkout's `scripts/bench.py`, so the two are measured the same way, and a base whose own
benchmarks no longer run (they rotted, or lack an option such as --game) can still be compared;
`--own-scripts` runs each version's own instead. Every further option goes to bench.py
unchanged. Each round prints the load average it started at.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def bench(tree: Path, scripts: Path, passed: list[str]) -> str:
    path = [str(tree / "src"), os.environ.get("PYTHONPATH", "")]  # games named in CHARNEL_GAMES
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, path))}
    command = [sys.executable, str(scripts / "bench.py"), "--source", str(tree), *passed]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    return done.stdout + (f"\n[exit {done.returncode}]\n{done.stderr}" if done.returncode else "")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base", required=True, help="the commit to compare against")
    parser.add_argument("--rounds", type=int, default=2, help="turns each version takes")
    parser.add_argument("--own-scripts", action="store_true",
                        help="run each version's own scripts/bench.py")
    args, passed = parser.parse_known_args(argv)
    with tempfile.TemporaryDirectory(prefix="charnel-compare-") as tmp:
        base = Path(tmp) / "base"
        base.mkdir()
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.base],
                                 capture_output=True, check=False)
        if archive.returncode:
            raise SystemExit(f"bench_compare: {archive.stderr.decode().strip()}")
        subprocess.run(["tar", "-x", "-C", str(base)], input=archive.stdout, check=True)
        failed = False
        for n in range(1, args.rounds + 1):
            for label, tree in (("base " + args.base, base), ("this checkout", ROOT)):
                load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
                print(f"=== round {n}: {label} (load average {load})", flush=True)
                scripts = tree / "scripts" if args.own_scripts else HERE
                said = bench(tree, scripts, passed)
                failed |= "\n[exit " in said
                print(said, flush=True)
    if failed:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
