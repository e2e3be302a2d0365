"""Where each page of the site lives. Every link the site writes comes from here.

Paths are root-relative (the site is served at a root) and end in "/" (a folder with
an index.html), so `python -m http.server` and `charnel serve` both resolve them.
"""

from __future__ import annotations

HOME = "/"
CARDS = "/cards/"
RULES = "/rules/"
GLOSSARY = "/glossary/"
KEYWORDS = "/keywords/"
RULINGS = "/rulings/"
DATA = "/data/"
ABOUT = "/about/"
SEARCH = "/search/"
ASSETS = "/assets/"
CHANGES = "/changes/"  # every release and what it changed
DECK = "/deck/"
DECK_POOL = "/assets/deck-pool.json"


def card(slug: str) -> str:
    return f"/cards/{slug}/"


def card_list(facet: str, value: str) -> str:
    """Cards of one set, type or enum value: /cards/by-doom/greed/."""
    return f"/cards/by-{facet}/{value}/"


def section(slug: str) -> str:
    return f"/rules/{slug}/"


def clause_permalink(number: str) -> str:
    return f"/rules/{number}/"


def release(version: str) -> str:
    """A release's part of the changelog page."""
    return f"{CHANGES}#release-{version}"


def term(slug: str) -> str:
    return f"/glossary/{slug}/"


def rulings_page(number: int) -> str:
    return RULINGS if number == 1 else f"{RULINGS}{number}/"


def datasette(game: str) -> str:
    """The game's database in Datasette."""
    return f"/sql/{game}"


def datasette_row(game: str, card_id: str) -> str:
    """The card's row in Datasette, which `charnel serve` mounts under /sql/."""
    return f"/sql/{game}/cards/{card_id}"


def file_for(url: str) -> str:
    """The file a URL is written to, relative to the site root."""
    path = url.split("#", 1)[0].lstrip("/")
    return f"{path}index.html" if not path or path.endswith("/") else path
