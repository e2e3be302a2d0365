"""A game's offline copy: a service worker, /<game>/sw.js, that keeps the game's pages, card
faces, scripts, styles and search index in the browser after one visit, and answers from them
when the network does not.

The worker is the template site_templates/site/sw.js after two constants written here: the
files to keep and a version, a hash of those files' bytes (and of the shared assets and the
template). A build that changes any of them changes the worker's bytes; browsers compare the
worker on each visit, install the new copy and drop the old one. The downloads (data/) and
each card's JSON are left out: they are fetched when asked for.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Iterable, Mapping
from pathlib import Path

from charnel.history.releases import VERSION
from charnel.site import cardfile
from charnel.site.urls import ASSETS, GAMES

WORKER = "sw.js"
TEMPLATE = "sw.js"
# the site's own assets a game's pages load
SHARED = ("site.css", "site.js", "fieldsearch.js", "deck.js")
_KEPT = (".html", ".svg", ".js", ".json", ".pagefind", ".pf_meta", ".pf_index", ".pf_filter",
         ".pf_fragment")


@functools.lru_cache(maxsize=1 << 17)  # asked of every file in every build: a regex each
def kept(path: str) -> bool:
    """Whether a file of the game's folder is kept for reading offline."""
    return (
        path.endswith(_KEPT)
        and not path.startswith(("data/", "."))
        and path != WORKER
        and not path.endswith("/" + cardfile.JSON_NAME)
        and not VERSION.fullmatch(path.split("/", 1)[0])  # a past release's pages
    )


def worker(home: str, files: Mapping[str, str], index: Iterable[tuple[str, str]],
           templates: Path) -> str:
    """The worker of the game served at `home` ("/<game>/"): `files` are the game's files
    (path in its folder -> hash of the bytes), `index` the search index's (path, hash), in its
    order. The game's kept files are listed first, sorted, then the index's."""
    index = dict(index)
    paths, listing = _listing(home, files, index)
    template = (templates / TEMPLATE).read_bytes()
    digest = hashlib.sha256(template)
    digest.update("".join([f"{path}\0{files[path]}\n" for path in paths]).encode())
    digest.update("".join([f"{path}\0{content}\n" for path, content in index.items()]).encode())
    for name in SHARED:
        digest.update((templates / name).read_bytes())
    urls = [*listing, *(home + _url(path) for path in index),
            *(ASSETS + name for name in SHARED), GAMES]
    head = (
        "// Written by charnel's build: this version of the game's files and their addresses.\n"
        f"const VERSION = {json.dumps(digest.hexdigest()[:16])};\n"
        f"const GAME = {json.dumps(home)};\n"
        f"const FILES = {_lines(urls)};\n"
    )
    return head + template.decode("utf-8")


# home -> the last worker's game files' paths, those kept in order and their addresses: a
# rebuild in the same process (`charnel serve --watch`) mostly changes bytes, not which files
# there are, and sorts and lists them again only when it does
_listed: dict[str, tuple[set[str], list[str], list[str]]] = {}


def _listing(home: str, files: Mapping[str, str],
             index: Mapping[str, str]) -> tuple[list[str], list[str]]:
    """The game's files kept offline that are not the index's, sorted, and their addresses."""
    last = _listed.get(home)
    if last is not None and files.keys() == last[0]:
        paths = last[1]
    else:
        paths = sorted(filter(kept, files))
        _listed[home] = (set(files), paths, [home + _url(path) for path in paths])
    if index.keys() & paths:  # a file of both: listed once, as the index's
        paths = [p for p in paths if p not in index]
        return paths, [home + _url(path) for path in paths]
    return paths, _listed[home][2]


def _lines(urls: list[str]) -> str:
    """The list as json.dumps(urls, indent=0) writes it, by the C encoder (an indent takes
    the Python one): one string a line."""
    return "[\n" + json.dumps(urls, separators=(",\n", ":"))[1:-1] + "\n]" if urls else "[]"


def _url(path: str) -> str:
    """A file's address under the game's folder: a page by its folder, as links name it."""
    return path[: -len("index.html")] if path.endswith("index.html") else path
