"""Datasette's CSV answers with formula cells guarded, as `charnel export` writes them.

Datasette writes CSV itself and has no hook for its cells, so its `.csv` answers are read
whole, each cell that a spreadsheet would run as a formula is given a leading apostrophe
(`charnel.spreadsheet`), and the CSV is written again in the same dialect. An answer larger
than `MAX_BYTES` (a streamed export of a huge table) is refused with a 413 rather than held in
memory: `charnel export` and the site's /data/ downloads serve whole tables.
"""

from __future__ import annotations

import csv
import io

from charnel.spreadsheet import guard

MAX_BYTES = 64 * 1024 * 1024


def is_csv(scope: dict) -> bool:
    return scope.get("path", "").endswith(".csv")


def guarded_csv(app):
    async def wrapped(scope, receive, send):
        if scope["type"] != "http" or not is_csv(scope):
            await app(scope, receive, send)
            return
        start: dict = {}
        chunks: list[bytes] = []
        size = 0
        over = False

        async def collect(message):
            nonlocal size, over
            if message["type"] == "http.response.start":
                start.update(message)
                return
            if message["type"] != "http.response.body":
                return
            size += len(message.get("body", b""))
            if size > MAX_BYTES:
                over, chunks[:] = True, []
            elif not over:
                chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                await _finish(send, start, b"".join(chunks), over)

        await app(scope, receive, collect)

    return wrapped


async def _finish(send, start: dict, body: bytes, over: bool) -> None:
    headers = [(k, v) for k, v in start.get("headers", []) if k.lower() != b"content-length"]
    status = start.get("status", 200)
    if over:
        status, body = 413, b"413: this CSV is too large to serve; use charnel export\n"
        headers = [(b"content-type", b"text/plain; charset=utf-8")]
    elif status == 200:
        body = _guarded(body)
    headers.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _guarded(body: bytes) -> bytes:
    text = body.decode("utf-8", "surrogateescape")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n" if "\r\n" in text[:65536] else "\n")
    for row in csv.reader(io.StringIO(text, newline="")):
        writer.writerow([guard(cell) for cell in row])
    return out.getvalue().encode("utf-8", "surrogateescape")
