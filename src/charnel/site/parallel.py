"""Rendering many pages across the machine's cores: a fork-based process pool over batches.

The work (a function and the items it renders) is put in a module global before the pool
forks, so the children inherit the model, templates and caches instead of unpickling them;
only item indexes go out and rendered strings come back. Results are returned in item order,
so the output does not depend on which child rendered what. Below THRESHOLD items, on one
core, or where fork is unavailable, rendering is serial in this process.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from typing import Any

from charnel.forked import end_with_parent

THRESHOLD = 400  # below this many items a pool costs more than it saves
BATCH = 250  # items per task: small enough to balance two cores, large enough to amortise

_work: tuple[Callable[[Any], Any], Sequence[Any]] | None = None


def render_all(fn: Callable[[Any], Any], items: Sequence[Any], *, fork: bool = True,
               batch: int | None = None, threshold: int | None = None,
               meanwhile: Callable[[], Any] | None = None) -> list[Any]:
    """[fn(item) for item in items], in that order, using every core when it pays.

    fork=False renders in this process: when threads of this process are running, a forked
    worker could inherit a lock one of them holds, and deadlock. `batch` items go to a worker
    at a time (BATCH unless given); below `threshold` (THRESHOLD) items the work is done here.
    `meanwhile()` is called in this process while the workers render (before, when serial):
    what it makes is there for the work after, and the workers' children inherit it."""
    batch, threshold = batch or BATCH, THRESHOLD if threshold is None else threshold
    workers = min(os.cpu_count() or 1, len(items) // batch + 1)
    forking = fork and "fork" in multiprocessing.get_all_start_methods()
    if len(items) < threshold or workers < 2 or not forking:
        if meanwhile is not None:
            meanwhile()
        return [fn(item) for item in items]
    global _work
    _work = (fn, items)
    try:
        batches = [range(i, min(i + batch, len(items))) for i in range(0, len(items), batch)]
        with multiprocessing.get_context("fork").Pool(
            workers, initializer=end_with_parent, initargs=(os.getpid(),)
        ) as pool:
            pending = pool.map_async(_render_batch, batches, chunksize=1)
            if meanwhile is not None:
                meanwhile()
            done = pending.get()
    finally:
        _work = None
    return [result for batch in done for result in batch]


def _render_batch(indexes: range) -> list[Any]:
    fn, items = _work
    return [fn(items[i]) for i in indexes]
