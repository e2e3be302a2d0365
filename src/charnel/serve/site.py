"""The static site as an ASGI app: files under build/site/, folders answered by index.html,
sent with validators, caching and compression (`charnel.serve.static`).

The root is looked up on every request, not once: `build/site` leads through `build/current`
to the generation a build made visible last (see `charnel.outputs`), and a rebuild switches
it while the server runs. A URL of the site before it had a folder per game is answered with
a 301 to its place under the game that had those URLs (`unprefixed` in assets/games.json),
rather than with the page at that URL that sends a browser on (the static site's way).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from urllib.parse import quote

from datasette.utils.asgi import asgi_send_html, asgi_send_redirect

from charnel.serve.static import site_files
from charnel.site import urls


def static_site(root: Path, live=None):
    """`live`: pages carry the live-reload script (`charnel.serve.live`)."""
    root = Path(os.path.abspath(root))  # symbolic links are followed per request
    files = site_files(root, live)

    async def app(scope, receive, send):
        if scope["method"] not in ("GET", "HEAD"):
            await asgi_send_html(send, "405: the site is read-only", 405)
            return
        here = root.resolve()  # the generation visible now: one for the whole request
        path = scope["path"]  # decoded once by the server, not again: '%252e' stays '%2e'
        if not _plain(path):
            await _not_found(send, here)
            return
        moved = _moved(here, path)
        if moved is not None:
            await asgi_send_redirect(send, quote(moved), status=301)
            return
        target = (here / path.lstrip("/")).resolve()
        if not target.is_relative_to(here):
            await _not_found(send, here)
            return
        await files(scope, receive, send)

    return app


def _moved(root: Path, path: str) -> str | None:
    """Where an unprefixed URL's page or file is now, if the game that had them has it (the
    site's own home, 404 page, assets and game folders are not moved)."""
    top = path.lstrip("/").split("/", 1)[0]
    if top in ("", "index.html", "404.html", urls.ASSETS.strip("/")):
        return None
    try:
        games = json.loads((root / urls.file_for(urls.GAMES)).read_text("utf-8"))
        owner = next(g for g in games if g.get("unprefixed"))
        folders = {g["home"].strip("/") for g in games}
    except (OSError, ValueError, StopIteration, AttributeError, KeyError, TypeError):
        return None
    home = owner.get("home")
    if not isinstance(home, str) or not home.startswith("/") or top in folders:
        return None
    folder = (root / home.strip("/")).resolve()
    target = (folder / path.lstrip("/")).resolve()
    if not target.is_relative_to(folder) or not (target.is_file() or target.is_dir()):
        return None
    return home.rstrip("/") + path


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
