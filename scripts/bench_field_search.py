"""Benchmark of a field query on a static copy of the site, as a phone on Fast 3G meets it.

The pool (scripts/synth.py, `--cards`) is built with `charnel build`, its site served by
`python3 -m http.server --bind 127.0.0.1` on a free port behind a relay that counts what
crosses the wire, and opened in Debian's Chromium through Playwright on a 390 px phone
viewport with CDP network emulation: Fast 3G as DevTools defines it (562.5 ms round trip,
1.44 Mbit/s down, 675 kbit/s up). The query is typed into the game's home page box a key every
TYPING_MS; the figure is the time from the last keystroke to the last change of the results,
with the requests and bytes of the field search (the field index and its script; the failed
ask for a server included). The baseline, measured the same way in the same browser, is a word
query answered by Pagefind. Then, without throttling, the browser's own work: the query run
over the whole index in the page (`find`), median of RUNS.

    .venv/bin/python scripts/bench.py --only field_search --cards 10000
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_search import CHROMIUM, FLAGS, INSTRUMENT, TYPING_MS, Server, Wire, build, site_of

FAST_3G = (562.5, 1_440_000, 675_000)  # latency ms, down bit/s, up bit/s
PHONE = {"width": 390, "height": 844}
BUDGET_S = 2.5
WORDS = "hound"  # the baseline: a word query, answered by Pagefind
FIELD_PATHS = ("/search/fields/", "fieldsearch.js", "/sql/")
RUNS = int(os.environ.get("BENCH_SEARCH_RUNS", 3))


def queries(game: str) -> list[str]:
    from charnel import registry

    # the last two search free text, whose whole column a query fetches: the synthetic pool
    # repeats its rules texts (each card is a copy of a real one) but not its names
    if game == "hecatomb":
        return ["t:minion str>=3", "doom:greed t:minion str>=3 kw:evader", "o:reap",
                "t:minion hound"]
    return list(registry.get(game).search_examples[:2])


def http_server(folder: Path) -> list[str]:
    # the command takes `--port N` last (Server adds it); http.server wants the port bare
    code = ("import sys, http.server, functools; h = functools.partial("
            "http.server.SimpleHTTPRequestHandler, directory=sys.argv[1]); "
            "h.log_message = lambda *a: None; "
            "http.server.ThreadingHTTPServer(('127.0.0.1', int(sys.argv[3])), h).serve_forever()")
    return [sys.executable, "-c", code, str(folder)]


def visit(browser, wire: Wire, path: str, query: str, network) -> dict:
    """One first visit on a fresh phone: the seconds from the last key to the results, and
    the field search's requests and bytes on the wire."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        latency, down, up = network
        cdp.send("Network.emulateNetworkConditions", {
            "offline": False, "latency": latency,
            "downloadThroughput": down / 8, "uploadThroughput": up / 8,
        })
        seen = len(wire.log)
        page.add_init_script(INSTRUMENT)
        page.goto(wire.url + path, wait_until="load")
        page.wait_for_timeout(300)  # the reader finds the box
        page.focus("#q")
        page.keyboard.type(query, delay=TYPING_MS)
        page.wait_for_selector(f'#results[data-query="{query}"] li, '
                               f'#results[data-query="{query}"] .search-note', timeout=120_000)
        quiet = started = time.monotonic()
        last = None
        while time.monotonic() - quiet < 1.0 and time.monotonic() - started < 30:
            changed = page.evaluate("window.__changed")
            if changed != last:
                last, quiet = changed, time.monotonic()
            page.wait_for_timeout(100)
        seconds = (page.evaluate("window.__changed") - page.evaluate("window.__keys")[-1]) / 1000
        wired = [r for r in wire.log[seen:] if any(p in r["url"] for p in FIELD_PATHS)]
        if os.environ.get("BENCH_SEARCH_DEBUG"):
            for r in wire.log[seen:]:
                print(f"    {r['status']} {r['bytes']:>7} {r['url']}")
        return {"seconds": seconds, "requests": len(wired),
                "kb": sum(r["bytes"] for r in wired) / 1024}
    finally:
        context.close()


def in_page(browser, url: str, game: str, query: str) -> float:
    """Milliseconds the browser takes to run the query over the index already fetched."""
    page = browser.new_page()
    try:
        page.goto(url)
        return page.evaluate("""async ([home, query, runs]) => {
          const search = await import("/assets/fieldsearch.js");
          await search.find(home, query);  // fetched once
          const times = [];
          for (let i = 0; i < runs; i++) {
            const start = performance.now();
            await search.find(home, query);
            times.push(performance.now() - start);
          }
          times.sort((a, b) => a - b);
          return times[Math.floor(times.length / 2)];
        }""", [f"/{game}/", query, max(RUNS, 5)])
    finally:
        page.close()


def median(visits: list[dict]) -> dict:
    return {key: statistics.median(v[key] for v in visits) for key in visits[0]}


def run(args) -> None:
    if not Path(CHROMIUM).exists():
        print(f"field_search: needs Chromium at {CHROMIUM} and Playwright")
        return
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="charnel-field-bench-") as tmp:
        out = Path(tmp) / "out"
        seconds = build(args.pool, out)
        site = site_of(out)
        index = site / args.game / "search" / "fields"
        cards = sum(1 for _ in (args.pool / "cards" / args.game).glob("*/*.yaml"))
        size = sum(p.stat().st_size for p in index.iterdir()) / 1024
        print(f"### {cards:,} cards, charnel build {seconds:.1f} s; field index "
              f"{size:,.0f} KB in {len(list(index.iterdir()))} files")
        manifest = json.loads((index / "manifest.json").read_text("utf-8"))
        sizes = {}
        for name, at in manifest["names"].items():  # each field by its first name
            entry = manifest["fields"][at]
            if "blocks" in entry:  # free text: the column, and the lists of its blocks
                files = list(index.glob(f"{entry['blocks']['file']}-*.json"))
                size = sum(p.stat().st_size for p in files if "-grams-" not in p.name)
                grams = sum(p.stat().st_size for p in files if "-grams-" in p.name)
                sizes.setdefault(entry["blocks"]["file"],
                                 (f"{name} (+ {grams / 1024:,.0f} KB of lists)", size / 1024))
            else:
                size = (index / entry["file"]).stat().st_size
                sizes.setdefault(entry["file"], (name, size / 1024))
        print("a field's file: " + ", ".join(f"{n} {kb:,.0f} KB" for n, kb in
                                             sorted(sizes.values(), key=lambda s: -s[1])))
        print(f"Fast 3G ({FAST_3G[0]} ms round trip, {FAST_3G[1] / 1e6:g} Mbit/s down), "
              f"390 px phone, python3 -m http.server; medians of {RUNS} first visits; "
              f"load average {os.getloadavg()[0]:.1f}")
        home = f"/{args.game}/"
        with Server(http_server(site), home) as served, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            wire = Wire(served.port)
            try:
                base = median([visit(browser, wire, home, WORDS, FAST_3G) for _ in range(RUNS)])
                print(f"  words {WORDS!r:<40} {base['seconds']:5.2f} s (baseline)")
                for query in queries(args.game):
                    got = median([visit(browser, wire, home, query, FAST_3G)
                                  for _ in range(RUNS)])
                    work = in_page(browser, wire.url + home, args.game, query)
                    over = "" if got["seconds"] <= BUDGET_S else f"  [over {BUDGET_S} s]"
                    print(f"  field {query!r:<40} {got['seconds']:5.2f} s, "
                          f"{got['requests']:.0f} requests, {got['kb']:.1f} KB; "
                          f"{got['seconds'] / max(base['seconds'], 0.01):.2f}x the words; "
                          f"in the page {work:.1f} ms{over}")
            finally:
                browser.close()
                wire.close()


if __name__ == "__main__":
    subprocess.run([sys.executable, str(Path(__file__).with_name("bench.py")),
                    "--only", "field_search", *sys.argv[1:]], check=True)
