"""A bounded in-memory cache of whole GET responses, for databases that never change while served.

The databases are opened immutable, so the same URL gives the same bytes for as long as the
same files are served. The key holds what a response can depend on besides the URL: the
database files themselves (content hash from inspect, plus inode, size and mtime read on every
request, so a rebuilt file is never answered from the old one's entries) and the Host header
(Datasette writes absolute `next_url`s). Requests carrying credentials (cookies, Authorization)
bypass the cache in both directions, as do responses that are not 200 or set a cookie: an
error may come from a query cut off under load, and must not outlive it. For the same reason
a 200 whose body holds one of the `incomplete` markers (a facet that ran out of time) is sent
but not kept.
"""

from __future__ import annotations

import hashlib
import os
from collections import OrderedDict
from collections.abc import Callable, Iterable
from pathlib import Path

HIT_HEADER = (b"x-charnel-cache", b"hit")
_PRIVATE = {b"cookie", b"authorization"}


def file_stamp(paths: Iterable[Path], hashes: Iterable[str] = ()) -> Callable[[], tuple]:
    """A function giving the served files' identity now: content hashes and current stats."""
    paths = sorted(str(p) for p in paths)
    content = hashlib.sha256("\n".join(sorted(hashes)).encode()).hexdigest()

    def stamp() -> tuple:
        stats = []
        for path in paths:
            try:
                st = os.stat(path)
            except OSError:
                return (content, None)
            stats.append((st.st_ino, st.st_size, st.st_mtime_ns))
        return (content, *stats)

    return stamp


class ResponseCache:
    """ASGI middleware: answer repeated GETs from memory, least recently used out first."""

    def __init__(
        self,
        app,
        *,
        stamp: Callable[[], tuple],
        max_bytes: int,
        incomplete: Iterable[bytes] = (),
    ):
        self.app = app
        self.stamp = stamp
        self.max_bytes = max_bytes
        self.incomplete = tuple(incomplete)
        self.max_entry = max_bytes // 8  # one huge export must not empty the cache
        self.entries: OrderedDict[tuple, tuple[dict, bytes]] = OrderedDict()
        self.size = 0
        self.hits = self.misses = 0

    async def __call__(self, scope, receive, send):
        if (
            scope["type"] != "http"
            or scope["method"] != "GET"
            or self.max_bytes <= 0
            or any(name in _PRIVATE for name, _ in scope.get("headers", ()))
        ):
            await self.app(scope, receive, send)
            return
        key = self._key(scope)
        entry = self.entries.get(key)
        if entry is not None:
            self.hits += 1
            self.entries.move_to_end(key)
            start, body = entry
            await send({**start, "headers": [*start["headers"], HIT_HEADER]})
            await send({"type": "http.response.body", "body": body})
            return
        self.misses += 1
        await self.app(scope, receive, self._recorder(key, send))

    def _key(self, scope) -> tuple:
        host = next((v for k, v in scope.get("headers", ()) if k == b"host"), b"")
        path = scope.get("raw_path") or scope["path"].encode()
        return (self.stamp(), scope.get("scheme", "http"), host, path, scope["query_string"])

    def _recorder(self, key: tuple, send):
        start: dict = {}
        chunks: list[bytes] = []
        size = 0
        keep = True

        async def record(message):
            nonlocal size, keep
            if message["type"] == "http.response.start":
                start.update(message)
                keep = message["status"] == 200 and not any(
                    name.lower() == b"set-cookie" for name, _ in message.get("headers", ())
                )
            elif message["type"] == "http.response.body" and keep:
                chunk = message.get("body", b"")
                size += len(chunk)
                keep = size <= self.max_entry
                chunks.append(chunk)
                if keep and not message.get("more_body", False):
                    body = b"".join(chunks)
                    if not any(marker in body for marker in self.incomplete):
                        self._store(key, {**start, "headers": list(start["headers"])}, body)
            await send(message)

        return record

    def _store(self, key: tuple, start: dict, body: bytes) -> None:
        old = self.entries.pop(key, None)
        if old is not None:
            self.size -= len(old[1])
        self.entries[key] = (start, body)
        self.size += len(body)
        while self.size > self.max_bytes and self.entries:
            _, (_, dropped) = self.entries.popitem(last=False)
            self.size -= len(dropped)
