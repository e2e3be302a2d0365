"""The static site's files as a reader's browser should get them: Starlette's StaticFiles
(validators, 304s, index.html for folders, the site's 404 page) under compression.

Caching follows what a file's name promises. Pagefind names its word index, filter,
fragment and metadata files by a hash of their bytes, so a name never shows other bytes:
those are cached for a year, `immutable`. Everything else (pages, the site's own assets,
Pagefind's entry file and code) may change with the next build: cached briefly, then
revalidated with its ETag or Last-Modified, which costs a 304 and no body.

Responses are compressed with brotli when the browser accepts it, else gzip, through
Starlette's compression responder. Pagefind's files are gzip streams already (the browser
unpacks them itself) and are sent as they are.
"""

from __future__ import annotations

import mimetypes
import os
import re
from urllib.parse import urlsplit, urlunsplit

import brotli
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.middleware import Middleware
from starlette.middleware.gzip import (
    DEFAULT_EXCLUDED_CONTENT_TYPES,
    GZipResponder,
    IdentityResponder,
)
from starlette.responses import FileResponse, RedirectResponse, Response
from starlette.routing import Mount
from starlette.staticfiles import NotModifiedResponse, StaticFiles

IMMUTABLE = "public, max-age=31536000, immutable"
SHORT = "public, max-age=60, must-revalidate"
# A bundle's content-hashed files: /<bundle>/{index,filter,fragment}/<hash>.pf_* and
# /<bundle>/pagefind.<hash>.pf_meta (the entry file, pagefind.js and the wasm are not).
_HASHED = re.compile(
    r"/pagefind[^/]*/(?:(?:index|filter|fragment)/[^/]+\.pf_\w+|pagefind\.[^/]+\.pf_meta)$"
)
# Pagefind's own formats (gzip streams) and its WebAssembly (gzip too): bytes to pass on.
_PACKED = re.compile(r"\.(?:pf_\w+|pagefind)$")
PACKED_TYPE = "application/octet-stream"
_SKIP = (*DEFAULT_EXCLUDED_CONTENT_TYPES, PACKED_TYPE)
MINIMUM_SIZE = 500  # below this a compressed body saves less than its headers cost


def cache_control(path: str) -> str:
    return IMMUTABLE if _HASHED.search(path) else SHORT


class SiteFiles(StaticFiles):
    """StaticFiles that says how long a file may be cached, and what Pagefind's files are.
    With `live` (`charnel serve --watch`), each page carries the live-reload script, and
    files not named by their content are revalidated on every use: a save may change them."""

    def __init__(self, *, live=None, **options):
        super().__init__(**options)
        self.live = live

    async def get_response(self, path: str, scope) -> Response:
        if self.live is not None and self.live.withheld(path):
            return Response("404: not served while watching", 404, media_type="text/plain")
        if self.live is not None:
            found = self.live.previewed(path, scope["path"].endswith("/"))
            if found is not None:
                return self._preview(*found)
        response = await super().get_response(path, scope)
        if (self.live is not None and isinstance(response, FileResponse)
                and response.status_code == 404):  # the site's 404 page, sent by Starlette
            return self._live_page(response.path, scope, response.status_code)
        if isinstance(response, RedirectResponse):
            # A folder asked for without its slash: a permanent move, named without the host,
            # which a proxy in front may have changed.
            moved = urlsplit(response.headers["location"])
            return RedirectResponse(urlunsplit(("", "", moved.path, moved.query, "")), 301)
        return response

    def file_response(self, full_path, stat_result: os.stat_result, scope, status_code=200):
        path = os.fspath(full_path)
        if self.live is not None and path.endswith(".html"):
            return self._live_page(path, scope, status_code)
        media_type = PACKED_TYPE if _PACKED.search(path) else None
        response = FileResponse(
            full_path, status_code=status_code, stat_result=stat_result, media_type=media_type
        )
        if media_type is None and response.media_type is None:
            response.media_type = mimetypes.guess_type(path)[0] or "text/plain"
        # Before the 304 check: a 304 repeats the Cache-Control of the file it stands for.
        control = cache_control(scope["path"])
        if self.live is not None and control == SHORT:  # the next save may change it
            control = "no-cache"
        response.headers["cache-control"] = control
        if status_code == 200 and self.is_not_modified(response.headers, Headers(scope=scope)):
            return NotModifiedResponse(response.headers)
        return response


    def _preview(self, rel: str, body: bytes) -> Response:
        """A file of the build under way (`charnel.serve.live`), not yet on disk."""
        if rel.endswith(".html"):
            body, media_type = self.live.tag(body, rel), "text/html"
        else:
            media_type = mimetypes.guess_type(rel)[0] or "text/plain"
        return Response(body, 200, {"cache-control": "no-store"}, media_type)

    def _live_page(self, path: str, scope, status_code: int) -> Response:
        """The page as it is on disk now, with the live-reload script: never kept by the
        browser, since the next build may change it."""
        with open(path, "rb") as fh:
            body = fh.read()
        rel = os.path.relpath(os.path.realpath(path), os.path.realpath(self.directory))
        body = self.live.tag(body, rel.replace(os.sep, "/"))
        return Response(body, status_code, {"cache-control": "no-store"}, "text/html")


class BrotliResponder(IdentityResponder):
    """Starlette's responder (size floor, skipped types, Vary, streaming) compressing with
    brotli. Quality 5: most of brotli's gain over gzip at about gzip's speed."""

    content_encoding = "br"

    def __init__(self, app, minimum_size: int, *, exclude_content_types=_SKIP):
        super().__init__(app, minimum_size, exclude_content_types=exclude_content_types)
        self.compressor = brotli.Compressor(mode=brotli.MODE_TEXT, quality=5)

    async def apply_compression(self, body: bytes, *, more_body: bool) -> bytes:
        out = self.compressor.process(body)
        return out + (self.compressor.flush() if more_body else self.compressor.finish())


class Compression:
    """brotli when the request accepts it, else gzip, else the bytes as they are."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        accepted = _codings(Headers(scope=scope).get("accept-encoding", ""))
        if "br" in accepted:
            responder = BrotliResponder(self.app, MINIMUM_SIZE)
        elif "gzip" in accepted:
            responder = GZipResponder(
                self.app, MINIMUM_SIZE, compresslevel=6, exclude_content_types=_SKIP
            )
        else:
            responder = IdentityResponder(self.app, MINIMUM_SIZE, exclude_content_types=_SKIP)
        await responder(scope, receive, send)


def _codings(header: str) -> set[str]:
    """The content codings an Accept-Encoding header accepts (`;q=0` refuses one)."""
    accepted = set()
    for part in header.lower().split(","):
        name, _, params = part.partition(";")
        try:
            weight = float(params.strip().removeprefix("q=")) if params.strip() else 1.0
        except ValueError:
            weight = 1.0
        if name.strip() and weight > 0:
            accepted.add(name.strip())
    return accepted


def site_files(root, live=None) -> Starlette:
    """The ASGI app serving the site folder `root` (looked up on every request, so a
    rebuilt site that replaced the folder is served at once); `live`: see `SiteFiles`."""
    files = SiteFiles(directory=root, html=True, check_dir=False, live=live)
    return Starlette(routes=[Mount("/", app=files)], middleware=[Middleware(Compression)])
