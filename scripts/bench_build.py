"""Benchmark of the load, check and compile stages, with a plain-sqlite3 baseline.

Figures per stage: wall seconds, CPU seconds (the load's worker processes included), files/s
or rows/s, and this process's peak resident memory after the stage. The baseline inserts the
very rows compile writes, with sqlite3.executemany in one transaction into the same tables,
in the same process.
"""

from __future__ import annotations

import json
import os
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from charnel import compile, pipeline, schema
from charnel.diagnostics import Problems
from charnel.registry import get as get_game
from charnel.sources import loader
from charnel.verify import verify


@contextmanager
def timed(results: dict, name: str):
    wall, cpu = time.perf_counter(), _cpu()
    yield
    results[name] = (time.perf_counter() - wall, _cpu() - cpu, _peak_mb())


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (the load's parse workers)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run(args) -> None:
    root, game_id = args.pool, args.game
    t: dict[str, tuple[float, float, float]] = {}
    problems = Problems()
    with timed(t, "load"):
        records = loader.load(root, game_id, problems)
    with timed(t, "check"):
        verified = verify(records, problems)
    if problems:
        print(
            f"the synthetic pool has problems ({problems.summary()}); first: "
            f"{problems.sorted()[0].origin}: {problems.sorted()[0].message}"
        )
        raise SystemExit(1)
    files = len(records.files)
    with timed(t, "compile: rows"):
        rows = compile.rows(verified, [])
    count = sum(len(r) for r in rows.values())
    db_schema = schema.for_game(get_game(game_id))
    with tempfile.TemporaryDirectory() as tmp:
        with timed(t, "compile: write"):
            compile.write_rows(db_schema, rows, Path(tmp) / "game.db")
        with timed(t, "baseline executemany"):
            _baseline(db_schema, rows, Path(tmp) / "plain.db")

    def line(name: str, unit: str, amount: int) -> None:
        wall, cpu, peak = t[name]
        print(
            f"{name:<22} {wall:7.2f} s wall {cpu:7.2f} s cpu {amount / wall:>10,.0f} {unit}/s"
            f"   peak RSS {peak:6.0f} MB"
        )

    line("load", "files", files)
    line("check", "files", files)
    line("compile: rows", "rows", count)
    line("compile: write", "rows", count)
    line("baseline executemany", "rows", count)
    check_compile = sum(t[k][0] for k in ("load", "check", "compile: rows", "compile: write"))
    print(
        f"check + compile (load, check, rows, write): {check_compile:.2f} s wall "
        f"for {len(records.cards):,} cards, {count:,} rows"
    )
    base = t["baseline executemany"][0]
    print(
        f"compile write / plain executemany: {t['compile: write'][0] / base:.2f}x; "
        f"rows + write / plain executemany: "
        f"{(t['compile: rows'][0] + t['compile: write'][0]) / base:.2f}x"
    )
    no_change(root, game_id)


def _baseline(db_schema, rows: dict[str, list[dict]], path: Path) -> None:
    """The same rows into the same tables with nothing but sqlite3.executemany."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN")
    for statement in compile.ddl(db_schema):
        conn.execute(statement)
    for name in db_schema.tables:
        data = rows.get(name)
        if data:
            columns = list(db_schema.table(name).columns.keys())
            conn.executemany(
                f'INSERT INTO "{name}" ({", ".join(columns)}) '
                f"VALUES ({', '.join(':' + c for c in columns)})",
                data,
            )
    conn.execute("COMMIT")
    conn.close()


def no_change(root: Path, game_id: str) -> None:
    """A full build, then the command a user types again: the second must skip everything."""
    out = root / "build"
    start = time.perf_counter()
    pipeline.build(root, game_id, out, force=True)
    full = time.perf_counter() - start
    command = [
        sys.executable,
        "-m",
        "charnel.cli",
        "build",
        "--root",
        str(root),
        "--out",
        str(out),
        "--game",
        game_id,
        "--no-site",
        "--no-print",
    ]
    # The stamp covers charnel's own code too; in a tree where code is being edited while the
    # full build runs, re-stamp now so the measured run sees what a user's unchanged tree shows.
    previous = json.loads((out / f".{game_id}.stamp").read_text())
    pipeline._write_stamp(
        out / f".{game_id}.stamp", pipeline.fingerprint(root, game_id), previous["outputs"]
    )
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=os.environ)
    again = time.perf_counter() - start
    said = done.stdout.strip() or done.stderr.strip()
    print(f"full database build (all stages, examples too): {full:.2f} s")
    print(f"no-change rebuild, whole `charnel build` process: {again:.2f} s ({said})")
