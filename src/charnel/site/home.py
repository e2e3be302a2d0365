"""The site's own pages, around the games' folders: the home listing every game, the 404 page,
the shared assets, and a page at each URL the site had before it had a folder per game,
sending the reader to where that page is now.

    build_home(site, games) -> site

Each game's folder is built first (`build_site`); what the home says of a game comes from
the game's site manifest, so a build of one game (`--game`) keeps the others on the home.
"""

from __future__ import annotations

import functools
import hashlib
import json
import shutil
from collections.abc import Iterable
from pathlib import Path

import jinja2
import markupsafe

from charnel.history.releases import VERSION
from charnel.outputs import changed
from charnel.site import urls
from charnel.site.output import MANIFEST, SiteWriter, read_manifest

ROOT = "home"  # the manifest of the site's own files: .charnel-site-home.marshal
ASSETS = ("site.css", "site.js", "fieldsearch.js", "moved.js", "deck.js", "judge.js")


def games_in(site: Path) -> list[dict]:
    """What each game folder's last build said of its game, by game id."""
    return [game for game, _ in _games(site)]


def _games(site: Path) -> list[tuple[dict, dict]]:
    """Each game as `games_in` gives it, with its folder's files as its manifest lists them
    (read once: 10 MB at 10,000 cards)."""
    found = []
    for folder in sorted(p for p in site.iterdir() if p.is_dir()):
        manifest = folder / MANIFEST.format(game=folder.name)
        last = read_manifest(manifest)
        memo, files = last.get("memo", {}), last.get("files")
        game = memo.get("game") if isinstance(memo, dict) else None
        if isinstance(game, dict) and game.get("id") == folder.name:
            found.append((game, files if isinstance(files, dict) else {}))
    return found


def build_home(site: Path, keep: Iterable[str] | None = None) -> Path:
    """Write the site's own files into `site`; with `keep`, first remove the folders of games
    not among them (a build of the whole project: those games are gone)."""
    from charnel.site import _code_hash, templates_dir

    site.mkdir(parents=True, exist_ok=True)
    found = _games(site)
    if keep is not None:
        keep = set(keep)
        for game, _ in found:
            if game["id"] not in keep:
                shutil.rmtree(site / game["id"])
                changed(site / game["id"])
        found = [(g, files) for g, files in found if g["id"] in keep]
    games = [game for game, _ in found]
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(templates_dir()), autoescape=True,
                             trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                             undefined=jinja2.StrictUndefined)
    writer = SiteWriter(site, ROOT)
    try:
        writer.start_checking()
        for name in ASSETS:
            writer.add(f"assets/{name}", (templates_dir() / name).read_bytes())
        listing = [{k: g[k] for k in ("id", "title", "home", "search", "unprefixed")}
                   for g in games]
        writer.add(urls.file_for(urls.GAMES), json.dumps(listing, indent=1) + "\n")
        writer.add(urls.file_for(urls.SITE_HOME),
                   env.get_template("site_home.html").render(title="Games", games=games))
        writer.add("404.html", env.get_template("404.html").render(title="Not found",
                                                                   games=games))
        owner = next(((g, files) for g, files in found if g.get("unprefixed")), None)
        if owner is not None:
            _moved_pages(*owner, {g["id"] for g in games}, env, writer, _code_hash())
        writer.commit()
    finally:
        writer.discard()
    return site


def _moved_pages(owner: dict, files: dict, folders: set[str], env: jinja2.Environment,
                 writer: SiteWriter, code: str) -> None:
    """A page at each unprefixed URL of `owner`'s pages (`files`: its folder's), sending the
    reader on (a meta refresh and a canonical link; `charnel serve` answers those URLs, and the
    game's other files, with a 301 instead). URLs under another game's folder or the assets are
    left to them."""
    # rendered once, each page's target then put where the template put the marker, escaped
    # as autoescape escapes it: rendering the same few lines for every page cost most of this
    marker = "\x00target\x00"
    moved = env.get_template("moved.html").render(target=marker)
    for path, target in _moved(owner["home"], files, frozenset(folders)):
        key = _moved_key(code, target)
        if writer.unchanged(path, key):
            continue
        writer.add(path, moved.replace(marker, str(markupsafe.escape(target))), key)


# what the last build in this process found to move: (home, folders, the owner's files) and
# each moved page with its target. A rebuild (`charnel serve --watch`) mostly changes bytes,
# not which files the owner has, and sorts and sifts them again only when it does
_last_moved: list = [None, []]


def _moved(home: str, files: dict, folders: frozenset[str]) -> list[tuple[str, str]]:
    """Each of the owner's pages that gets a moved page, sorted, with the URL it moves to."""
    last, found = _last_moved
    if last is not None and last[0] == home and last[1] == folders and last[2] == files.keys():
        return found
    found = []
    for path in sorted(files):
        if not path.endswith("/index.html"):  # most files: asked first
            continue
        top = path.split("/", 1)[0]
        if top in folders or top == "assets" or VERSION.fullmatch(top):
            # the game's home is the site's home's first link, not a moved page; a past
            # release's pages came after the folder per game
            continue
        found.append((path, home + path[: -len("index.html")]))
    _last_moved[:] = [(home, folders, set(files)), found]
    return found


@functools.lru_cache(maxsize=1 << 17)  # every page of the owner's, in every build
def _moved_key(code: str, target: str) -> str:
    return hashlib.sha256(f"{code}\0{target}".encode()).hexdigest()[:32]
