"""Datasette over the databases as they are now, though a build replaces them while served.

Datasette opens the databases immutable and takes row counts from the inspect data, so a
Datasette outlives no rebuild: its connections read the replaced file and its counts are the
old ones. A build writes each database beside it and renames it into place, so a changed
inode, size or mtime says a new file is there; the next request then gets a new Datasette,
described and inspected afresh, and the old one's threads (and its connections) are let go.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from pathlib import Path

from datasette.app import Datasette


def stamp(paths: list[Path]) -> tuple:
    """What identifies the files now: None for one that is missing (mid-way through a build
    that removes a game, say)."""
    found = []
    for path in paths:
        try:
            st = os.stat(path)
        except OSError:
            found.append(None)
            continue
        found.append((st.st_ino, st.st_size, st.st_mtime_ns))
    return tuple(found)


class Reloading:
    """ASGI app answering with the Datasette `make` builds, built again when the files of its
    databases change. `current` is the Datasette of the moment (for those that need one)."""

    def __init__(self, datasette: Datasette, make: Callable[[], Datasette]):
        self.make = make
        self.current = datasette
        self.paths = [Path(db.path) for db in datasette.databases.values() if db.path]
        self.seen = stamp(self.paths)
        self.app = datasette.app()
        self.lock = asyncio.Lock()

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and stamp(self.paths) != self.seen:
            async with self.lock:
                now = stamp(self.paths)
                if now != self.seen and None not in now:
                    self._replace(now)
        await self.app(scope, receive, send)

    def _replace(self, now: tuple) -> None:
        old = self.current
        self.current = self.make()
        self.app = self.current.app()
        self.seen = now
        # requests under way keep their threads; idle ones end, closing their connections
        if old.executor is not None:
            old.executor.shutdown(wait=False)
