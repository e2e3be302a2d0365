"""The static site as an ASGI app: files under build/site/, folders answered by index.html."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

from datasette.utils.asgi import asgi_send_file, asgi_send_html, asgi_send_redirect


def static_site(root: Path):
    root = root.resolve()

    async def app(scope, receive, send):
        if scope["method"] not in ("GET", "HEAD"):
            await asgi_send_html(send, "405: the site is read-only", 405)
            return
        path = scope["path"]  # decoded once by the server, not again: '%252e' stays '%2e'
        if not _plain(path):
            await _not_found(send, root)
            return
        target = (root / path.lstrip("/")).resolve()
        if not target.is_relative_to(root):
            await _not_found(send, root)
            return
        if target.is_dir():
            if not path.endswith("/"):
                # a plain path (above): the target is on this host, never '//host'
                await asgi_send_redirect(send, quote(path) + "/", status=301)
                return
            target = target / "index.html"
        if target.is_file():
            await asgi_send_file(send, target, chunk_size=65536)
        else:
            await _not_found(send, root)

    return app


def _plain(path: str) -> bool:
    """A path of plain names: no '.', '..', empty or hidden segment (the build's own
    manifests are hidden files) and no backslash; only a trailing '/' is allowed."""
    names = path.split("/")[1:]
    if names and names[-1] == "":
        names.pop()
    return all(
        name and not name.startswith(".") and "\\" not in name and len(name) <= 255
        for name in names
    )


async def _not_found(send, root: Path) -> None:
    page = root / "404.html"
    html = page.read_text(encoding="utf-8") if page.is_file() else "404: not found"
    await asgi_send_html(send, html, 404)
