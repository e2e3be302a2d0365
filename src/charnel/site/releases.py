"""Every release readable as it was: `/<game>/<version>/rules/...` (the rules index, the
sections, each clause's permalink, the rulings in the rules) and `/<game>/<version>/cards/...`
(the card list and each card's page), made by the current site's pages and templates from the
release's own records, each with a banner that links the same clause or card in the current
text or says where it went.

A release's pages show its examples as written, not run: the engine that would run them is
today's. They are not in the search index (search answers with the current text) and not kept
for reading offline.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import jinja2

from charnel.diagnostics import Problems
from charnel.history import views
from charnel.history.current import Since, since
from charnel.site.model import SiteModel
from charnel.site.pages import Page, Pages, Rows
from charnel.site.urls import GameUrls, ReleaseUrls
from charnel.verify import Verified
from charnel.verify.keyword_text import check as card_text


@dataclass
class Part:
    """One site's model, pages and templates: the current one's or a release's."""

    model: SiteModel
    pages: Pages
    env: jinja2.Environment


def rows_memo(version: str) -> str:
    """The name a release's card-list rows are remembered by between builds."""
    return f"rows {version}"


def parts(current: SiteModel, code_hash: str, environment, previous: dict) -> list[Part]:
    """The parts of the site that are past releases, oldest first; none for a game with no
    release. `environment(model)` makes a model's templates (the current site's function);
    `previous` is what the last build remembered (each release's card-list rows)."""
    history = views.of(current.records)
    if history.source is None:
        return []
    found = []
    for release in history.releases:
        made = since(history.source, current.records, release.version)
        records = made.past
        model = SiteModel(Verified(records, card_text(records, Problems())), [])
        model.urls = ReleaseUrls(records.info.id, release.version)
        # the game's own pages (its nav) are the current site's: a release has no copies
        model.__dict__["game_pages"] = current.game_pages
        env = environment(model)
        pages = ReleasePages(model, code_hash, env, Banners(made, release.date, current),
                             previous.get(rows_memo(release.version)))
        found.append(Part(model, pages, env))
    return found


class Banners:
    """What each page of a release says above its text: which release it is, and where the
    same clause or card is in the current text."""

    def __init__(self, since: Since, date: str, current: SiteModel):
        self.since = since
        self.version = since.release.version
        self.date = date
        self.urls: GameUrls = current.urls
        self.current = current
        self._cards: dict[str, dict[str, Any]] = {}  # a card's key and page both ask

    def _banner(self, url: str | None, note: str, now: str | None = None) -> dict[str, Any]:
        # `now`: the clause's number today when it differs, shown as a link to it
        return {"version": self.version, "date": self.date, "url": url, "note": note, "now": now,
                "errata": self.urls.errata(self.version),
                "changes": self.urls.CHANGES}

    def clause(self, number: str) -> dict[str, Any]:
        now = self.since.clause(number)
        if now.number is None:
            where = (f"this rule was removed in release {now.removed_in}" if now.removed_in
                     else "this rule is not in the current rules")
            return self._banner(None, where)
        note = "changed since" if now.changed else "unchanged since"
        return self._banner(self.urls.clause_permalink(now.number), note,
                            now.number if now.number != number else None)

    def card(self, slug: str) -> dict[str, Any]:
        found = self._cards.get(slug)
        if found is None:
            found = self._cards[slug] = self._card(slug)
        return found

    def _card(self, slug: str) -> dict[str, Any]:
        now = self.since.card(slug)
        if now.number is None:
            return self._banner(None, "this card is not in the current pool")
        return self._banner(self.urls.card(slug),
                            "changed since" if now.changed else "unchanged since")

    def section(self, slug: str) -> dict[str, Any]:
        here = any(s.slug == slug for s in self.current.sections)
        return self._banner(self.urls.section(slug) if here else self.urls.RULES, "")

    def index(self, url: str) -> dict[str, Any]:
        return self._banner(url, "")


class ReleasePages(Pages):
    """The current site's pages over a release's records, each with its banner (in its key)."""

    def __init__(self, model: SiteModel, code_hash: str, env: jinja2.Environment,
                 banners: Banners, rows: dict | None = None):
        super().__init__(model, code_hash, env, rows)
        self.banners = banners
        urls = model.urls
        self.by_url = {urls.RULES: lambda: banners.index(banners.urls.RULES),
                       urls.RULE_RULINGS: lambda: banners.index(banners.urls.RULE_RULINGS)}
        for section in model.sections:
            self.by_url[urls.section(section.slug)] = lambda s=section.slug: banners.section(s)
        for clause in model.records.clauses:
            self.by_url[urls.clause_permalink(clause.number)] = (
                lambda n=clause.number: banners.clause(n))

    def card_key(self, card) -> str:
        return _digest([super().card_key(card), self.banners.card(card.slug)])

    def card(self, card) -> Page:
        return _with(super().card(card), self.banners.card(card.slug))

    def rules(self):
        """The release's rules pages; a clause's permalink is a page of its own (its banner
        is about that clause), never sent on to its section."""
        for page in super().rules():
            banner = self.by_url.get(page.url)
            if banner is not None:
                yield _with(page, banner(), own=page.template == "clause.html")

    def card_list(self) -> Page:
        m = self.model
        page = self._card_list(self.urls.CARDS, "Cards", Rows(self, m.cards),
                               f"All {len(m.cards)} cards of this release.",
                               None)
        return _with(page, self.banners.index(self.banners.urls.CARDS))


def _with(page: Page, banner: dict[str, Any], own: bool = False) -> Page:
    extra = {"past": banner, **({"own_page": True} if own else {})}
    return Page(page.url, page.template, lambda: {**page.values(), **extra},
                _digest([page.key, banner, own]) if page.key else None, page.prefix)


def _digest(data: Any) -> str:
    return hashlib.sha256(repr(data).encode("utf-8")).hexdigest()[:32]
