"""The printed errata sheets, one per release: every clause and card changed from it to the
current rules, the functional changes first, from `charnel.history.current.sheet` as the site's
errata pages. The sheet opens with a list of the changes, each linked to its entry; each entry
names its page on the site."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from charnel import markdown
from charnel.history import views
from charnel.history.current import sheet, sheet_file, since
from charnel.printing.documents import resolver
from charnel.records import GameRecords
from charnel.site.urls import GameUrls, ReleaseUrls


def sheets(records: GameRecords) -> list[tuple[str, dict[str, Any]]]:
    """(file name, template context) of each release's sheet, oldest release first."""
    history = views.of(records)
    if history.source is None:
        return []
    game = records.info.id
    urls = GameUrls(game)
    resolve = resolver(records)
    found = []
    for release in history.releases:
        log = since(history.source, records, release.version).changelog
        then = ReleaseUrls(game, release.version)
        entries = []
        for n, entry in enumerate(sheet(log), start=1):
            if entry.kind == "rule":
                here = records.clause(entry.key) is not None
                path = (urls if here else then).clause_permalink(entry.key)
            else:
                here = any(c.slug == entry.key for c in records.cards)
                path = (urls if here else then).card(entry.key)
            entries.append({"entry": entry, "id": f"e-{n}", "path": path,
                            "html": Markup(markdown.render(entry.text, resolve))
                            if entry.text else ""})
        found.append((sheet_file(game, release.version), {
            "info": records.info, "since": release.version, "since_date": release.date,
            "now": log.date, "entries": entries,
            "functional": sum(1 for e in entries if e["entry"].functional),
        }))
    return found
