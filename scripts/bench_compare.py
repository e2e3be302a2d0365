"""The same benchmarks over two versions of charnel, side by side, in one run.

    .venv/bin/python scripts/bench_compare.py --base <commit> --only build
    .venv/bin/python scripts/bench_compare.py --base <commit> --only site --cards 10000

The base commit is checked out in a temporary git worktree; each version runs its own
`scripts/bench.py` over its own sources, with its own `src/` first on the path, in turns
(base, this checkout, base, this checkout ...) so that a machine busy with other work weighs
on both alike. Every further option goes to bench.py unchanged.
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


def bench(tree: Path, passed: list[str]) -> str:
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    command = [sys.executable, str(tree / "scripts" / "bench.py"), "--source", str(tree), *passed]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    return done.stdout + (f"\n[exit {done.returncode}]\n{done.stderr}" if done.returncode else "")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base", required=True, help="the commit to compare against")
    parser.add_argument("--rounds", type=int, default=2, help="turns each version takes")
    args, passed = parser.parse_known_args(argv)
    with tempfile.TemporaryDirectory(prefix="charnel-compare-") as tmp:
        base = Path(tmp) / "base"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(base), args.base],
            check=True,
        )
        try:
            for n in range(1, args.rounds + 1):
                for label, tree in (("base " + args.base, base), ("this checkout", ROOT)):
                    print(f"=== round {n}: {label}", flush=True)
                    print(bench(tree, passed), flush=True)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)])


if __name__ == "__main__":
    main()
