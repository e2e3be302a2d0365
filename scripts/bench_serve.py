"""Benchmark area `serve`: a newcomer's first `charnel serve`, as a whole process.

The bundled data (every game under --source) is copied into a fresh folder, as after a clone,
and `charnel serve` started on a free port of 127.0.0.1. Printed: the seconds until `/`
answers, and until every game's print page links its rules booklet (the PDFs are laid out
beside the server). A version that lays the PDFs out before serving gives the same two
figures (run it with scripts/bench_compare.py). The synthetic pool instead of the bundled
data: BENCH_SERVE_POOL=synthetic (the test suite's smoke run).

    .venv/bin/python scripts/bench.py --only serve
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

BOUND_S = 1800  # how long to wait at most (on a machine of 2 busy cores)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _answers(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.read().decode("utf-8", "replace")
    except OSError:
        return None


def run(args) -> None:
    synthetic = os.environ.get("BENCH_SERVE_POOL") == "synthetic"
    source = args.pool if synthetic else args.source
    with tempfile.TemporaryDirectory(prefix="charnel-serve-bench-") as tmp:
        root = Path(tmp) / "clone"
        for part in ("cards", "rules"):
            shutil.copytree(source / part, root / part)
        games = sorted(p.parent.name for p in (root / "rules").glob("*/game.yaml"))
        port = _free_port()
        base = f"http://127.0.0.1:{port}"
        command = [sys.executable, "-m", "charnel.cli", "serve", "--root", str(root),
                   "--out", str(root / "build"), "--port", str(port)]
        print(f"{'synthetic pool' if synthetic else 'bundled data'}: {', '.join(games)}; "
              f"load average {os.getloadavg()[0]:.1f} at the start")
        start = time.perf_counter()
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            first = linked = None
            while time.perf_counter() - start < BOUND_S and server.poll() is None:
                if first is None and _answers(base + "/") is not None:
                    first = time.perf_counter() - start
                if first is not None and all(
                    f"{g}-rules.pdf" in (_answers(f"{base}/{g}/rules/") or "") for g in games
                ):
                    linked = time.perf_counter() - start
                    break
                time.sleep(0.2)
        finally:
            server.terminate()
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                server.kill()
        if first is None:
            print(f"first serve: no answer at / (server status {server.returncode})")
            return
        print(f"first serve: / answers after {first:.1f} s")
        print("first serve: every rules booklet linked after "
              + (f"{linked:.1f} s" if linked is not None else f"more than {BOUND_S} s"))
        print(f"load average {os.getloadavg()[0]:.1f} at the end")
