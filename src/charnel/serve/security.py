"""What `charnel serve` does to every request and response, whatever answers it.

Requests that no page can answer (a NUL byte, control characters, an overlong path or query
string) are refused with a 4xx here, before any file or route is looked at. Every response
gets `nosniff` and a refusal to be framed; every response a browser may run as a document or
worker (HTML, scripts, SVG, anything whose type is not known to be inert) gets a
Content-Security-Policy that allows no inline script except Datasette's own (by hash). See
docs/security.md.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import re

MAX_PATH = 2048  # bytes of the path as sent
MAX_QUERY = 8192  # bytes of the query string: a search is at most 1,000 characters
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")

# The site's script is /assets/site.js; Pagefind compiles WebAssembly (wasm-unsafe-eval
# allows that, not eval). Inline style stays allowed: it cannot run code.
_COMMON = (
    "default-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
)
SITE_CSP = "; ".join((*_COMMON, "script-src 'self' 'wasm-unsafe-eval'"))

# Types a browser never runs as a document or worker (with nosniff it does not guess another):
# a policy on them governs nothing, and would cost about 330 bytes on each of the search
# index's many small files.
INERT = (
    b"application/octet-stream", b"application/json", b"application/wasm", b"text/css",
    b"image/png", b"image/jpeg", b"image/webp", b"image/gif", b"font/",
)

HEADERS = {
    b"x-content-type-options": b"nosniff",
    b"x-frame-options": b"DENY",
    b"referrer-policy": b"same-origin",
    b"cross-origin-opener-policy": b"same-origin",
}


def datasette_csp(script_hashes: set[str]) -> str:
    allowed = " ".join(f"'sha256-{h}'" for h in sorted(script_hashes))
    return "; ".join((*_COMMON, f"script-src 'self' {allowed}".rstrip()))


def refusal(scope: dict) -> tuple[int, str] | None:
    """(status, reason) for a request no page can answer, or None."""
    raw = scope.get("raw_path") or scope.get("path", "").encode("utf-8", "surrogateescape")
    if len(raw) > MAX_PATH:
        return 414, "the path is too long"
    if len(scope.get("query_string", b"")) > MAX_QUERY:
        return 414, "the query string is too long"
    path = scope.get("path", "")
    if _CONTROL.search(path):
        return 400, "the path holds a control character"
    if "//" in path or "\\" in path:
        # no page has one; redirects made from such a path could name another host
        return 404, "no page has this path"
    return None


def guard(app, *, prefix: str, datasette_scripts):
    """`app` with requests checked and security headers on every response.

    `prefix` is where Datasette is mounted; `datasette_scripts` is an async function giving
    the hashes of the inline scripts Datasette's own templates write (see `inline_scripts`).
    """
    lock = asyncio.Lock()
    known: dict[str, str] = {}

    async def datasette_policy() -> str:
        async with lock:
            if "csp" not in known:
                known["csp"] = datasette_csp(await datasette_scripts())
        return known["csp"]

    async def warming(receive):
        """`receive` that works out Datasette's policy when the server starts, so the first
        request does not wait for the pages it is read from."""
        message = await receive()
        if message.get("type") == "lifespan.startup":
            await datasette_policy()
        return message

    async def guarded(scope, receive, send):
        if scope["type"] == "lifespan":
            await app(scope, lambda: warming(receive), send)
            return
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        refused = refusal(scope)
        if refused is not None:
            status, reason = refused
            headers = secured(
                [(b"content-type", b"text/plain; charset=utf-8"), (b"cache-control", b"no-store")],
                SITE_CSP,
            )
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": f"{status}: {reason}\n".encode()})
            return
        on_datasette = scope["path"].startswith(prefix)
        csp = await datasette_policy() if on_datasette else SITE_CSP

        async def send_secured(message):
            if message["type"] == "http.response.start":
                headers = secured(message.get("headers", []), csp)
                if not any(k.lower() == b"cache-control" for k, _ in headers):
                    # the site's file names do not change with their content: ask each time
                    headers.append((b"cache-control", b"no-cache"))
                message = dict(message, headers=headers)
            await send(message)

        await app(scope, receive, send_secured)

    guarded.__wrapped__ = app
    return guarded


def secured(headers, csp: str) -> list[tuple[bytes, bytes]]:
    kind = next((v.lower() for k, v in headers if k.lower() == b"content-type"), b"")
    ours = dict(HEADERS)
    if not kind.startswith(INERT):
        ours[b"content-security-policy"] = csp.encode()
    kept = [
        (k, v if k.lower() != b"location" or _same_site(v) else b"/")
        for k, v in headers
        if k.lower() not in ours and k.lower() != b"content-security-policy"
    ]
    return kept + sorted(ours.items())


def _same_site(location: bytes) -> bool:
    """A redirect to a path of this server: never '//host', '/\\host' or 'scheme:'."""
    head = location.split(b"?")[0]
    return not (head.startswith((b"//", b"/\\")) or b"\\" in head or b":" in head)


_INLINE_SCRIPT = re.compile(rb"<script(?:\s+type=\"module\")?>(.*?)</script>", re.S)


def script_hashes(html: bytes) -> set[str]:
    """The CSP hash of each inline script in a page."""
    return {
        base64.b64encode(hashlib.sha256(body).digest()).decode()
        for body in _INLINE_SCRIPT.findall(html)
    }


async def inline_scripts(datasette) -> set[str]:
    """Hashes of the inline scripts in Datasette's pages, found by rendering one page of each
    kind from the databases themselves, with no request data (the scripts carry settings and
    table names, never anything a visitor sends)."""
    paths = ["/", "/-/search"]
    for name, db in datasette.databases.items():
        if name.startswith("_"):
            continue
        paths += [f"/{name}", f"/{name}?sql=select+1", f"/{name}/-/search"]
        tables = await db.table_names()
        if tables:
            paths.append(f"/{name}/{tables[0]}")
    found: set[str] = set()
    for path in paths:
        response = await datasette.client.get(path)
        if "text/html" in response.headers.get("content-type", ""):
            found |= script_hashes(response.content)
    return found
