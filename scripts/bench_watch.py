"""Benchmark area `watch`: from saving a card file to the new page in Chromium, under
`charnel serve --watch`.

For each pool (the synthetic one of --cards, then the bundled data; BENCH_WATCH_POOL=synthetic
for the first alone) a copy is served with `charnel serve --watch` on a free port of
127.0.0.1, a card's page is opened in Chromium, and the card's flavor text is saved anew
(written beside the file and renamed over it, as editors save) BENCH_WATCH_ROUNDS times.
Each save is made with the server at rest (its last rebuild done, and the work of its first
quiet moment after it: see `_at_rest`).
Printed per pool: the seconds from the save to the new page's first paint in Chromium (the
page reloads by itself; the moment is the page's own, from its performance timeline, so the
driver's polling for the text is not in it, and is printed beside it), the whole rebuild as
the server reports it (the edited card's page is shown before it ends), and the baseline of
the same
run: the same edit followed by `charnel build --no-print`, as a whole process, which is what
an author ran before (and then reloaded the page by hand).

    .venv/bin/python scripts/bench.py --only watch --cards 10000 --tmp /dev/shm
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROUNDS = int(os.environ.get("BENCH_WATCH_ROUNDS", 5))
STARTUP_S = 3600  # the first build of a large pool on two busy cores
WAIT_MS = 600_000  # one save's rebuild at most
QUIET_S = 1.5  # at rest: this long with at most a clock tick of CPU per tenth of a second
CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
_FLAVOR = re.compile(r"^flavor: .*$", re.M)
# the new page's first paint (its parse, where Chromium reports no paint), in ms since the epoch
_PAINTED = """() => {
  const paint = performance.getEntriesByName("first-contentful-paint")[0];
  const nav = performance.getEntriesByType("navigation")[0];
  return performance.timeOrigin + (paint ? paint.startTime : nav.domContentLoadedEventEnd);
}"""
_REBUILT = re.compile(r"^rebuilt in ([\d.]+) s", re.M)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=10):
            return True
    except OSError:
        return False


def _at_rest(pid: int) -> None:
    """Wait until the process has used no more than a clock tick of CPU per tenth of a second
    for QUIET_S: its build, and what it does at the first quiet moment after one (collecting
    the build's garbage, making the next generation ready), are done."""
    def cpu() -> int:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime and stime, in clock ticks

    last, quiet, deadline = cpu(), 0.0, time.perf_counter() + WAIT_MS / 1000
    while quiet < QUIET_S and time.perf_counter() < deadline:
        time.sleep(0.1)
        now = cpu()
        quiet = quiet + 0.1 if now - last <= 1 else 0.0
        last = now


def _save(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.bench")
    tmp.write_text(text, "utf-8")
    os.replace(tmp, path)


def _card(root: Path, game: str) -> Path | None:
    """A card file with a flavor line whose page is named after the file."""
    for path in sorted((root / "cards" / game).glob("*/*.yaml")):
        if _FLAVOR.search(path.read_text("utf-8")):
            return path
    return None


def _charnel(*args: str) -> list[str]:
    return [sys.executable, "-m", "charnel.cli", *args]


def run(args) -> None:
    pools = [("synthetic pool", args.pool)]
    if os.environ.get("BENCH_WATCH_POOL") != "synthetic":
        pools.append(("bundled pool", args.source))
    for label, source in pools:
        with tempfile.TemporaryDirectory(prefix="charnel-watch-bench-") as tmp:
            root = Path(tmp) / "clone"
            for part in ("cards", "rules", "releases"):
                if (source / part).is_dir():
                    shutil.copytree(source / part, root / part)
            measure(label, root, args.game)


def measure(label: str, root: Path, game: str) -> None:
    from playwright.sync_api import sync_playwright

    card = _card(root, game)
    cards = sum(1 for _ in (root / "cards").glob("*/*/*.yaml"))
    if card is None:
        print(f"### {label}: no card of {game} has flavor text to edit; skipped")
        return
    games = sorted(p.parent.name for p in (root / "rules").glob("*/game.yaml"))
    page_path = f"/{game}/cards/{card.stem}/"
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    log_path = root.parent / "serve.log"
    print(f"### {label}: {cards:,} cards ({', '.join(games)}); editing {card.name}; "
          f"load average {os.getloadavg()[0]:.1f}")
    start = time.perf_counter()
    with log_path.open("w") as log:
        server = subprocess.Popen(
            _charnel("serve", "--watch", "--root", str(root), "--out", str(root / "build"),
                     "--host", "127.0.0.1", "--port", str(port)),
            stdout=log, stderr=subprocess.STDOUT,
        )
    try:
        while not _answers(url + page_path):
            if server.poll() is not None or time.perf_counter() - start > STARTUP_S:
                print(f"the server did not answer:\n{log_path.read_text()[-2000:]}")
                return
            time.sleep(0.5)
        print(f"serve --watch: first build and start {time.perf_counter() - start:.1f} s")
        text = card.read_text("utf-8")
        took, noticed = [], []
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            page = browser.new_page()
            page.goto(url + page_path)
            page.wait_for_load_state("load")
            time.sleep(1)  # the page's event stream is open
            _at_rest(server.pid)  # and the server's work after its first build is done
            for i in range(ROUNDS):
                marker = f"Bench marker {i} {time.time_ns()}"
                text = _FLAVOR.sub(f"flavor: {marker}", text, count=1)
                saved, saved_at = time.perf_counter(), time.time()
                _save(card, text)
                page.wait_for_selector(f"text={marker}", timeout=WAIT_MS)
                noticed.append(time.perf_counter() - saved)
                took.append(page.evaluate(_PAINTED) / 1000 - saved_at)
                # each save is timed from a server at rest: the page shows the edited card
                # before the rest of the build is done, which the next save would wait for
                _at_rest(server.pid)
            browser.close()
    finally:
        server.send_signal(2)  # Ctrl-C
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    rebuilds = [float(x) for x in _REBUILT.findall(log_path.read_text())][-ROUNDS:]
    runs = ", ".join(f"{t:.2f}" for t in took)
    watch = statistics.median(took)
    print(f"save to new page in Chromium: median {watch:.2f} s ({runs}); "
          f"noticed by the driver: median {statistics.median(noticed):.2f} s")
    if rebuilds:
        rebuilt = statistics.median(rebuilds)
        print(f"  the whole rebuild (the server's figure; the page is shown before it ends): "
              f"median {rebuilt:.2f} s")
    # the baseline: the same edit, then the build an author ran by hand
    _save(card, _FLAVOR.sub(f"flavor: Bench baseline {time.time_ns()}", text, count=1))
    begun = time.perf_counter()
    subprocess.run(_charnel("build", "--no-print", "--root", str(root),
                            "--out", str(root / "build")),
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    by_hand = time.perf_counter() - begun
    print(f"baseline, the same edit then `charnel build --no-print` (whole process): "
          f"{by_hand:.2f} s")
    print(f"save to new page / baseline build: {watch / by_hand:.2f}x")
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
