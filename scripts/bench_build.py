"""Benchmark of the load, check and compile stages, with a plain-sqlite3 baseline.

Figures per stage: wall seconds, CPU seconds (the load's worker processes included), files/s
or rows/s, and this process's peak resident memory after the stage. The baseline inserts the
very rows compile writes, with sqlite3.executemany in one transaction into the same tables,
in the same process.
"""

from __future__ import annotations

import json
import os
import re
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from synth import find_game

from charnel import compile, outputs, pipeline, schema
from charnel.diagnostics import Problems
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
    if records is None:
        raise SystemExit(f"the synthetic pool does not load ({problems.summary()}); first: "
                         f"{problems.sorted()[0].origin}: {problems.sorted()[0].message}")
    with timed(t, "check"):
        verified = verify(records, problems)
    if problems:  # a game that fixes its groups' sizes (see synth.py): timed all the same
        print(
            f"the synthetic pool has problems ({problems.summary()}); first: "
            f"{problems.sorted()[0].origin}: {problems.sorted()[0].message}"
        )
    files = len(records.files)
    with timed(t, "compile: rows"):
        rows = compile.rows(verified, [])
    count = sum(len(r) for r in rows.values())
    game = find_game(game_id)
    db_schema = schema.for_game(game)
    with tempfile.TemporaryDirectory() as tmp:
        with timed(t, "compile: write"):
            compile.write_rows(game, rows, Path(tmp) / "game.db")
        with timed(t, "baseline executemany"):
            _baseline(db_schema, rows, Path(tmp) / "plain.db")
        if not problems:
            edited_database(verified, rows, Path(tmp))

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
    if problems:
        print("full and no-change builds: not measured, the pool does not build")
        return
    no_change(root, game_id)


def edited_database(verified, rows: dict, tmp: Path) -> None:
    """A one-card edit's database two ways, in this process: the last database updated in
    place (what a build does), and every table written again from rows kept whole (the rows
    are at hand here; reading them from a store is not counted, which favours that way)."""
    try:
        from charnel import database_update
    except ImportError:  # a version of charnel from before the database was updated
        print("database after a one-card edit: this version writes it whole (above)")
        return
    last, kept = tmp / "last.db", {}
    database_update.write(verified, [], last, kept)
    card = verified.records.cards[len(verified.records.cards) // 2]
    card.flavor = "Changed in place."
    card._source_hash = "edited"
    # checked again, as a build would after the edit: the cards' identities are made anew
    verified = type(verified)(verified.records, verified.card_text)
    t: dict[str, tuple[float, float, float]] = {}
    with timed(t, "in place"):
        database_update.write(verified, [], tmp / "updated.db", kept, previous=last)
    rows["cards"] = [dict(r, flavor=card.flavor) if r["id"] == card.slug else r
                     for r in rows["cards"]]
    with timed(t, "from kept rows"):
        compile.write_rows(verified.records.game, rows, tmp / "rewritten.db")
    same = (tmp / "updated.db").read_bytes() == (tmp / "rewritten.db").read_bytes()
    print(f"database after a one-card edit, updated in place: {t['in place'][0]:.2f} s wall, "
          f"{t['in place'][1]:.2f} s cpu; written whole from kept rows: "
          f"{t['from kept rows'][0]:.2f} s wall, {t['from kept rows'][1]:.2f} s cpu; "
          f"kept rows / in place {t['from kept rows'][1] / t['in place'][1]:.1f}x cpu; "
          f"the same file: {'yes' if same else 'NO'}")


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


def _process(command: list[str]) -> tuple[float, float, subprocess.CompletedProcess]:
    """Wall and CPU seconds of a whole process (its own children included): on a machine
    shared with other work the CPU time is the steadier figure."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=os.environ)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu, done


def no_change(root: Path, game_id: str) -> None:
    """A full build, then the command a user types again: with nothing changed it must skip
    everything; after one card's flavor edit it must cost what the card costs. Both are whole
    `charnel build` processes, which any version of charnel runs (see bench_compare.py)."""
    out = root / "build"
    command = [
        sys.executable, "-m", "charnel.cli", "build", "--root", str(root), "--out", str(out),
        "--game", game_id, "--no-site", "--no-print",
    ]
    forced, forced_cpu, done = _process([*command, "--force"])
    # The stamp covers charnel's own code too; in a tree where code is being edited while the
    # full build runs, re-stamp now so the measured run sees what a user's unchanged tree shows.
    stamp = (outputs.visible(out) or out) / f".{game_id}.stamp"
    previous = json.loads(stamp.read_text())
    pipeline._write_stamp(stamp, pipeline.fingerprint(root, game_id), previous["outputs"])
    again, again_cpu, done = _process(command)
    said = done.stdout.strip() or done.stderr.strip()
    print(f"full database build, whole `charnel build --force` process: {forced:.2f} s wall, "
          f"{forced_cpu:.2f} s cpu")
    print(f"no-change rebuild, whole `charnel build` process: {again:.2f} s wall, "
          f"{again_cpu:.2f} s cpu ({said})")
    edits = []
    files = sorted((root / "cards" / game_id).glob("*/*.yaml"))
    for n, card in enumerate((files[len(files) // 3], files[2 * len(files) // 3])):
        text = card.read_text("utf-8")
        changed = re.sub(r"^flavor: .*$", f"flavor: Changed {n}.", text, count=1, flags=re.M)
        card.write_text(changed if changed != text else text + f"flavor: Changed {n}.\n")
        wall, cpu, done = _process(command)
        edits.append((wall, cpu))
        if done.returncode:
            print(f"one-card edit: the build failed: {done.stderr.strip()[-500:]}")
            return
    wall, cpu = min(edits)
    print(f"one-card edit (flavor), whole `charnel build --no-site --no-print` process: "
          f"{wall:.2f} s wall, {cpu:.2f} s cpu, the better of {len(edits)} "
          f"({', '.join(f'{w:.2f} s wall, {c:.2f} s cpu' for w, c in edits)}); "
          f"full / one-card edit {forced / wall:.1f}x wall, {forced_cpu / cpu:.1f}x cpu")
