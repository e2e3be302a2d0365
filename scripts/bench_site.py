"""Benchmark of the static site: full build, one-card rebuild, page weight, search payload.

Baseline: Hugo (Debian's `hugo`) building the same number of plain Markdown pages, timed in
the same run. The site is built for at most 10,000 cards (a pool of its own when the shared
pool is bigger). First, the bundled games' sites with each past release's pages and errata
sheets against the same builds without them. Figures are printed; nothing here asserts a time.

    .venv/bin/python scripts/bench.py --only site --cards 10000 [--tmp /dev/shm]
"""

from __future__ import annotations

import functools
import html
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import threading
import time
from html.parser import HTMLParser
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import charnel.site
from charnel import compile, pipeline
from charnel.diagnostics import Problems
from charnel.site.home import build_home

SITE_CARDS = 10_000
QUERY = "hound"


def _verified(root: Path, game: str):
    problems = Problems()
    prepared = pipeline.prepare(root, game, problems)
    if problems or prepared is None:
        raise SystemExit(f"the synthetic pool has problems ({problems.summary()})")
    return prepared.verified, prepared.outcomes


def _pagefind_over(site: Path, out: Path) -> float:
    """Seconds for Pagefind (the binary charnel runs, on every core) to index `site`."""
    from charnel.site.search import _pagefind

    start = time.perf_counter()
    subprocess.run([*_pagefind(), "--site", str(site), "--output-path", str(out), "--silent"],
                   check=True)
    return time.perf_counter() - start


class _SearchedText(HTMLParser):
    """The words Pagefind indexes from one page: the text inside `data-pagefind-body`, less
    what `data-pagefind-ignore` marks."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
            "source", "track", "wbr"}

    def __init__(self):
        super().__init__()
        self.stack: list[str] = []  # per open element: "body", "ignore" or ""
        self.words: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in self.VOID:
            return
        names = {name for name, _ in attrs}
        self.stack.append("ignore" if "data-pagefind-ignore" in names
                          else "body" if "data-pagefind-body" in names else "")

    def handle_endtag(self, tag):
        if tag not in self.VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data):
        if "body" in self.stack and "ignore" not in self.stack[self.stack.index("body"):]:
            self.words.extend(data.split())


def searched_texts(site: Path) -> list[str]:
    """Each searched page's indexed words, in path order."""
    texts = []
    for page in sorted(site.rglob("index.html")):
        text = page.read_text("utf-8")
        if "data-pagefind-body" not in text:
            continue
        reader = _SearchedText()
        reader.feed(text)
        texts.append(" ".join(reader.words))
    return texts


def _hugo(pages: int, work: Path, texts: list[str] = (), name: str = "hugo") -> float | None:
    """Seconds for Hugo to build `pages` Markdown pages; None without Hugo. The first carry
    `texts` (as plain text), the others a short card text."""
    if shutil.which("hugo") is None:
        return None
    site = work / name
    (site / "content" / "cards").mkdir(parents=True)
    (site / "layouts" / "_default").mkdir(parents=True)
    (site / "hugo.toml").write_text(
        'baseURL = "/"\ntitle = "bench"\ndisableKinds = ["RSS", "sitemap", "taxonomy", "term"]\n'
    )
    (site / "layouts" / "_default" / "single.html").write_text(
        "<!doctype html><html lang=en><head><title>{{ .Title }}</title></head>"
        "<body><h1>{{ .Title }}</h1>{{ .Content }}</body></html>"
    )
    (site / "layouts" / "_default" / "list.html").write_text("<h1>{{ .Title }}</h1>")
    for i in range(pages):
        body = (html.escape(texts[i]) if i < len(texts) else
                f"A minion of strength {i % 7}. **Evader** (Corruption). "
                "Reaper +1.\n\n- ruling: it reaps when it is not blocked.")
        (site / "content" / "cards" / f"card-{i}.md").write_text(
            f"---\ntitle: Card {i}\n---\n\n{body}\n")
    start = time.perf_counter()
    subprocess.run(["hugo", "--quiet", "-s", str(site), "-d", str(work / f"{name}-out")],
                   check=True)
    return time.perf_counter() - start


class _Counting(SimpleHTTPRequestHandler):
    """Serves the site quietly and notes every path asked for, workers' requests included."""

    served: list[str] = []

    def log_message(self, format, *args):  # noqa: A002 - the stdlib's parameter name
        pass

    def do_GET(self):  # noqa: N802 - the stdlib's name
        self.served.append(self.path.split("?")[0])
        super().do_GET()


def _payload(site: Path, game: str, on_search_page: bool) -> tuple[int, int] | None:
    """Bytes of the search index a browser fetches for one query: typed into the home page's
    box, or opened on /search/ (which also loads every filter, for its filter menus)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    if not Path("/usr/bin/chromium").exists():
        return None
    _Counting.served = []
    handler = functools.partial(_Counting, directory=str(site))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=[
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
            ])
            page = browser.new_page()
            root = f"http://127.0.0.1:{server.server_address[1]}"
            if on_search_page:
                page.goto(f"{root}/{game}/search/?q={QUERY}")
            else:
                page.goto(f"{root}/{game}/")
                page.fill("#q", QUERY)
            page.wait_for_selector("#results li", timeout=60_000)
            page.wait_for_load_state("networkidle")
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    index = [p for p in _Counting.served if p.startswith(
        (f"/{game}/pagefind", f"/{game}/assets/search.json", "/assets/games.json"))]
    return sum((site / p.lstrip("/")).stat().st_size for p in index), len(index)


def releases(source: Path, work: Path, runs: int) -> None:
    """The bundled games' full site builds with each past release's pages and the errata
    sheets, against the same build without them (the baseline), alternated in this process."""
    from charnel.history import views

    for game in ("hecatomb", "cave-evil"):
        if not (source / "releases" / game).is_dir():
            continue
        verified, outcomes = _verified(source, game)
        database = compile.write(verified, outcomes, work / f"bundled-{game}.db")
        releases = len(views.of(verified.records).releases)
        times: dict[bool, list[float]] = {False: [], True: []}
        again: dict[bool, list[float]] = {False: [], True: []}  # a rebuild, nothing changed
        pages: dict[bool, int] = {}
        for n in range(runs):
            for with_releases in (False, True):
                out = work / f"bundled-{n}-{with_releases}" / game
                for took in (times, again):
                    start = time.perf_counter()
                    charnel.site.build_site(verified, outcomes, database, out,
                                            releases_too=with_releases)
                    took[with_releases].append(time.perf_counter() - start)
                pages[with_releases] = charnel.site.last_stats.pages
        base, full = min(times[False]), min(times[True])
        print(f"bundled {game}, {releases} release(s): without them {base:.2f} s "
              f"({pages[False]:,} pages), with each release's pages {full:.2f} s "
              f"({pages[True]:,} pages): {full / base:.2f}x (best of {runs}); rebuilt with "
              f"nothing changed {min(again[False]):.2f} s and {min(again[True]):.2f} s")


def run(args) -> None:
    with tempfile.TemporaryDirectory(prefix="charnel-site-bench-") as tmp:
        releases(args.source, Path(tmp), 1 if args.cards < 1000 else 3)
        work = Path(tmp)
        root = args.pool
        cards = args.cards
        if args.cards > SITE_CARDS:
            from synth import make_pool

            cards = SITE_CARDS
            root = make_pool(work / "pool", cards=cards, clauses=args.clauses, seed=args.seed,
                             source=args.source, game_id=args.game)
        verified, outcomes = _verified(root, args.game)
        database = compile.write(verified, outcomes, work / f"{args.game}.db")
        # the game's folder of the site; the site's own pages (home, moved pages) after it
        out = work / "site" / args.game

        start = time.perf_counter()
        charnel.site.build_site(verified, outcomes, database, out)
        build_home(out.parent)
        full = time.perf_counter() - start
        stats = charnel.site.last_stats
        rate = stats.pages / full
        phases = ", ".join(f"{k} {v:.1f} s" for k, v in stats.seconds.items())
        print(f"cards                     {cards:,}")
        print(f"pages (HTML)              {stats.pages:,}")
        print(f"full build                {full:.2f} s  ({rate:,.0f} pages/s; {phases})")
        # The same build without the search index, into a fresh folder: the pages alone, as
        # Hugo makes them.
        start = time.perf_counter()
        charnel.site.build_site(verified, outcomes, database, work / "pages-only" / args.game,
                                index=False)
        pages_only = time.perf_counter() - start
        print(f"  without the search index {pages_only:.2f} s  "
              f"({stats.pages / pages_only:,.0f} pages/s)")

        hugo = _hugo(stats.pages, work)
        if hugo is None:
            print("hugo                      not installed (apt-get install hugo)")
        else:
            hugo_rate = stats.pages / hugo
            print(f"hugo, same page count     {hugo:.2f} s  ({hugo_rate:,.0f} pages/s)")
            print(f"charnel / hugo pages/s    {rate / hugo_rate:.2f}  (target >= 0.5); without the "
                  f"search index {stats.pages / pages_only / hugo_rate:.2f}")
            # What any site searched with Pagefind pays: Pagefind over Hugo's own pages
            indexed = _pagefind_over(work / "hugo-out", work / "hugo-pagefind")
            print(f"hugo + pagefind           {hugo + indexed:.2f} s (pagefind {indexed:.2f} s): "
                  f"{hugo / (hugo + indexed):.2f} of hugo's pages/s")
            print(f"charnel / (hugo + pagefind) pages/s {(hugo + indexed) / full:.2f}  "
                  f"(target >= 0.5); without the search index {(hugo + indexed) / pages_only:.2f}")
            # The same, with Hugo's pages carrying the very words Pagefind indexes from ours
            # (ours hold about three times the words of the short pages above, and Pagefind's
            # time follows the words)
            texts = searched_texts(out)
            same = _hugo(stats.pages, work, texts, "hugo-words")
            same_indexed = _pagefind_over(work / "hugo-words-out", work / "hugo-words-pagefind")
            words = sum(len(t.split()) for t in texts)
            print(f"hugo + pagefind, same words {same + same_indexed:.2f} s (hugo {same:.2f} s, "
                  f"pagefind {same_indexed:.2f} s; {words:,} words in {len(texts):,} pages)")
            print(f"charnel / (hugo + pagefind, same words) pages/s "
                  f"{(same + same_indexed) / full:.2f}  (target >= 0.5)")

        # One card's flavor text edited, three times (three cards): the site build stage only,
        # as for the full build; loading, verifying and compiling the sources is common to both.
        files = sorted((root / "cards" / args.game).glob("*/*.yaml"))
        rebuilds = []
        for card in (files[len(files) // 4], files[len(files) // 2], files[3 * len(files) // 4]):
            text = card.read_text("utf-8")
            text = re.sub(r"^flavor: .*$", "flavor: Changed.", text, count=1, flags=re.M)
            card.write_text(text if "flavor: Changed." in text else text + "flavor: Changed.\n")
            verified, outcomes = _verified(root, args.game)
            # the database is compiled again too, as `charnel build` does: its downloads change
            database = compile.write(verified, outcomes, work / f"{args.game}.db")
            start = time.perf_counter()
            charnel.site.build_site(verified, outcomes, database, out)
            build_home(out.parent)
            rebuilds.append(time.perf_counter() - start)
            stats = charnel.site.last_stats
            phases = ", ".join(f"{k} {v:.2f} s" for k, v in stats.seconds.items())
            print(f"one card changed          {rebuilds[-1]:.2f} s  ({phases}; rendered "
                  f"{stats.rendered:,}, wrote {stats.written:,} files, re-indexed "
                  f"{', '.join(stats.indexed) or 'nothing'})")
        again = statistics.median(rebuilds)
        print(f"full / one-card rebuild   {full / again:.1f}x with the median rebuild "
              f"{again:.2f} s (target >= 10)")
        print(f"load average              {os.getloadavg()[0]:.2f} (1 min, at the end)")

        css = (out.parent / "assets" / "site.css").stat().st_size
        sizes = [p.stat().st_size for p in (out / "cards").glob("*/index.html")]
        svgs = [p.stat().st_size for p in (out / "cards").glob("*/card.svg")]
        print(f"card page HTML+CSS        median {(statistics.median(sizes) + css) / 1024:.1f} KB, "
              f"max {(max(sizes) + css) / 1024:.1f} KB (target < 30 KB; CSS {css / 1024:.1f} KB)")
        print(f"card face SVG             median {statistics.median(svgs) / 1024:.1f} KB")
        for where, flag in (("home page", False), ("/search/", True)):
            payload = _payload(out.parent, args.game, flag)
            if payload is None:
                print("search payload            needs Playwright and /usr/bin/chromium")
                break
            print(f"search payload, {where:<9} {payload[0] / 1024:.0f} KB in {payload[1]} "
                  f"requests for '{QUERY}' at {cards:,} cards")
