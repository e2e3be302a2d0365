"""The errata sheets: from each release to the current rules, every changed clause and card,
the functional changes first (`charnel.history.current.sheet`, which the printed sheet reads
too), each linked to its current page (a removed one to its page in the release). Each sheet
names every release, so a reader picks the one their printing is."""

from __future__ import annotations

import functools
import hashlib
from typing import Any

from charnel.history import views
from charnel.history.current import SheetEntry, sheet, sheet_file
from charnel.site.model import SiteModel
from charnel.site.pages import Page, Pages
from charnel.site.releases import Part
from charnel.site.urls import ReleaseUrls


def pages(model: SiteModel, past: list[Part], current: Pages) -> list[Page]:
    urls = model.urls
    shared_key = current.shared_key
    printed = {name for name, _ in model.printed}
    choices = [(p.pages.banners.version, p.pages.banners.date,
                urls.errata(p.pages.banners.version)) for p in past]
    # a sheet's changelog runs the engine over every changed card: a sheet is keyed by what
    # it is made from (the releases, the current sources, the code), and made only to render
    found = []
    # digested only for a sheet to key: a game without releases has none (a pass over the pool)
    sources = (_digest([views.of(model.records).key, _sources(current), choices, sorted(printed)])
               if past else "")
    for part in past:
        version = part.pages.banners.version
        found.append(Page(urls.errata(version), "errata.html",
                          functools.partial(_sheet, current, part, choices, printed),
                          _digest([shared_key, sources, version]), urls.prefix))
    index = {"title": "Errata sheets", "version": None, "entries": [], "choices": choices,
             "functional": 0, "pdf": None, "past_rules": None, "date": "", "now": ""}
    found.append(Page(urls.ERRATA, "errata.html", index,
                      _digest([shared_key, index]), urls.prefix))
    return found


def _sheet(current: Pages, part: Part, choices: list, printed: set[str]) -> dict[str, Any]:
    urls = current.urls
    since = part.pages.banners.since
    version = since.release.version
    log = since.changelog
    then = ReleaseUrls(urls.game, version)
    entries = [_entry(e, current, then) for e in sheet(log)]
    pdf = sheet_file(urls.game, version)  # the printed sheet, when printed
    return {
        "title": f"Errata since release {version}", "version": version,
        "date": part.pages.banners.date, "entries": entries, "choices": choices,
        "functional": sum(1 for e in entries if e["entry"].functional),
        "pdf": urls.data_file(pdf) if pdf in printed else None,
        "past_rules": urls.past_rules(version), "now": log.date,
    }


def _sources(current: Pages) -> list:
    """What a sheet reads of the current sources: every clause, card (by its bytes) and
    example, and the live changes file (the shared key has the glossary and the code)."""
    records = current.model.records
    changes = records.root / "rules" / records.info.id / "changes.yaml"
    return [[(c.number, c.title, c.text) for c in records.clauses],
            [(c.slug, c.source_hash or c.model_dump_json()) for c in records.cards],
            [(e.id, e.owner, e.body) for e in records.examples],  # the engine runs them
            changes.read_bytes() if changes.is_file() else b""]


def _entry(entry: SheetEntry, current: Pages, then: ReleaseUrls) -> dict[str, Any]:
    """The entry with its link (the current page, or the release's for what is gone) and an
    added or removed clause's text as HTML."""
    model = current.model
    urls = model.urls
    if entry.kind == "rule":
        here = model.records.clause(entry.key) is not None
        url = urls.clause_permalink(entry.key) if here else then.clause_permalink(entry.key)
    else:
        here = entry.key in model.card_by_slug
        url = urls.card(entry.key) if here else then.card(entry.key)
    renumbered = entry.kind == "rule" and entry.old_key not in (None, entry.key)
    return {"entry": entry, "url": url,
            # the old number, linked to the clause as the release had it
            "old_url": then.clause_permalink(entry.old_key) if renumbered else None,
            "html": current.linker.html(entry.text) if entry.text else ""}


def _digest(data: Any) -> str:
    return hashlib.sha256(repr(data).encode("utf-8")).hexdigest()[:32]
