"""The rows of the history tables of a game database (`charnel.history.tables`), one function
per table, made from `history.views` (the records the site, the booklet and `charnel diff` show).
"""

from __future__ import annotations

from typing import Any

from charnel.history import views
from charnel.history.words import inline


def releases(source) -> list[dict[str, Any]]:
    history = views.of(source.records)
    out = []
    for position, release in enumerate(history.releases):
        log = history.changelog(release.version)
        out.append({
            "version": release.version, "date": release.date, "previous": release.previous,
            "position": position,
            "clauses_changed": len(log.clauses) if log else 0,
            "terms_changed": len(log.terms) if log else 0,
            "cards_changed": len(log.cards) if log else 0,
        })
    return out


def clause_history(source) -> list[dict[str, Any]]:
    history = views.of(source.records)
    return [
        {
            "id": n, "identity": e.identity, "release": e.release.version,
            "kind": ", ".join(e.kinds),
            "number": history.number_of(e.identity),
            "old_number": e.old_number, "new_number": e.new_number, "title": e.title,
            "old_text": e.old_text, "new_text": e.new_text,
            "diff": inline(e.words) if e.words else "", "reason": e.reason,
        }
        for n, e in enumerate(history.clause_log, start=1)
    ]


def card_errata(source) -> list[dict[str, Any]]:
    history = views.of(source.records)
    order = {r.version: i for i, r in enumerate(history.releases)}
    cards = sorted(
        (e for evs in history.card_events.values() for e in evs),
        key=lambda e: (order[e.release.version], e.slug),
    )
    return [
        {
            "id": n, "card_id": e.slug, "name": e.name, "release": e.release.version,
            "date": e.release.date, "kind": e.change.kind, "wording": bool(e.change.wording),
            "encoding": e.change.encoding, "functional": e.change.functional,
            "diff": "\n".join(f"{f}: {inline(r)}" for f, r in e.change.wording.items()),
            "encoding_diff": "\n".join(e.change.encoded), "reason": e.change.reason,
        }
        for n, e in enumerate(cards, start=1)
    ]


def term_history(source) -> list[dict[str, Any]]:
    history = views.of(source.records)
    order = {r.version: i for i, r in enumerate(history.releases)}
    terms = sorted(
        ((release, change) for changes in history.term_events.values()
         for release, change in changes),
        key=lambda rc: (order[rc[0].version], rc[1].slug),
    )
    return [
        {
            "id": n, "term_id": change.slug, "term": change.term, "release": release.version,
            "kind": change.kind, "diff": inline(change.words) if change.words else "",
            "keyword": change.keyword, "rules": change.rules, "reason": change.reason,
        }
        for n, (release, change) in enumerate(terms, start=1)
    ]


# name, rows (from a `charnel.rows.Source`): after every other table, in this order
MADE = {
    "releases": releases,
    "clause_history": clause_history,
    "card_errata": card_errata,
    "term_history": term_history,
}
