"""Rendering many pages across the machine's cores: a fork-based process pool over batches;
work aside in a process of its own; and threads that run the largest waiting job first.

The work (a function and the items it renders) is put in a module global before the pool
forks, so the children inherit the model, templates and caches instead of unpickling them;
only item indexes go out and rendered strings come back. Results are returned in item order,
so the output does not depend on which child rendered what. Below THRESHOLD items, on one
core, or where fork is unavailable, rendering is serial in this process.
"""

from __future__ import annotations

import functools
import itertools
import math
import multiprocessing
import os
import queue
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import Any

THRESHOLD = 400  # below this many items a pool costs more than it saves
BATCH = 250  # items per task: small enough to balance two cores, large enough to amortise

_work: tuple[Callable[[Any], Any], Sequence[Any]] | None = None


def render_all(fn: Callable[[Any], Any], items: Sequence[Any], *, fork: bool = True) -> list[Any]:
    """[fn(item) for item in items], in that order, using every core when it pays.

    fork=False renders in this process: when threads of this process are running, a forked
    worker could inherit a lock one of them holds, and deadlock."""
    workers = min(os.cpu_count() or 1, len(items) // BATCH + 1)
    forking = fork and "fork" in multiprocessing.get_all_start_methods()
    if len(items) < THRESHOLD or workers < 2 or not forking:
        return [fn(item) for item in items]
    global _work
    _work = (fn, items)
    try:
        batches = [range(i, min(i + BATCH, len(items))) for i in range(0, len(items), BATCH)]
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            done = pool.map(_render_batch, batches, chunksize=1)
    finally:
        _work = None
    return [result for batch in done for result in batch]


class Aside:
    """fn(*args) in a forked process, run on the other core while this one renders; result()
    waits for it and raises what it raised. In this process on one core. close() ends the
    process (always call it). A bare process and a pipe, not a pool: a pool keeps threads in
    this process, and forking the render workers beside threads can deadlock them."""

    def __init__(self, fn: Callable[..., Any], *args: Any):
        self._call = functools.partial(fn, *args)
        self._process = None
        if (os.cpu_count() or 1) < 2 or "fork" not in multiprocessing.get_all_start_methods():
            return
        context = multiprocessing.get_context("fork")
        self._receive, send = context.Pipe(duplex=False)
        # with fork, the call is inherited by the child, not pickled
        self._process = context.Process(target=_run_aside, args=(self._call, send), daemon=True)
        self._process.start()
        send.close()

    def result(self) -> Any:
        if self._process is None:
            return self._call()
        try:
            ok, value = self._receive.recv()
        except EOFError:
            raise RuntimeError(f"the work aside ended with code {self._process.exitcode}") from None
        if not ok:
            raise value
        return value

    def close(self) -> None:
        if self._process is not None:
            if self._process.is_alive():
                self._process.terminate()
            self._process.join()
            self._receive.close()


def _run_aside(call: Callable[[], Any], send) -> None:
    os.nice(10)  # work aside yields the cores to the build's main line and its search index
    try:
        send.send((True, call()))
    except BaseException as exc:  # noqa: BLE001 - every failure goes back to the caller
        try:
            send.send((False, exc))
        except Exception:  # noqa: BLE001 - an exception that cannot be pickled
            send.send((False, RuntimeError(repr(exc))))


def _render_batch(indexes: range) -> list[Any]:
    fn, items = _work
    return [fn(items[i]) for i in indexes]


class LargestFirst:
    """Calls run on `workers` threads, the largest waiting call first (by the size it was
    submitted with), so a big job submitted late starts before small ones queued earlier and
    the work does not end with one thread busy and the others idle. Threads start with the
    first call (a process with no threads yet can still fork safely)."""

    def __init__(self, workers: int):
        self._workers = workers
        self._queue: queue.PriorityQueue = queue.PriorityQueue()
        self._order = itertools.count()  # equal sizes run in the order submitted
        self._threads: list[threading.Thread] = []

    def submit(self, size: int, fn: Callable[..., Any], *args: Any) -> Future:
        if not self._threads:
            self._threads = [threading.Thread(target=self._work, daemon=True)
                             for _ in range(self._workers)]
            for thread in self._threads:
                thread.start()
        future: Future = Future()
        self._queue.put((-size, next(self._order), future, functools.partial(fn, *args)))
        return future

    def shutdown(self) -> None:
        """Wait for every call submitted, then end the threads."""
        for _ in self._threads:
            self._queue.put((math.inf, next(self._order), None, None))  # after every call
        for thread in self._threads:
            thread.join()
        self._threads = []

    def _work(self) -> None:
        while True:
            _, _, future, call = self._queue.get()
            if future is None:
                return
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(call())
                except BaseException as exc:  # noqa: BLE001 - the caller's result() raises it
                    future.set_exception(exc)
