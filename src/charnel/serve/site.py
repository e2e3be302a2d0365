"""The static site as an ASGI app: files under build/site/, folders answered by index.html."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote

from datasette.utils.asgi import asgi_send_file, asgi_send_html, asgi_send_redirect


def static_site(root: Path):
    root = root.resolve()

    async def app(scope, receive, send):
        if scope["method"] not in ("GET", "HEAD"):
            await asgi_send_html(send, "405: the site is read-only", 405)
            return
        path = unquote(scope["path"])
        target = (root / path.lstrip("/")).resolve()
        if not target.is_relative_to(root):
            await _not_found(send, root)
            return
        if target.is_dir():
            if not path.endswith("/"):
                await asgi_send_redirect(send, path + "/", status=301)
                return
            target = target / "index.html"
        if target.is_file():
            await asgi_send_file(send, target, chunk_size=65536)
        else:
            await _not_found(send, root)

    return app


async def _not_found(send, root: Path) -> None:
    page = root / "404.html"
    html = page.read_text(encoding="utf-8") if page.is_file() else "404: not found"
    await asgi_send_html(send, html, 404)
