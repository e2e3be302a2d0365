"""What the site shows of a game's history, from `charnel.history.views` (the records of
`charnel diff`): the changelog page, each clause permalink's history and notes, the pages of
numbers no current clause has (renumbered or removed), and each card's errata.

A clause that has changed since it was added, or whose number was another clause's before,
has a page of its own at its permalink; any other permalink sends the reader on to the
clause's place in its section, as it always has.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any

from markupsafe import Markup, escape

from charnel.history import views
from charnel.records import CardBase, Clause
from charnel.site.model import SiteModel
from charnel.sources.rules_md import RULE_REF


class HistoryPages:
    def __init__(self, model: SiteModel, html):
        self.model = model
        self.html = html  # authored Markdown -> HTML, references linked
        self.history = views.of(model.records)
        self.urls = model.urls

    # --- clause permalinks -------------------------------------------------------------------

    def _released(self, number: str) -> bool:
        return bool(self.history.releases) and number in self.history.identities

    def clause(self, number: str) -> dict[str, Any]:
        """What a clause's permalink page adds: its history, the notes on its number, and
        whether it is a page of its own (else it sends the reader on)."""
        events = self.history.of_clause(number)
        notes = [self._note(number, n) for n in self.history.notes.get(number, [])]
        return {
            "events": events,
            "notes": notes,
            "unreleased": bool(self.history.releases) and not self._released(number),
            "latest": self.history.latest,
            "own_page": bool(notes) or len(events) > 1,
            # which numbers have pages, for the links in the history
            "releases": self.history.key,
        }

    def _note(self, number: str, note: views.NumberNote) -> dict[str, Any]:
        removed = self.history.clause_events.get(note.identity, [])
        last = next((e.old_text for e in reversed(removed) if "removed" in e.kinds), "")
        return {"number": number, "until": note.until, "until_url": self.urls.release(note.until),
                "now": note.now, "now_url": self.clause_link(note.now) if note.now else None,
                "last": last}

    def old_numbers(self, shared_key: str) -> Iterator[tuple[str, str, dict[str, Any], str]]:
        """(url, template, context, key) of each number no current clause has that a released
        clause had: the clause's current place, or its last text when it was removed."""
        m = self.model
        for number, old in sorted(self.history.old_numbers.items()):
            current = m.records.clause(old.now) if old.now else None
            if old.now and current is None:
                continue  # its number in the latest release is not in the rules being built
            events = self.history.clause_events.get(old.identity, [])
            shown: Clause = current or old.last
            context = {
                "title": f"Rule {number}",
                "number": number,
                "old": old,
                "heading": f"{shown.number} {shown.title}".strip(),
                "shown_title": shown.title,
                "html": self.html(shown.text),
                "now_url": self.clause_link(old.now) if old.now else None,
                "place": m.clause_url(old.now) if old.now else None,
                "until_url": self.urls.release(old.until),
                "events": events,
            }
            key = _digest([shared_key, self.history.key, number, repr(old), repr(events),
                           repr(current)])
            yield self.urls.clause_permalink(number), "old_number.html", context, key

    def link_rules(self, text: str) -> Markup:
        """Plain text with each rule number that has a page linked to it (the filter
        `link_rules` of the templates: reasons, diffs and last texts are plain text)."""
        out, last = [], 0
        for m in RULE_REF.finditer(text):
            href = self.clause_link(m[1])
            if href is None:
                continue
            out += [escape(text[last:m.start(1)]), Markup('<a href="{}">{}</a>').format(href, m[1])]
            last = m.end(1)
        return Markup("").join([*out, escape(text[last:])])

    def clause_link(self, number: str | None) -> str | None:
        """The permalink of a number if the site has a page there: a current clause's, or an
        old number's."""
        if number is None:
            return None
        if self.model.records.clause(number) is not None or number in self.history.old_numbers:
            return self.urls.clause_permalink(number)
        return None

    # --- the changelog ---------------------------------------------------------------------

    def changelog(self, shared_key: str) -> tuple[str, str, dict[str, Any], str]:
        """(url, template, context, key) of the changelog page: every release, newest first."""
        h = self.history
        releases = [
            {"release": r, "log": h.changelog(r.version),
             "counts": self._first_counts(r) if r.previous is None else None}
            for r in reversed(h.releases)
        ]
        m = self.model
        context = {
            "title": "What changed",
            "releases": releases,
            "clause_link": self.clause_link,
            "card_link": lambda slug: self.urls.card(slug) if slug in m.card_by_slug else None,
            "term_link": lambda slug: self.urls.term(slug) if slug in m.term_by_slug else None,
        }
        return self.urls.CHANGES, "changes.html", context, _digest([shared_key, h.key])

    def _first_counts(self, release: views.ReleaseEntry) -> int:
        return sum(1 for e in self.history.clause_log if e.release == release)

    # --- cards -------------------------------------------------------------------------------

    def errata(self, card: CardBase) -> list[dict[str, Any]]:
        """The card's errata, oldest first: each change of its printed text or encoding."""
        events = self.history.card_events.get(card.slug)
        if not events:  # most cards: asked of each card in every build
            return []
        return [
            {"release": e.release, "url": self.urls.release(e.release.version), "change": e.change}
            for e in events
            if e.change.kind == "erratum"
        ]


def _digest(data: Any) -> str:
    return hashlib.sha256(repr(data).encode("utf-8")).hexdigest()[:32]
