"""Load test for `charnel serve`: many concurrent clients against the synthetic 50,000-card pool.

Makes the pool with scripts/synth.py (kept between runs in --pool), starts `charnel serve` on
127.0.0.1 as a subprocess (it builds first when the pool changed), then runs --clients
concurrent clients for --seconds over a mix of table and row pages, full-text searches and
search-language queries, drawn at random from a few thousand distinct URLs (card ids, numbers
and words read from the database), so a response cache cannot answer everything. Prints
requests/s, latency percentiles, errors and cache hits per kind, each kind's median as a ratio
of a trivial request's median in the same run (the baseline), and the CPU used by the client
and by the server. The client is one asyncio loop speaking HTTP/1.1 over keep-alive sockets,
so it costs the server's 2 cores as little as possible.

    .venv/bin/python scripts/load.py [--clients 50] [--seconds 60] [--workers 2] [--cache-mb 64]
    .venv/bin/python scripts/load.py --profile     # pyinstrument, one request of each kind
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import socket
import sqlite3
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote, urlencode

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "scripts"))

from synth import make_pool  # noqa: E402

GAME = "hecatomb"
KINDS = ("baseline", "table", "fts", "search")
WEIGHTS = (1, 3, 3, 3)  # baseline is a small share; the rest evenly


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def requests_for(database: Path, rng: random.Random) -> dict[str, list[str]]:
    """Request paths by kind, built from the pool's own ids, numbers, words and values."""
    conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    ids = [r[0] for r in conn.execute("select id from cards order by id")]
    names = [r[0] for r in conn.execute("select name from cards order by id")]
    dooms = [r[0] for r in conn.execute("select distinct doom from cards order by 1")]
    types = [r[0] for r in conn.execute("select distinct type from cards order by 1")]
    keywords = [r[0] for r in conn.execute("select term from keywords order by 1")]
    top = conn.execute("select max(number) from cards").fetchone()[0] or 1
    conn.close()
    words = sorted({w.lower() for n in names for w in re.findall(r"[A-Za-z]{4,}", n)})
    db = f"/sql/{GAME}"

    def q(**params) -> str:
        return urlencode(params, quote_via=quote)

    table = [f"{db}/cards/{quote(i)}" for i in rng.sample(ids, 1000)]
    for _ in range(500):
        table.append(
            f"{db}/cards.json?{q(doom=rng.choice(dooms), cost_value=rng.randint(0, 6), _size=50)}"
        )
        table.append(f"{db}/cards?{q(type=rng.choice(types), _sort='cost_value', _size=50)}")
        table.append(f"{db}/card_keywords.json?{q(keyword=rng.choice(keywords), _size=50)}")
    table += [f"{db}/cards?_size=50", f"{db}/rules?_size=50"]
    fts = []
    for word in rng.sample(words, min(1000, len(words))):
        fts.append(f"{db}/cards.json?{q(_search=word, _size=50)}")
        fts.append(f"{db}/rules.json?{q(_search=word[:5], _size=50)}")
    search = []
    for _ in range(1000):
        query = rng.choice([
            f"cn:{rng.randint(1, top)}",
            f"{rng.choice(words)}",
            f"o:{rng.choice(words)[:4]} cost<={rng.randint(0, 4)}",
            f"doom:{rng.choice(dooms)} t:{rng.choice(types)} str>={rng.randint(0, 5)}",
            f"kw:{rng.choice(keywords)} -doom:{rng.choice(dooms)}",
            f'"{rng.choice(words)}" -t:{rng.choice(types)}',
        ])
        page = "-/search.json" if rng.random() < 0.75 else "-/search"
        search.append(f"{db}/{page}?{q(q=query)}")
    return {"baseline": ["/sql/-/versions.json"], "table": table, "fts": fts, "search": search}


class Connection:
    """One keep-alive HTTP/1.1 connection: send a GET, read status, headers and body."""

    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self.reader = self.writer = None

    async def get(self, path: str) -> tuple[int, bool]:
        """(status, whether the server's response cache answered); reconnects when closed."""
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        self.writer.write(f"GET {path} HTTP/1.1\r\nHost: {self.host}\r\n\r\n".encode())
        head = await self.reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers = dict(
            (k.strip().lower(), v.strip()) for k, _, v in (x.partition(":") for x in lines[1:] if x)
        )
        if headers.get("transfer-encoding") == "chunked":
            while size := int((await self.reader.readline()).split(b";")[0], 16):
                await self.reader.readexactly(size + 2)
            await self.reader.readline()
        else:
            await self.reader.readexactly(int(headers.get("content-length", 0)))
        if headers.get("connection") == "close":
            await self.close()
        return status, headers.get("x-charnel-cache") == "hit"

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.reader = self.writer = None


async def drive(
    port: int,
    paths: dict[str, list[str]],
    clients: int,
    seconds: float,
    seed: int,
    warmup: float = 0,
):
    """Run the clients; returns (latencies, errors, cache hits by kind, elapsed seconds).

    For the first `warmup` seconds the clients run but nothing is recorded: the figures are
    then those of a server whose cache has filled, and `elapsed` counts the recorded part only.
    """
    latencies: dict[str, list[float]] = {k: [] for k in paths}
    errors: dict[str, list[str]] = {k: [] for k in paths}
    hits = dict.fromkeys(paths, 0)
    kinds = list(paths)
    recording = time.perf_counter() + warmup
    end = recording + seconds

    async def one(n: int) -> None:
        rng = random.Random(seed * 1000 + n)
        connection = Connection("127.0.0.1", port)
        while time.perf_counter() < end:
            kind = rng.choices(kinds, WEIGHTS)[0]
            path = rng.choice(paths[kind])
            start = time.perf_counter()
            try:
                status, hit = await asyncio.wait_for(connection.get(path), 30)
                detail = f"{status} {path}"
            except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError) as exc:
                status, hit, detail = 0, False, f"{type(exc).__name__} {path}"
                await connection.close()
            if start < recording:
                continue
            latencies[kind].append(time.perf_counter() - start)
            hits[kind] += hit
            if status != 200:
                errors[kind].append(detail)
        await connection.close()

    await asyncio.gather(*(one(n) for n in range(clients)))
    return latencies, errors, hits, time.perf_counter() - recording


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def report(latencies, errors, hits, elapsed: float) -> None:
    total = sum(len(v) for v in latencies.values())
    base = statistics.median(latencies["baseline"]) if latencies["baseline"] else float("nan")
    print(f"{total} requests in {elapsed:.1f} s: {total / elapsed:.0f} requests/s, "
          f"{sum(len(e) for e in errors.values())} errors")
    print(f"{'kind':<9}{'requests':>9}{'req/s':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}"
          f"{'errors':>8}{'cached':>8}{'p50/baseline':>14}")
    for kind, values in latencies.items():
        if not values:
            continue
        p50, p95, p99 = (percentile(values, p) * 1000 for p in (50, 95, 99))
        cached = f"{hits[kind] / len(values):.0%}"
        print(f"{kind:<9}{len(values):>9}{len(values) / elapsed:>8.0f}{p50:>9.1f}{p95:>9.1f}"
              f"{p99:>9.1f}{len(errors[kind]):>8}{cached:>8}"
              f"{statistics.median(values) / base:>14.1f}")
    for kind, found in errors.items():
        for detail in sorted(set(found))[:5]:
            print(f"error ({kind}): {detail}")


def process_tree_cpu(pid: int) -> float:
    """CPU seconds used so far by a process and its living descendants (Linux /proc)."""
    total, todo = 0.0, [pid]
    tick = os.sysconf("SC_CLK_TCK")
    while todo:
        current = todo.pop()
        try:
            stat = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(stat[11]) + int(stat[12])) / tick  # utime, stime
            for task in Path(f"/proc/{current}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
        except (OSError, ValueError):
            continue
    return total


def wait_for(port: int, process: subprocess.Popen, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"charnel serve exited with status {process.returncode}")
        try:
            if asyncio.run(Connection("127.0.0.1", port).get("/sql/-/versions.json"))[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.5)
    raise SystemExit(f"charnel serve did not answer within {timeout:.0f} s")


def profile(build: Path, paths: dict[str, list[str]], rng: random.Random) -> None:
    """Profile one request of each kind inside the process, uncached, after a warm-up."""
    import httpx
    from pyinstrument import Profiler

    from charnel.serve.app import application, make_datasette

    app = application(make_datasette({GAME: build / f"{GAME}.db"}, build / "datasette"), None)

    async def run() -> None:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            for kind in KINDS[1:]:
                path = rng.choice(paths[kind])
                await client.get(path)
                profiler = Profiler(interval=0.0005, async_mode="enabled")
                with profiler:
                    response = await client.get(path)
                print(f"\n== {kind}: {path} -> {response.status_code}")
                print(profiler.output_text(unicode=True, color=False))

    asyncio.run(run())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--cache-mb", type=int, default=64, help="server's cache; 0 turns it off")
    parser.add_argument("--warmup", type=float, default=0,
                        help="seconds of load before recording starts (fills the cache)")
    parser.add_argument("--cards", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="profile in process, no server")
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
    build = args.pool / "build"
    charnel = Path(sys.executable).with_name("charnel")
    subprocess.run([str(charnel), "build", "--root", str(args.pool), "--out", str(build),
                    "--game", GAME, "--no-site", "--no-print"], check=True)
    paths = requests_for(build / f"{GAME}.db", random.Random(args.seed))
    if args.profile:
        profile(build, paths, random.Random(args.seed))
        return
    port = free_port()
    command = [str(charnel), "serve", "--root", str(args.pool), "--out", str(build),
               "--game", GAME, "--host", "127.0.0.1", "--port", str(port), "--no-build",
               "--workers", str(args.workers), "--cache-mb", str(args.cache_mb)]
    print("starting:", " ".join(command), flush=True)
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    try:
        wait_for(port, process, timeout=120)
        print(f"{args.clients} clients for {args.seconds:.0f} s after {args.warmup:.0f} s of "
              f"warm-up, {args.workers} worker(s), cache {args.cache_mb} MB, "
              f"load average before: {os.getloadavg()[0]:.2f}", flush=True)
        server_cpu, client_cpu = process_tree_cpu(process.pid), time.process_time()
        latencies, errors, hits, elapsed = asyncio.run(
            drive(port, paths, args.clients, args.seconds, args.seed, args.warmup)
        )
        server_cpu = process_tree_cpu(process.pid) - server_cpu
        client_cpu = time.process_time() - client_cpu
        report(latencies, errors, hits, elapsed)
        ran = elapsed + args.warmup  # CPU is counted over the warm-up too
        print(f"CPU over {ran:.0f} s: client {client_cpu:.1f} s ({client_cpu / ran:.0%} of a "
              f"core), server {server_cpu:.1f} s ({server_cpu / ran:.0%} of a core), "
              f"load average after: {os.getloadavg()[0]:.2f}")
    finally:
        process.terminate()
        process.wait(timeout=30)


if __name__ == "__main__":
    main()
