"""Datasette's CSV answers with formula cells guarded, as `charnel export` writes them.

Datasette writes CSV itself and has no hook for its cells, so its `.csv` answers are read as
they stream, record by record: each cell that a spreadsheet would run as a formula is given a
leading apostrophe (`charnel.spreadsheet`), and the record is written again in the same
dialect. A record is complete at a line end outside quotes, which counting the quotes before
each line end finds without parsing the text twice.

Memory stays bounded whatever the cells hold (a value is at most 1 MB, see
`plugin.MAX_VALUE_BYTES`, as in the JSON answers): an answer of up to `HOLD` bytes is sent
whole, with its length; a larger one streams. An answer past `MAX_BYTES` (a streamed export
of a huge table) is refused with a 413 when nothing of it was sent yet, and otherwise ends
with a line that says it was cut, as Datasette's own CSV limit does: `charnel export` and the
site's /data/ downloads serve whole tables.
"""

from __future__ import annotations

import csv
import io

from charnel.spreadsheet import guard

MAX_BYTES = 64 * 1024 * 1024
HOLD = 1024 * 1024  # an answer this small is sent whole, with a Content-Length
TOO_LARGE = b"413: this CSV is too large to serve; use charnel export\n"
# A cell is as large as a value may be (1 MB) and more when its quotes are doubled; the csv
# module's default (128 KB) made such answers fail with a 500.
csv.field_size_limit(max(csv.field_size_limit(), 4 * 1024 * 1024))


def is_csv(scope: dict) -> bool:
    return scope.get("path", "").endswith(".csv")


def guarded_csv(app):
    async def wrapped(scope, receive, send):
        if scope["type"] != "http" or not is_csv(scope):
            await app(scope, receive, send)
            return
        stream = _Stream(send)
        try:
            await app(scope, receive, stream.receive)
        except _Cut:
            pass

    return wrapped


class _Cut(Exception):
    """Raised into Datasette from `send` once the answer is too large: it stops writing."""


class _Stream:
    """Takes Datasette's messages, sends the guarded answer on."""

    def __init__(self, send):
        self.send = send
        self.start: dict = {}
        self.records = _Records()
        self.held: list[bytes] = []
        self.held_size = 0
        self.size = 0  # bytes read from Datasette
        self.started = False  # the answer's head was sent
        self.done = False

    async def receive(self, message) -> None:
        if self.done:
            if self.size > MAX_BYTES:
                raise _Cut
            return
        if message["type"] == "http.response.start":
            self.start = dict(message)
            return
        if message["type"] != "http.response.body":
            return
        body, more = message.get("body", b""), message.get("more_body", False)
        self.size += len(body)
        if self.size > MAX_BYTES:
            await self._too_large()
            raise _Cut
        if self.start.get("status", 200) != 200:  # an error page: not CSV, passed on
            out = body
        else:
            out = self.records.feed(body) + (b"" if more else self.records.end())
        if not self.started and self.held_size + len(out) <= HOLD and more:
            self.held.append(out)
            self.held_size += len(out)
            return
        if not self.started and not more:  # the whole answer: sent with its length
            whole = b"".join([*self.held, out])
            await self._head(length=len(whole))
            await self.send({"type": "http.response.body", "body": whole})
            self.done = True
            return
        if not self.started:
            await self._head(length=None)
            out = b"".join([*self.held, out])
            self.held = []
        await self.send({"type": "http.response.body", "body": out, "more_body": more})
        self.done = not more

    async def _head(self, length: int | None, status: int | None = None,
                    headers: list | None = None) -> None:
        kept = headers if headers is not None else [
            (k, v) for k, v in self.start.get("headers", []) if k.lower() != b"content-length"]
        if length is not None:
            kept = [*kept, (b"content-length", str(length).encode())]
        await self.send({"type": "http.response.start",
                         "status": status or self.start.get("status", 200), "headers": kept})
        self.started = True

    async def _too_large(self) -> None:
        self.done = True
        if not self.started:
            await self._head(len(TOO_LARGE), 413,
                             [(b"content-type", b"text/plain; charset=utf-8")])
            await self.send({"type": "http.response.body", "body": TOO_LARGE})
            return
        await self.send({"type": "http.response.body", "body": b"\n" + TOO_LARGE,
                         "more_body": False})


class _Records:
    """Splits CSV bytes as they come into whole records and writes each again guarded."""

    def __init__(self):
        self.pending: list[bytes] = []  # the start of a record not yet ended
        self.quoted = False  # inside a quoted cell at the end of what was fed
        self.terminator: str | None = None

    def feed(self, data: bytes) -> bytes:
        pieces = data.split(b"\n")
        complete: list[bytes] = []
        for i, piece in enumerate(pieces):
            self.quoted ^= piece.count(b'"') % 2 == 1
            last = i == len(pieces) - 1
            self.pending.append(piece if last else piece + b"\n")
            if not last and not self.quoted:
                complete.append(b"".join(self.pending))
                self.pending = []
                if self.terminator is None:  # the first record's line end is the dialect's
                    self.terminator = "\r\n" if complete[0].endswith(b"\r\n") else "\n"
        if self.pending == [b""]:
            self.pending = []
        return self._guarded(b"".join(complete)) if complete else b""

    def end(self) -> bytes:
        rest, self.pending = b"".join(self.pending), []
        return self._guarded(rest) if rest else b""

    def _guarded(self, body: bytes) -> bytes:
        text = body.decode("utf-8", "surrogateescape")
        out = io.StringIO()
        writer = csv.writer(out, lineterminator=self.terminator or "\r\n")
        for row in csv.reader(io.StringIO(text, newline="")):
            writer.writerow([guard(cell) for cell in row])
        return out.getvalue().encode("utf-8", "surrogateescape")
