"""`POST /<game>/judge/run`: an example a reader wrote, run by the judge (`charnel.judge`).

The example runs in a worker process of its own, never in the server: each game has up to
`PROCESSES` of them, each loading the game's records once from the project's sources. A run
that outlasts the time bound is stopped by killing its process (a fresh one takes its place
at the next request); a run that asks for more memory than the bound gets a MemoryError in
that process, not in the server. The body is read up to `charnel.judge.MAX_BYTES` and no
further. Waiting runs queue in the event loop, not in the server's threads, so pages, files
and Datasette keep answering while every judge process is busy. With `--public`, each client
address may start `RATE` runs a minute.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import time
from collections import deque
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import anyio

from charnel import registry
from charnel.judge import MAX_BYTES, TOO_LARGE

PATH = "judge/run"  # under the game's part of the site
PROCESSES = 2  # per game: one per core
SECONDS = 5.0  # one run; the rules' examples take milliseconds
MEMORY_MB = 512  # a process's address space beyond what it holds once the records are loaded
RATE = 30  # runs a minute per client address, with --public
WAITING = 32  # runs waiting for a process, across games; more are refused with a 503


class Bounds:
    """The judge's bounds; tests make them tight."""

    def __init__(self, seconds: float = SECONDS, memory_mb: int = MEMORY_MB, rate: int = RATE):
        self.seconds, self.memory_mb, self.rate = seconds, memory_mb, rate


def _work(root: str, game_id: str, memory_mb: int, conn) -> None:
    """A judge process: load the game, then answer each example text it is sent."""
    import resource

    from charnel import judge
    from charnel.diagnostics import Problems
    from charnel.sources import loader

    problems = Problems()
    records = loader.load(Path(root), game_id, problems)
    game = registry.get(game_id)
    clauses = judge.refusing_clauses(records) if records is not None and not problems else {}
    if records is not None and not problems:
        with open("/proc/self/statm") as statm:  # pages of address space held now
            held = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        limit = held + memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    conn.send("ready")
    while True:
        try:
            raw = conn.recv()
        except EOFError:
            return
        if records is None or problems:
            conn.send((503, {"error": f"the {game_id} sources do not load; run `charnel check`"}))
            continue
        try:
            conn.send(judge.answer(game, records, raw, clauses))
        except MemoryError:
            conn.send((422, {"error": f"the example needs more than {memory_mb} MB; stopped"}))
        except RecursionError:
            conn.send((422, {"error": "the example nests its actions too deeply; stopped"}))
        except Exception:  # noqa: BLE001 - an engine's bug: the reader gets no traceback
            conn.send((500, {"error": "the rules engine failed on this example"}))


class _Pipe:
    """Both ends a process talks through, as one connection."""

    def __init__(self, reading: int, writing: int):
        self.reader = Connection(reading, writable=False)
        self.writer = Connection(writing, readable=False)

    def send(self, value: Any) -> None:
        self.writer.send(value)

    def recv(self) -> Any:
        return self.reader.recv()

    def poll(self, timeout: float) -> bool:
        return self.reader.poll(timeout)

    def close(self) -> None:
        self.reader.close()
        self.writer.close()


class _Process:
    """A judge process. A plain subprocess, not a multiprocessing child: the server's own
    workers (`--workers`) are daemonic processes, which may not have those."""

    def __init__(self, root: Path, game_id: str, bounds: Bounds):
        to_child, ours_out = os.pipe()
        ours_in, from_child = os.pipe()
        command = [
            sys.executable, "-m", __name__, str(to_child), str(from_child), str(root), game_id,
            str(bounds.memory_mb),
        ]
        try:
            self.process = subprocess.Popen(
                command, pass_fds=(to_child, from_child), stdin=subprocess.DEVNULL
            )
        finally:
            os.close(to_child)
            os.close(from_child)
        self.conn = _Pipe(ours_in, ours_out)
        self.fresh = True  # until it says it has loaded the game

    def stop(self) -> None:
        self.process.kill()
        self.process.wait(timeout=5)
        self.conn.close()


class Judge:
    """One game's judge processes, started when first asked."""

    def __init__(self, root: Path, game_id: str, bounds: Bounds):
        self.root, self.game_id, self.bounds = root, game_id, bounds
        self.idle: queue.LifoQueue[_Process] = queue.LifoQueue()

    def ask(self, raw: bytes) -> tuple[int, Any]:
        """Blocking: run the example in an idle process, or a new one (the caller bounds how
        many run at once)."""
        try:
            worker = self.idle.get_nowait()
        except queue.Empty:
            worker = _Process(self.root, self.game_id, self.bounds)
        try:
            if worker.fresh:  # the time bound is the run's alone, not the start's
                if not worker.conn.poll(_START):
                    worker.stop()
                    return 503, {"error": "the judge did not start; try again in a moment"}
                worker.conn.recv()
                worker.fresh = False
            worker.conn.send(raw)
            if worker.conn.poll(self.bounds.seconds):
                answer = worker.conn.recv()
                self.idle.put(worker)
                return answer
        except (EOFError, OSError):  # the process died (killed from outside, or crashed)
            worker.stop()
            return 422, {"error": "the example stopped the judge; it was not answered"}
        worker.stop()
        return 422, {
            "error": f"the example ran longer than {self.bounds.seconds:g} s and was stopped"
        }

    def close(self) -> None:
        while True:
            try:
                self.idle.get_nowait().stop()
            except queue.Empty:
                return


_START = 60.0  # seconds a fresh process may take to start and load the records (on a busy host)


class Rate:
    """At most `per_minute` runs a minute per client address."""

    def __init__(self, per_minute: int):
        self.per_minute = per_minute
        self.seen: dict[str, deque[float]] = {}

    def allows(self, client: str) -> bool:
        now = time.monotonic()
        times = self.seen.setdefault(client, deque())
        while times and times[0] <= now - 60:
            times.popleft()
        if len(times) >= self.per_minute:
            return False
        times.append(now)
        if len(self.seen) > 10_000:  # forget addresses idle for a minute
            self.seen = {k: v for k, v in self.seen.items() if v and v[-1] > now - 60}
        return True


def routes(root: Path, game_ids: list[str], bounds: Bounds | None = None) -> dict[str, Judge]:
    """{'/<game>/judge/run': its judge} for each served game that has a rules engine."""
    bounds = bounds or Bounds()
    found = {}
    for game_id in sorted(game_ids):
        if registry.get(game_id).has_engine:
            found[f"/{game_id}/{PATH}"] = Judge(root, game_id, bounds)
    return found


def responder(public: bool, bounds: Bounds | None = None):
    """The ASGI handler of the judges' paths: one rate limit and one queue for all games."""
    rate = Rate((bounds or Bounds()).rate) if public else None
    limiter = anyio.CapacityLimiter(PROCESSES)
    waiting = [0]

    async def respond(scope, receive, send, judge: Judge) -> None:
        if scope.get("method") != "POST":
            status, data = 405, {"error": "send the example with POST"}
        else:
            raw = await _body(receive)
            client = (scope.get("client") or ("?", 0))[0]
            if raw is None:
                status, data = 413, {"error": TOO_LARGE}
            elif rate is not None and not rate.allows(client):
                status, data = 429, {"error": f"at most {rate.per_minute} runs a minute; wait"}
            elif waiting[0] >= WAITING:
                status, data = 503, {"error": "the judge is busy; try again in a moment"}
            else:
                waiting[0] += 1
                try:
                    status, data = await anyio.to_thread.run_sync(
                        judge.ask, raw, limiter=limiter
                    )
                finally:
                    waiting[0] -= 1
        await _send_json(send, status, data)

    return respond


async def _body(receive) -> bytes | None:
    """The request's body, or None past the bound (read no further than it)."""
    chunks, size = [], 0
    while True:
        message = await receive()
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BYTES:
            return None
        chunks.append(chunk)
        if not message.get("more_body"):
            break
    return b"".join(chunks)


async def _send_json(send, status: int, data: Any) -> None:
    body = json.dumps(data, sort_keys=True, ensure_ascii=False).encode()
    headers = [
        (b"content-type", b"application/json; charset=utf-8"),
        (b"cache-control", b"no-store"),
        (b"content-length", str(len(body)).encode()),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


if __name__ == "__main__":  # a judge process (see `_Process`)
    reading, writing, root, game_id, memory_mb = sys.argv[1:6]
    _work(root, game_id, int(memory_mb), _Pipe(int(reading), int(writing)))
