"""Live reload under `charnel serve --watch`: what the open pages of the site are told.

Each HTML page of the site is sent with one script tag more (`tag`), naming the page's file
and the sha256 of its bytes. The script opens a Server-Sent Events stream at EVENTS, and the
server answers from the state the rebuilds publish (`Live.publish`):

- `problems`: the last build's problems, rendered as `charnel check` prints them (JSON; the
  script shows them as text, so nothing in them is ever HTML), an empty list once fixed;
- `reload`: the page's file in the visible build has other bytes than the page shown (or is
  gone), or a stylesheet or script of the site changed; a page whose file did not change stays
  as it is.

Which bytes a file has comes from the build's own record of its outputs (`output_record`),
so no page is read again to compare. A build under way hands over the few files it has just
rendered (`preview`), before its search index and commit: their pages reload at once, served
those bytes (`previewed`), which are the ones the build commits. Should the build fail, they
reload again to the files of the build before, with its problems.

A game's offline copy (a service worker) is not offered while watching: each build would have
the browser copy every page again.

A stream is bounded: at most MAX_STREAMS at once, each closed after LIFETIME_S (the browser
opens it again by itself), and a comment every KEEPALIVE_S notices a tab that has closed.
"""

from __future__ import annotations

import asyncio
import hashlib
import html
import json
import os
import re
import time
from pathlib import Path
from urllib.parse import parse_qsl

from charnel import output_record, outputs
from charnel.site.offline import WORKER

PREFIX = "/_watch/"
SCRIPT = PREFIX + "live.js"
EVENTS = PREFIX + "events"
SCRIPT_FILE = Path(__file__).with_name("live.js")
MAX_STREAMS = 64
LIFETIME_S = 300.0
KEEPALIVE_S = 15.0
MAX_SHOWN = 50  # problems sent to a page; the summary counts them all
_SHA = re.compile(r"[0-9a-f]{64}")
_HEAD_END = re.compile(rb"</head\s*>", re.IGNORECASE)


def withheld(rel: str) -> bool:
    """Whether the site's file `rel` is not served while watching: a game's offline worker,
    which changes with every build and would have the browser copy every page again."""
    return rel.count("/") == 1 and rel.endswith("/" + WORKER)


def _looks(path: str) -> bool:
    """Whether the page's file is a record key of the site (not where a file is opened)."""
    parts = path.split("/")
    return 0 < len(path) <= 1024 and all(p and p not in (".", "..") for p in parts)


def _record(out_dir: Path) -> dict[str, list]:
    """The visible build's record of its outputs (`output_record`; shared, never changed)."""
    shown = outputs.visible(out_dir)
    return (output_record.read(shown) if shown is not None else None) or {}


def _sha(entry) -> str | None:
    return entry[3] if isinstance(entry, list) and len(entry) == 4 else None


def _site_files(record: dict[str, list]) -> dict[str, str]:
    """{path under site/: sha256} of a build's record."""
    return {rel[len("site/"):]: sha for rel, entry in record.items()
            if rel.startswith("site/") and (sha := _sha(entry)) is not None}


def _updated(before: dict[str, list], after: dict[str, list],
             files: dict[str, str]) -> tuple[dict[str, str], list[str]]:
    """`_site_files(after)` made from `files`, those of `before`, and the site's files whose
    bytes changed. A record made from its parent's shares the entries of the files it did not
    visit (`output_record.make`), so only the entries that are other objects are looked at."""
    moved = [rel for rel, entry in after.items() if before.get(rel) is not entry]
    moved += before.keys() - after.keys()
    files = dict(files)
    changed = []
    for rel in moved:
        if not rel.startswith("site/"):
            continue
        name, sha = rel[len("site/"):], _sha(after.get(rel))
        if sha != files.get(name):
            changed.append(name)
        if sha is None:
            files.pop(name, None)
        else:
            files[name] = sha
    return files, sorted(changed)


def _without(files: dict[str, str], before: dict[str, str | None]) -> dict[str, str]:
    """`files` with the shas `before` a preview put back (None: the file was not there)."""
    if not before:
        return files
    files = dict(files)
    for rel, sha in before.items():
        if sha is None:
            files.pop(rel, None)
        else:
            files[rel] = sha
    return files


def _assets(files: dict[str, str]) -> str:
    """One digest of the site's stylesheets and scripts (Pagefind's own files aside)."""
    digest = hashlib.sha256()
    for rel, sha in sorted((rel, sha) for rel, sha in files.items()  # few: sorted once found
                           if rel.endswith((".css", ".js")) and "pagefind" not in rel
                           and not withheld(rel)):
        digest.update(f"{rel}\0{sha}\n".encode())
    return digest.hexdigest()[:16]


class Live:
    """The state the rebuilds publish and the pages' streams read. `publish` is called from
    the thread that builds; the streams run on the server's event loop."""

    def __init__(self, out_dir: Path):
        self.out_dir = out_dir
        self.record = _record(out_dir)
        self.files = _site_files(self.record)
        self.assets = _assets(self.files)
        self.problems: dict = {"summary": "", "problems": []}
        self.previews: dict[str, bytes] = {}  # {file: bytes} of the build under way
        self.before: dict[str, str | None] = {}  # their sha256 in the visible build
        self.streams = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._event: asyncio.Event | None = None

    # -- the building side -------------------------------------------------------------------
    def publish(self, problems: list[str], summary: str = "") -> list[str]:
        """A build finished: with `problems` (rendered) it failed and the outputs stayed;
        without, the visible outputs are its own. Returns the site's files that changed."""
        files, changed = _without(self.files, self.before), []
        if not problems:
            record = _record(self.out_dir)
            files, changed = _updated(self.record, record, files)
            self.record = record
        shown = problems[:MAX_SHOWN]
        if len(problems) > MAX_SHOWN:
            summary += f" (the first {MAX_SHOWN} are shown here)"
        # each a whole new value, which a stream reads as it is before or after
        if any(rel.endswith((".css", ".js")) for rel in changed):
            self.assets = _assets(files)
        self.files = files
        self.previews, self.before = {}, {}
        self.problems = {"summary": summary, "problems": shown}
        self._tell()
        return changed

    def preview(self, files: dict[str, bytes]) -> None:
        """Files of the build under way (by their path in the site), rendered and not yet
        committed: the pages showing them reload now, to these bytes."""
        before = dict(self.before)
        for rel in files:
            before.setdefault(rel, self.files.get(rel))
        self.before = before
        self.previews = {**self.previews, **files}
        self.files = {**self.files,
                      **{rel: hashlib.sha256(data).hexdigest() for rel, data in files.items()}}
        self._tell()

    def _tell(self) -> None:
        loop = self._loop
        if loop is not None:
            try:
                loop.call_soon_threadsafe(self._wake)
            except RuntimeError:  # the server's loop has closed
                pass

    # -- the serving side --------------------------------------------------------------------
    withheld = staticmethod(withheld)

    def previewed(self, path: str, folder: bool) -> tuple[str, bytes] | None:
        """The file of the build under way at `path` (a path in the site, as StaticFiles
        normalises it; `folder`: the URL ends in '/', which asks for the folder's page), and
        where in the site it is."""
        previews = self.previews
        if not previews:
            return None
        rel = "" if path == "." else path.replace(os.sep, "/")
        if folder:
            rel = f"{rel}/index.html" if rel else "index.html"
        data = previews.get(rel)
        return None if data is None else (rel, data)

    def tag(self, body: bytes, rel: str) -> bytes:
        """The page `body` (the site's file `rel`) with the live-reload script in its head."""
        attributes = {
            "file": rel, "sha": hashlib.sha256(body).hexdigest(), "assets": self.assets,
        }
        data = " ".join(f'data-{k}="{html.escape(v, quote=True)}"' for k, v in attributes.items())
        tag = f'<script src="{SCRIPT}" {data} defer></script>'.encode()
        found = _HEAD_END.search(body)
        if found is None:
            return body + tag
        return body[: found.start()] + tag + body[found.start():]

    def routes(self) -> dict:
        return {SCRIPT: self._script, EVENTS: self._events}

    async def _script(self, scope, receive, send) -> None:
        body = SCRIPT_FILE.read_bytes()
        await _respond(send, 200, b"text/javascript; charset=utf-8", body)

    def _wake(self) -> None:  # on the loop
        event, self._event = self._event, None
        if event is not None:
            event.set()

    def _changed(self) -> asyncio.Event:
        if self._event is None:
            self._event = asyncio.Event()
        return self._event

    def _reload_needed(self, rel: str, sha: str, assets: str) -> bool:
        # a page the build removed (a card renamed) reloads too, to the site's 404 page
        changed = bool(self.files) and self.files.get(rel) != sha
        return changed or assets != self.assets

    async def _events(self, scope, receive, send) -> None:
        try:
            query = dict(parse_qsl(scope.get("query_string", b"").decode(), max_num_fields=4))
        except (UnicodeDecodeError, ValueError):
            query = {}
        rel, sha, assets = query.get("file", ""), query.get("sha", ""), query.get("assets", "")
        if not (_looks(rel) and _SHA.fullmatch(sha) and len(assets) <= 64):
            await _respond(send, 400, b"text/plain; charset=utf-8", b"400: not a page's stream\n")
            return
        if self.streams >= MAX_STREAMS:
            await _respond(send, 503, b"text/plain; charset=utf-8", b"503: too many pages open\n")
            return
        self._loop = asyncio.get_running_loop()
        self.streams += 1
        stream = asyncio.ensure_future(self._stream(send, rel, sha, assets))
        gone = asyncio.ensure_future(_disconnected(receive))
        try:
            await asyncio.wait({stream, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            self.streams -= 1
            for task in (stream, gone):
                task.cancel()
        if stream.done() and not stream.cancelled() and stream.exception() is not None:
            if not isinstance(stream.exception(), OSError):  # OSError: the page went away
                raise stream.exception()

    async def _stream(self, send, rel: str, sha: str, assets: str) -> None:
        headers = [
            (b"content-type", b"text/event-stream; charset=utf-8"),
            (b"cache-control", b"no-store"),
            (b"x-accel-buffering", b"no"),
        ]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await _message(send, "retry: 1000\n\n")
        told = {"summary": "", "problems": []}  # what the page shows: nothing yet
        until = time.monotonic() + LIFETIME_S
        while True:
            changed = self._changed()
            if self.problems != told:
                told = self.problems
                await _message(send, f"event: problems\ndata: {json.dumps(told)}\n\n")
            if self._reload_needed(rel, sha, assets):
                await _message(send, "event: reload\ndata: \n\n")
                break
            left = until - time.monotonic()
            if left <= 0:
                break
            try:
                await asyncio.wait_for(changed.wait(), min(KEEPALIVE_S, left))
            except TimeoutError:
                await _message(send, ": still watching\n\n")
        await send({"type": "http.response.body", "body": b"", "more_body": False})


async def _disconnected(receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


async def _message(send, text: str) -> None:
    await send({"type": "http.response.body", "body": text.encode(), "more_body": True})


async def _respond(send, status: int, content_type: bytes, body: bytes) -> None:
    headers = [
        (b"content-type", content_type),
        (b"cache-control", b"no-store"),
        (b"content-length", str(len(body)).encode()),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
