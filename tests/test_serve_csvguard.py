"""The CSV guard reads an answer in whatever pieces it arrives: cut anywhere (inside a quoted
cell, between the two quotes of an escaped one, inside a line end), it writes the same."""

from __future__ import annotations

import asyncio
import csv
import io
import random

from charnel.serve import csvguard

ROWS = [
    ["name", "text", "n"],
    ["=SUM(A1)", 'a "quoted"\nline, and more', "-2"],
    ["plain", "@mention", "+3"],
    ["", '"', "\r\n"],
    ["x" * 5000, "multi\n\nline\n", "7"],
]


def answer(terminator: str) -> bytes:
    out = io.StringIO()
    csv.writer(out, lineterminator=terminator).writerows(ROWS)
    return out.getvalue().encode()


def guarded(body: bytes, pieces: list[int]) -> tuple[list[dict], bytes]:
    sent: list[dict] = []

    async def send(message):
        sent.append(message)

    async def app(scope, receive, send_):
        await send_({"type": "http.response.start", "status": 200,
                     "headers": [(b"content-type", b"text/csv")]})
        at = 0
        for size in pieces:
            await send_({"type": "http.response.body", "body": body[at:at + size],
                         "more_body": True})
            at += size
        await send_({"type": "http.response.body", "body": body[at:], "more_body": False})

    asyncio.run(csvguard.guarded_csv(app)({"type": "http", "path": "/x.csv"}, None, send))
    return sent, b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


def test_an_answer_cut_anywhere_is_guarded_the_same(monkeypatch):
    chance = random.Random(28)
    for terminator in ("\r\n", "\n"):
        body = answer(terminator)
        _, whole = guarded(body, [])
        rows = list(csv.reader(io.StringIO(whole.decode(), newline="")))
        # a plain number (+3) is kept as it is
        assert rows[1][0] == "'=SUM(A1)" and rows[2][1:] == ["'@mention", "+3"]
        assert rows[1][1] == ROWS[1][1] and rows[4][1] == ROWS[4][1]
        for _ in range(200):
            cuts = sorted(chance.sample(range(1, len(body)), chance.randint(1, 12)))
            pieces = [b - a for a, b in zip([0, *cuts], cuts, strict=False)]
            assert guarded(body, pieces)[1] == whole
        monkeypatch.setattr(csvguard, "HOLD", 10)  # streamed, not held: the same bytes
        sent, streamed = guarded(body, [7] * (len(body) // 7))
        assert streamed == whole
        assert all(k != b"content-length" for k, _ in sent[0]["headers"])
        monkeypatch.undo()
