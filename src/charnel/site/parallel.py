"""Rendering many pages across the machine's cores: a fork-based process pool over batches.

The work (a function and the items it renders) is put in a module global before the pool
forks, so the children inherit the model, templates and caches instead of unpickling them;
only item indexes go out and rendered strings come back. Results are returned in item order,
so the output does not depend on which child rendered what. Below THRESHOLD items, on one
core, or where fork is unavailable, rendering is serial in this process.
"""

from __future__ import annotations

import functools
import multiprocessing
import os
from collections.abc import Callable, Sequence
from typing import Any

THRESHOLD = 400  # below this many items a pool costs more than it saves
BATCH = 250  # items per task: small enough to balance two cores, large enough to amortise

_work: tuple[Callable[[Any], Any], Sequence[Any]] | None = None


def render_all(fn: Callable[[Any], Any], items: Sequence[Any]) -> list[Any]:
    """[fn(item) for item in items], in that order, using every core when it pays."""
    workers = min(os.cpu_count() or 1, len(items) // BATCH + 1)
    forking = "fork" in multiprocessing.get_all_start_methods()
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
    waits for it. In this process on one core. close() ends the process (always call it)."""

    def __init__(self, fn: Callable[..., Any], *args: Any):
        self._pool = None
        if (os.cpu_count() or 1) < 2 or "fork" not in multiprocessing.get_all_start_methods():
            self._call = functools.partial(fn, *args)
            return
        global _aside
        _aside = functools.partial(fn, *args)  # inherited by the fork, not pickled
        try:
            self._pool = multiprocessing.get_context("fork").Pool(1)
        finally:
            _aside = None
        self._call = self._pool.apply_async(_run_aside).get

    def result(self) -> Any:
        return self._call()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()


_aside: Callable[[], Any] | None = None


def _run_aside() -> Any:
    os.nice(10)  # work aside yields the cores to the build's main line and its search index
    return _aside()


def _render_batch(indexes: range) -> list[Any]:
    fn, items = _work
    return [fn(items[i]) for i in indexes]
