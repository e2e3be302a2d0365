"""Many YAML documents parsed in worker processes, in the order given, as one process would.

Composing YAML is most of the load and each file is independent, so a large project's card
files are split into chunks for forked workers. Workers inherit the texts through fork and
send back only plain values and problems; positions are not sent (see `yamltext.Located`).
Small projects are parsed in this process: starting workers would cost more than it saves.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor

from charnel.diagnostics import Origin, Problem, Problems
from charnel.forked import end_with_parent
from charnel.sources import yamltext
from charnel.sources.yamltext import Located

SERIAL_BELOW = 2_000  # documents; below this a worker's start-up outweighs its share
CHUNK = 500  # documents a worker parses per task: few round trips, an even finish

# (path, text) of every document, set just before the workers fork so they inherit it.
_documents: list[tuple[str, str]] = []


def parse_documents(
    documents: list[tuple[str, str]], problems: Problems, *, workers: int | None = None
) -> Iterator[Located | None]:
    """Parse each (path, text) in order; problems are added in order, as the serial loop would."""
    workers = _workers() if workers is None else workers
    if len(documents) < SERIAL_BELOW or workers < 2 or not _can_fork():
        for path, text in documents:
            yield yamltext.parse(text, Origin(path), problems)
        return
    yield from _in_workers(documents, problems, workers)


def _in_workers(
    documents: list[tuple[str, str]], problems: Problems, workers: int
) -> Iterator[Located | None]:
    global _documents
    _documents = documents
    chunks = [(i, min(i + CHUNK, len(documents))) for i in range(0, len(documents), CHUNK)]
    try:
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(max_workers=workers, mp_context=context,
                                 initializer=end_with_parent,
                                 initargs=(os.getpid(),)) as pool:
            for (start, _), parsed in zip(chunks, pool.map(_parse_chunk, chunks), strict=True):
                for i, (found, shape) in enumerate(parsed, start):
                    problems.items.extend(found)
                    yield _located(shape, documents[i][1])
    finally:
        _documents = []


def _parse_chunk(span: tuple[int, int]) -> list[tuple[list[Problem], tuple | None]]:
    """In a worker: parse documents[start:stop]; values and the document's start go back."""
    out = []
    for path, text in _documents[span[0] : span[1]]:
        found = Problems()
        doc = yamltext.parse(text, Origin(path), found)
        out.append((found.items, None if doc is None else (doc.value, doc.origin)))
    return out


def _located(shape: tuple | None, text: str) -> Located | None:
    if shape is None:
        return None
    value, origin = shape
    return Located.from_text(value, origin, text)


def _workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def _can_fork() -> bool:
    # Forking copies only the calling thread; with other threads running (a server, a thread
    # pool) a lock one of them holds could stay locked in the worker forever.
    return "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1
