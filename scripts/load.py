"""Load test for `charnel serve`: many concurrent clients against the synthetic 50,000-card pool.

Makes the pool with scripts/synth.py (kept between runs in --pool), starts `charnel serve` on
127.0.0.1 as a subprocess (it builds first when the pool changed), then runs --clients
concurrent clients for --seconds over a mix of table pages, full-text searches and
search-language queries. Prints requests/s, latency percentiles and errors per kind, and each
kind's median as a ratio of a trivial request's median measured in the same run (the baseline).

    .venv/bin/python scripts/load.py [--clients 50] [--seconds 60] [--cards 50000] [--source .]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import sqlite3
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "scripts"))

from synth import make_pool  # noqa: E402

GAME = "hecatomb"
WORDS = ["soul", "stack", "reap", "doom", "minion", "abomination", "damage", "turn", "attack"]
QUERIES = [
    "doom:greed t:minion str>=3",
    "kw:evader",
    'kw:"evader(corruption)" -doom:greed',
    "o:reap cost<=2",
    "t:minion (doom:deceit or doom:destruction) str>=2",
    "r:rare s:base",
    "cost:x",
    '"grave" -t:fate',
    "sub:beast str<=3",
    "cn:17",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def requests_for(database: Path, rng: random.Random) -> dict[str, list[str]]:
    """Request paths by kind; card ids come from the database so row pages exist."""
    conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    ids = [r[0] for r in conn.execute("select id from cards order by random() limit 200")]
    conn.close()
    db = f"/sql/{GAME}"
    table = [f"{db}/cards/{i}" for i in rng.sample(ids, min(50, len(ids)))]
    table += [
        f"{db}/cards?_size=50", f"{db}/cards.json?doom=greed&_size=50",
        f"{db}/cards.json?type=minion&_sort=cost_value&_size=50", f"{db}/rules?_size=50",
        f"{db}/card_keywords.json?keyword=evader&_size=50",
    ]
    fts = [f"{db}/cards.json?_search={w}&_size=50" for w in WORDS]
    fts += [f"{db}/rules.json?_search={w}&_size=50" for w in WORDS]
    search = [f"{db}/-/search.json?q={httpx.QueryParams({'q': q})['q']}" for q in QUERIES]
    search += [f"{db}/-/search?q={q}" for q in QUERIES[:3]]
    return {"baseline": ["/sql/-/versions.json"], "table": table, "fts": fts, "search": search}


async def drive(base: str, paths: dict[str, list[str]], clients: int, seconds: float, seed: int):
    """Run the clients; returns (latencies by kind, errors by kind, elapsed seconds)."""
    latencies: dict[str, list[float]] = {k: [] for k in paths}
    errors: dict[str, list[str]] = {k: [] for k in paths}
    kinds = list(paths)
    weights = [1, 3, 3, 3]  # baseline is a small share; the rest evenly
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=30) as client:
        end = time.perf_counter() + seconds

        async def one(n: int) -> None:
            rng = random.Random(seed * 1000 + n)
            while time.perf_counter() < end:
                kind = rng.choices(kinds, weights)[0]
                path = rng.choice(paths[kind])
                start = time.perf_counter()
                try:
                    response = await client.get(path)
                    ok = response.status_code == 200
                    detail = f"{response.status_code} {path}"
                except httpx.HTTPError as exc:
                    ok, detail = False, f"{type(exc).__name__} {path}"
                latencies[kind].append(time.perf_counter() - start)
                if not ok:
                    errors[kind].append(detail)

        began = time.perf_counter()
        await asyncio.gather(*(one(n) for n in range(clients)))
        return latencies, errors, time.perf_counter() - began


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def report(latencies, errors, elapsed: float) -> None:
    total = sum(len(v) for v in latencies.values())
    base = statistics.median(latencies["baseline"]) if latencies["baseline"] else float("nan")
    print(f"{total} requests in {elapsed:.1f} s: {total / elapsed:.0f} requests/s")
    print(f"{'kind':<9}{'requests':>9}{'req/s':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}"
          f"{'errors':>8}{'p50/baseline':>14}")
    for kind, values in latencies.items():
        if not values:
            continue
        p50, p95, p99 = (percentile(values, p) * 1000 for p in (50, 95, 99))
        print(f"{kind:<9}{len(values):>9}{len(values) / elapsed:>8.0f}{p50:>9.1f}{p95:>9.1f}"
              f"{p99:>9.1f}{len(errors[kind]):>8}{statistics.median(values) / base:>14.1f}")
    for kind, found in errors.items():
        for detail in sorted(set(found))[:5]:
            print(f"error ({kind}): {detail}")


def wait_for(base: str, process: subprocess.Popen, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"charnel serve exited with status {process.returncode}")
        try:
            if httpx.get(base + "/sql/-/versions.json", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise SystemExit(f"charnel serve did not answer within {timeout:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--cards", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--source", type=Path, default=REPO,
                        help="project whose cards and rules the pool copies")
    parser.add_argument("--pool", type=Path, default=REPO / "build" / "load-pool",
                        help="where the synthetic project is kept between runs")
    args = parser.parse_args()

    marker = args.pool / f".made-{args.cards}-{args.seed}-{args.source.resolve().name}"
    if not marker.exists():
        print(f"making a {args.cards}-card pool in {args.pool} ...", flush=True)
        make_pool(args.pool, cards=args.cards, seed=args.seed, source=args.source)
        marker.touch()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    charnel = Path(sys.executable).with_name("charnel")
    command = [str(charnel), "serve", "--root", str(args.pool), "--out", str(args.pool / "build"),
               "--game", GAME, "--host", "127.0.0.1", "--port", str(port)]
    print("starting:", " ".join(command), flush=True)
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, env=os.environ.copy())
    try:
        wait_for(base, process, timeout=1800)  # the first run builds the pool's database
        paths = requests_for(args.pool / "build" / f"{GAME}.db", random.Random(args.seed))
        print(f"{args.clients} clients for {args.seconds:.0f} s against {base}", flush=True)
        latencies, errors, elapsed = asyncio.run(
            drive(base, paths, args.clients, args.seconds, args.seed)
        )
        report(latencies, errors, elapsed)
    finally:
        process.terminate()
        process.wait(timeout=30)


if __name__ == "__main__":
    main()
