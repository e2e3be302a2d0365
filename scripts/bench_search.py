"""Benchmark of search as a reader meets it: the site served by `charnel serve`, a query typed
into the home page's box in Chromium over an emulated network.

For the bundled pool and for a synthetic pool of 10,000 cards: `charnel build` (database and
site), then `charnel serve --no-build` on 127.0.0.1, then Debian's Chromium through Playwright
with CDP network emulation. The page is opened, QUERY typed into its box a key every
TYPING_MS, and recorded: the requests the search made and the bytes they moved (headers and
compressed bodies, as on the wire), and the time from the last keystroke to the last change
of the results. Then the same again in the same browser (a repeat visit, warm cache). Then one
card's flavor text is changed and `charnel build` run again, which indexes the changed pages
into a delta bundle beside the main one, and the site's first query is measured again.
BENCH_SEARCH_POOL=synthetic measures the synthetic pool alone (the test suite's smoke run).

Beside it, Pagefind's default single index over a copy of the same HTML pages
(`python -m pagefind --site <copy>`, default options) with a minimal page that runs the same
search and shows the same number of results, served the same way and measured the same way.

    .venv/bin/python scripts/bench.py --only search --cards 10000
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

SEARCH_CARDS = 10_000
QUERY = "hound"
TYPING_MS = 100
RUNS = int(os.environ.get("BENCH_SEARCH_RUNS", 3))  # medians of this many fresh browsers
# (latency ms, download bit/s, upload bit/s): Fast 3G as the issue defines it (Lighthouse's
# mobile throttling) and Chrome's 4G profile without its latency multiplier.
NETWORKS = {"Fast 3G": (150, 1_600_000, 750_000), "4G": (60, 9_000_000, 1_500_000)}
TARGET = {"requests": 20, "kb": 200}
CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
SEARCH_PATHS = ("/pagefind", "search.json", "games.json", "/-/search", "/-/cards")

# Pagefind's default layout searched as plainly as it can be: the page loads pagefind.js on the
# first keystroke and shows the first 12 results, as the site does.
MINIMAL_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Pagefind default</title></head>
<body><input id="q" type="search" autocomplete="off"><div id="results"></div>
<script type="module">
const input = document.getElementById("q"), out = document.getElementById("results");
let pagefind = null;
input.addEventListener("input", async () => {
  const query = input.value.trim();
  pagefind ??= await import("/pagefind/pagefind.js");
  const search = await pagefind.debouncedSearch(query, {}, 120);
  if (search === null) return;
  const found = await Promise.all(search.results.slice(0, 12).map((r) => r.data()));
  const list = document.createElement("ol");
  for (const data of found) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = data.url;
    link.textContent = data.meta.title;
    const excerpt = document.createElement("p");
    excerpt.innerHTML = data.excerpt;
    item.append(link, excerpt);
    list.append(item);
  }
  out.replaceChildren(list);
});
</script></body></html>
"""

# Set in the page before its scripts run: when the last key went down, when the results last
# changed.
INSTRUMENT = """
window.__keys = [];
window.__changed = 0;
document.addEventListener("keydown", () => window.__keys.push(performance.now()), true);
new MutationObserver(() => { window.__changed = performance.now(); })
  .observe(document, { subtree: true, childList: true, characterData: true });
"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_for(url: str, process: subprocess.Popen, seconds: float = 120) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if process.poll() is not None:
            raise SystemExit(f"the server for {url} stopped (status {process.returncode})")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"no answer from {url} in {seconds:.0f} s")


class Server:
    """A server process on a free port of 127.0.0.1, stopped on exit."""

    def __init__(self, command: list[str], probe: str = "/"):
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [*command, "--port", str(self.port)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        _wait_for(self.url + probe, self.process)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def _charnel(*args: str) -> list[str]:
    return [str(Path(sys.executable).with_name("charnel")), *args]


def build(root: Path, out: Path) -> float:
    """`charnel build` of `root` into `out`, database and site: seconds."""
    start = time.perf_counter()
    subprocess.run(_charnel("build", "--root", str(root), "--out", str(out), "--no-print"),
                   check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def edit_one_card(root: Path, out: Path, game: str) -> tuple[float, bool]:
    """One card's flavor text changed, then `charnel build` again: seconds, and whether the
    site then has a delta bundle (the pages changed since the main one)."""
    from charnel.site import search

    card = sorted((root / "cards" / game).glob("*/*.yaml"))[0]
    text = card.read_text("utf-8")
    edited = re.sub(r"^flavor: .*$", "flavor: Changed for the search bench.", text, count=1,
                    flags=re.M)
    if edited == text:
        edited = text.rstrip("\n") + "\nflavor: Changed for the search bench.\n"
    card.write_text(edited, "utf-8")
    seconds = build(root, out)
    return seconds, (site_of(out) / home_path(game).strip("/") / search.DELTA).is_dir()


def site_of(out: Path) -> Path:
    return (out / "site").resolve()


def home_path(game: str) -> str:
    """The page with the search box: the game's home, its folder of the site."""
    return f"/{game}/"


def pagefind_default(site: Path, work: Path, game: str) -> tuple[Path, float]:
    """A copy of the site's HTML indexed by Pagefind with its default options, and the seconds
    Pagefind took."""
    copy = work / "pagefind-default"
    shutil.rmtree(copy, ignore_errors=True)
    site = site / home_path(game).strip("/")  # the game's pages, not those sending readers on
    for page in site.rglob("*.html"):
        relative = page.relative_to(site)
        if relative.parts[0].startswith("pagefind"):
            continue
        (copy / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(page, copy / relative)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pagefind", "--site", str(copy)], check=True,
                   stdout=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    (copy / "minimal").mkdir()
    (copy / "minimal" / "index.html").write_text(MINIMAL_PAGE, "utf-8")
    return copy, seconds


def static_server(folder: Path) -> list[str]:
    """The command serving a folder with charnel serve's own static files app."""
    code = (
        "import sys, uvicorn; from pathlib import Path; from charnel.serve.site import "
        "static_site; uvicorn.run(static_site(Path(sys.argv[1])), host='127.0.0.1', "
        "port=int(sys.argv[3]), log_level='warning')"
    )
    return [sys.executable, "-c", code, str(folder)]


REQUEST_LINE = re.compile(rb"(?:^|\n)(GET|HEAD|POST) (\S+) HTTP/1\.1\r\n")


class Wire:
    """A TCP relay in front of a server that notes each request that reaches it and the bytes
    of its response, headers included: what went over the network, the browser's cache hits
    being what it never sees. HTTP/1.1 without pipelining: a connection's bytes belong to its
    latest request."""

    def __init__(self, target: int):
        self.target = target
        self.log: list[dict] = []
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()

        async def start():
            self.server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
            self.port = self.server.sockets[0].getsockname()[1]
            ready.set()

        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        asyncio.run_coroutine_threadsafe(start(), self.loop)
        ready.wait(10)
        self.url = f"http://127.0.0.1:{self.port}"

    async def _relay(self, reader, writer):
        upstream_reader, upstream = await asyncio.open_connection("127.0.0.1", self.target)
        mine: list[dict] = []

        async def up():
            while data := await reader.read(65536):
                for match in REQUEST_LINE.finditer(data):
                    entry = {"url": match.group(2).decode(), "bytes": 0, "status": None}
                    self.log.append(entry)
                    mine.append(entry)
                upstream.write(data)
                await upstream.drain()
            upstream.close()

        async def down():
            while data := await upstream_reader.read(65536):
                if mine:
                    if mine[-1]["status"] is None and data.startswith(b"HTTP/1.1 "):
                        mine[-1]["status"] = int(data[9:12])
                    mine[-1]["bytes"] += len(data)
                writer.write(data)
                await writer.drain()
            writer.close()

        try:
            await asyncio.gather(up(), down())
        except (ConnectionError, OSError):
            pass

    def close(self):
        self.loop.call_soon_threadsafe(self.server.close)
        self.loop.call_soon_threadsafe(self.loop.stop)


class Visit:
    """What one page visit with one typed query cost: the requests the page made (the
    browser's view, cache hits included) and those that reached the server (the wire's)."""

    def __init__(self):
        self.requests: list[dict] = []
        self.wire: list[dict] = []

    @staticmethod
    def searching(requests: list[dict]) -> list[dict]:
        return [r for r in requests if any(p in r["url"] for p in SEARCH_PATHS)]


def _visit(context, url: str, network: tuple[int, int, int], wire: Wire) -> tuple[Visit, float]:
    page = context.new_page()
    seen = len(wire.log)
    latency, down, up = network
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": latency,
        "downloadThroughput": down / 8, "uploadThroughput": up / 8,
    })
    visit = Visit()
    pending: set = set()

    # The context's events, not the page's CDP session: Pagefind searches in a dedicated
    # worker, whose requests only the context reports (the emulated network covers them).
    def sent(request):
        pending.add(request)

    def finished(request):
        pending.discard(request)
        visit.requests.append({"url": request.url})

    def failed(request):
        pending.discard(request)

    context.on("request", sent)
    context.on("requestfinished", finished)
    context.on("requestfailed", failed)
    page.add_init_script(INSTRUMENT)
    page.goto(url, wait_until="load")
    page.wait_for_timeout(300)  # the reader finds the box
    page.focus("#q")
    page.keyboard.type(QUERY, delay=TYPING_MS)
    page.wait_for_selector("#results li", timeout=120_000)
    # settled: nothing changed in the results for a second, nothing in flight
    quiet_since = started = time.monotonic()
    last = None
    while time.monotonic() - quiet_since < 1.0 and time.monotonic() - started < 30:
        changed = page.evaluate("window.__changed")
        if changed != last or pending:
            last, quiet_since = changed, time.monotonic()
        page.wait_for_timeout(100)
    keys = page.evaluate("window.__keys")
    elapsed = page.evaluate("window.__changed") - keys[-1]
    page.close()
    visit.wire = wire.log[seen:]
    for event, handler in (("request", sent), ("requestfinished", finished),
                           ("requestfailed", failed)):
        context.remove_listener(event, handler)
    if os.environ.get("BENCH_SEARCH_DEBUG"):
        for r in visit.wire:
            print(f"    {r['status']} {r['bytes']:>7} {r['url']}")
    return visit, elapsed / 1000


def measure(browser, wire: Wire, path: str, network: tuple[int, int, int]) -> dict:
    """Median figures of RUNS first visits, and the repeat visit after each."""
    cold, warm = [], []
    for _ in range(RUNS):
        context = browser.new_context(viewport={"width": 390, "height": 844})
        try:
            first, first_s = _visit(context, wire.url + path, network, wire)
            again, again_s = _visit(context, wire.url + path, network, wire)
        finally:
            context.close()
        cold.append((first, first_s))
        warm.append((again, again_s))
    return {"cold": _summary(cold), "warm": _summary(warm)}


def _summary(runs: list[tuple[Visit, float]]) -> dict:
    def med(values):
        return statistics.median(values)

    wired = [Visit.searching(v.wire) for v, _ in runs]
    return {
        "seconds": med([s for _, s in runs]),
        "requests": med([len(Visit.searching(v.requests)) for v, _ in runs]),
        "network": med([len(w) for w in wired]),
        "kb": med([sum(r["bytes"] for r in w) / 1024 for w in wired]),
        "all_requests": med([len(v.wire) for v, _ in runs]),
        "all_kb": med([sum(r["bytes"] for r in v.wire) / 1024 for v, _ in runs]),
        "not_modified": med([sum(1 for r in w if r["status"] == 304) for w in wired]),
    }


def _line(label: str, figures: dict, cards: int) -> str:
    c, w = figures["cold"], figures["warm"]
    limit = 1.5 if cards < SEARCH_CARDS else 2.5
    ok = (c["requests"] <= TARGET["requests"] and c["kb"] <= TARGET["kb"]
          and c["seconds"] <= limit)
    return (
        f"  {label:<28} first: {c['seconds']:5.2f} s, {c['requests']:3.0f} requests, "
        f"{c['kb']:6.1f} KB (page and search: {c['all_requests']:.0f}, {c['all_kb']:.0f} KB)"
        f"{'' if ok else '  [over target]'}\n"
        f"  {'':<28} again: {w['seconds']:5.2f} s, {w['requests']:3.0f} requests, "
        f"{w['network']:.0f} over the network ({w['not_modified']:.0f} of them 304), "
        f"{w['kb']:6.1f} KB"
    )


def measure_pool(root: Path, work: Path, label: str, cards: int, game: str) -> None:
    from playwright.sync_api import sync_playwright

    # a copy: the one-card edit below must not touch the project or the shared pool
    root = Path(shutil.copytree(root, work / "project", ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "tests", ".*cache", ".hypothesis")))
    out = work / "out"
    seconds = build(root, out)
    site = site_of(out)
    print(f"### {label}: {cards:,} cards, charnel build {seconds:.1f} s")
    copy, indexed = pagefind_default(site, work, game)
    pages = sum(1 for _ in copy.rglob("*.html")) - 1
    print(f"pagefind default over {pages:,} pages: {indexed:.1f} s")
    home = home_path(game)
    with (
        Server(_charnel("serve", "--root", str(root), "--out", str(out), "--no-build"),
               home) as charnel_site,
        Server(static_server(copy), "/minimal/") as default,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        ours_wire, theirs_wire = Wire(charnel_site.port), Wire(default.port)
        try:
            for name, network in NETWORKS.items():
                ours = measure(browser, ours_wire, home, network)
                theirs = measure(browser, theirs_wire, "/minimal/", network)
                print(f"{name} (latency {network[0]} ms, {network[1] / 1e6:g} Mbit/s down):")
                print(_line("charnel site", ours, cards))
                print(_line("pagefind default, one index", theirs, cards))
                c, p = ours["cold"], theirs["cold"]
                print(f"  {'charnel / pagefind default':<28} "
                      f"time {c['seconds'] / p['seconds']:.2f}x, "
                      f"requests {c['requests'] / max(p['requests'], 1):.2f}x, "
                      f"bytes {c['kb'] / max(p['kb'], 0.1):.2f}x")
            # the same site after a one-card edit: the delta bundle is merged with the main one
            seconds, delta = edit_one_card(root, out, game)
            print(f"after a one-card edit: charnel build {seconds:.1f} s, "
                  f"delta bundle {'present' if delta else 'absent'}")
            for name, network in NETWORKS.items():
                print(f"{name}, after the edit:")
                print(_line("charnel site, delta", measure(browser, ours_wire, home, network),
                            cards))
        finally:
            browser.close()
            ours_wire.close()
            theirs_wire.close()


def run(args) -> None:
    if not Path(CHROMIUM).exists():
        print(f"search: needs Chromium at {CHROMIUM} and Playwright")
        return
    print(f"query '{QUERY}' typed a key every {TYPING_MS} ms; medians of {RUNS} visits; "
          f"load average {os.getloadavg()[0]:.1f} at the start")
    with tempfile.TemporaryDirectory(prefix="charnel-search-bench-") as tmp:
        work = Path(tmp)
        if os.environ.get("BENCH_SEARCH_POOL") != "synthetic":
            bundled = len(list((args.source / "cards" / args.game).glob("*/*.yaml")))
            measure_pool(args.source, work / "bundled", "bundled pool", bundled, args.game)
        # the targets are set at 10,000 cards; a smaller pool (a smoke run) is used as it is
        root, cards = args.pool, min(args.cards, SEARCH_CARDS)
        if args.cards > SEARCH_CARDS:
            from synth import make_pool

            root = make_pool(work / "pool", cards=cards, clauses=args.clauses,
                             seed=args.seed, source=args.source, game_id=args.game)
        cards = sum(1 for _ in (root / "cards" / args.game).glob("*/*.yaml"))
        measure_pool(root, work / "synthetic", "synthetic pool", cards, args.game)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
