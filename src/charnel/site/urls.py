"""Where each page of the site lives. Every link the site writes comes from here.

The site has one home listing the games (`/`), the shared assets (`/assets/`), and a folder
per game (`/<game>/`) holding that game's pages: `/<game>/cards/<card>/`,
`/<game>/rules/<number>/`. `GameUrls` says where a game's pages are; a game's site is built
into its own folder, so the file a page is written to is its URL without the game's prefix.

Paths are root-relative (the site is served at a root) and end in "/" (a folder with
an index.html), so `python -m http.server` and `charnel serve` both resolve them.
"""

from __future__ import annotations

from charnel.history.releases import VERSION

SITE_HOME = "/"
ASSETS = "/assets/"
GAMES = "/assets/games.json"  # every game's title, home and search bundles


def file_for(url: str) -> str:
    """The file a root-relative URL is written to, relative to the folder it is served from."""
    path = url.split("#", 1)[0].lstrip("/")
    return f"{path}index.html" if not path or path.endswith("/") else path


def checked_version(version: str) -> str:
    """A release's version, as it goes into a URL and a file path: only a version."""
    if not VERSION.fullmatch(version):
        raise ValueError(f"{version[:40]!r} is not a release version")
    return version


def datasette_row(game: str, card_id: str) -> str:
    """The card's row in Datasette, which `charnel serve` mounts under /sql/."""
    return f"/sql/{game}/cards/{card_id}"


class GameUrls:
    """The URLs of one game's pages, under `/<game>/`."""

    def __init__(self, game: str):
        self.game = game
        self.prefix = f"/{game}"
        p = self.prefix
        self.HOME = f"{p}/"
        self.CARDS = f"{p}/cards/"
        self.RULES = f"{p}/rules/"
        self.GLOSSARY = f"{p}/glossary/"
        self.KEYWORDS = f"{p}/keywords/"
        self.RULINGS = f"{p}/rulings/"
        self.DATA = f"{p}/data/"
        self.ABOUT = f"{p}/about/"
        self.SEARCH = f"{p}/search/"
        self.SEARCH_BUNDLES = f"{p}/assets/search.json"
        self.RULE_RULINGS = f"{p}/rules/rulings/"  # the clauses that are charnel's rulings
        self.CHANGES = f"{p}/changes/"  # every release and what it changed
        self.ERRATA = f"{p}/errata/"  # the errata sheets: from each release to the current
        self.DECK = f"{p}/deck/"
        self.JUDGE = f"{p}/judge/"  # `charnel serve` runs its examples at JUDGE + "run"
        self.DECK_POOL = f"{p}/assets/deck-pool.json"
        self.DECK_RULINGS = f"{p}/assets/deck-rulings.json"
        self.SITE_HOME = SITE_HOME
        self.ASSETS = ASSETS
        self.SQL = f"/sql/{game}/"

    def card(self, slug: str) -> str:
        return f"{self.prefix}/cards/{slug}/"

    def card_list(self, facet: str, value: str) -> str:
        """Cards of one set, type or enum value: /<game>/cards/by-clan/ember/."""
        return f"{self.prefix}/cards/by-{facet}/{value}/"

    def section(self, slug: str) -> str:
        return f"{self.prefix}/rules/{slug}/"

    def clause_permalink(self, number: str) -> str:
        return f"{self.prefix}/rules/{number}/"

    def release(self, version: str) -> str:
        """A release's part of the changelog page."""
        return f"{self.CHANGES}#release-{version}"

    def past_rules(self, version: str) -> str:
        """The rules index of release `version`, as it was."""
        return f"{self.prefix}/{checked_version(version)}/rules/"

    def errata(self, version: str) -> str:
        """The errata sheet from release `version` to the current rules."""
        return f"{self.prefix}/errata/{checked_version(version)}/"

    def term(self, slug: str) -> str:
        return f"{self.prefix}/glossary/{slug}/"

    def rulings_page(self, number: int) -> str:
        return self.RULINGS if number == 1 else f"{self.RULINGS}{number}/"

    def data_file(self, name: str) -> str:
        return f"{self.DATA}{name}"

    def bundle(self, name: str) -> str:
        """A search bundle's folder."""
        return f"{self.prefix}/{name}/"

    def datasette_row(self, card_id: str) -> str:
        return datasette_row(self.game, card_id)

    def file_for(self, url: str) -> str:
        """The file a page of this game is written to, relative to the game's folder."""
        if not url.startswith(self.HOME):
            raise ValueError(f"{url} is not a page of {self.game}")
        return file_for(url[len(self.prefix):])

    def unprefixed(self, path: str) -> str:
        """The URL a page had before the site had a folder per game: a game's file path as
        a root-relative URL."""
        return "/" + (path[: -len("index.html")] if path.endswith("index.html") else path)


class ReleaseUrls(GameUrls):
    """The URLs of a past release's pages: its rules (index, sections, clause permalinks,
    rulings) and its cards under `/<game>/<version>/`; every other link goes to the current
    pages. Files stay relative to the game's folder (`1.0/rules/...`)."""

    def __init__(self, game: str, version: str):
        super().__init__(game)
        self.version = checked_version(version)
        self.base = f"{self.prefix}/{version}"
        self.RULES = f"{self.base}/rules/"
        self.RULE_RULINGS = f"{self.base}/rules/rulings/"
        self.CARDS = f"{self.base}/cards/"

    def card(self, slug: str) -> str:
        return f"{self.base}/cards/{slug}/"

    def section(self, slug: str) -> str:
        return f"{self.base}/rules/{slug}/"

    def clause_permalink(self, number: str) -> str:
        return f"{self.base}/rules/{number}/"
