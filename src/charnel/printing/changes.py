"""The booklet's "What changed since <previous release>": the changelog of the release the
rules are (their `rules_version`) against the one before it, from `charnel.history.views`,
the records `charnel diff` and the site show. None for a first release, for rules that are
not a release yet, and for a game with no releases: there is nothing to say "since"."""

from __future__ import annotations

from typing import Any

from charnel.history import views
from charnel.records import GameRecords


def what_changed(records: GameRecords) -> dict[str, Any] | None:
    history = views.of(records)
    log = history.changelog(records.info.rules_version)
    if log is None:
        return None
    previous = history.release(log.old)
    present = {c.number for c in records.clauses}
    return {
        "log": log,
        "since": log.old,
        "since_date": previous.date if previous else "",
        # a number is linked to its clause in the booklet when the booklet has it
        "in_booklet": present,
    }
