"""A release against the current sources: where each of its clauses and cards is now, and
everything that changed since it (an errata sheet's contents).

The current sources are one more step after the latest release, joined to it by the live
changes file's renumberings, so a clause renumbered since the latest release is followed to
its new number, as `charnel release` will freeze it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from charnel.diagnostics import Problems
from charnel.history import changes as changes_file
from charnel.history import diff as diffs
from charnel.history import errata
from charnel.history.book import History
from charnel.history.identity import Lineage, Step, thread
from charnel.history.releases import Release
from charnel.records import Clause, GameRecords

CURRENT = "current"  # the version name of the current sources in a lineage


@dataclass(frozen=True)
class Now:
    """Where a clause or card of a release is in the current sources."""

    number: str | None  # a clause's current number (a card's slug); None: not there now
    changed: bool  # its text (a card's wording or encoding) differs now
    removed_in: str | None = None  # the release that removed it; None: not a release


class Since:
    """Release `version` of a game against the current sources `records`."""

    def __init__(self, history: History, records: GameRecords, version: str):
        self.history = history
        self.records = records
        self.release: Release = history.release(version)  # type: ignore[assignment]
        assert self.release is not None, version
        self.past = history.records[version]

    @cached_property
    def current(self) -> Release:
        game = self.records.info.id
        live = changes_file.read(
            self.records.root / "rules" / game, f"rules/{game}/{changes_file.FILE}", Problems()
        )
        return Release(game, CURRENT, self.records.info.rules_date, self.records.root, live)

    @cached_property
    def lineage(self) -> Lineage:
        """Every release and then the current sources; a live renumbering that does not fit is
        left out here (`charnel release` says what is wrong with it)."""
        steps = [Step(r.version, [c.number for c in self.history.records[r.version].clauses],
                      r.changes) for r in self.history.releases]
        steps.append(Step(CURRENT, [c.number for c in self.records.clauses],
                          self.current.changes))
        return thread(steps, Problems())

    def clause(self, number: str) -> Now:
        lineage = self.lineage
        identity = lineage.identity(self.release.version, number)
        now = lineage.current(identity, CURRENT) if identity else None
        if now is None:
            return Now(None, True, self._removed_in(identity))
        old, new = self.past.clause(number), self.records.clause(now)
        return Now(now, _text(old) != _text(new))

    def _removed_in(self, identity: str | None) -> str | None:
        later = [r.version for r in self.history.releases if r.key > self.release.key]
        return next((v for v in later if self.lineage.current(identity, v) is None), None) \
            if identity else None

    def card(self, slug: str) -> Now:
        old, new = self._past_cards.get(slug), self._cards.get(slug)
        if new is None or old is None:
            return Now(None, True)
        if old.source_hash and old.source_hash == new.source_hash:  # the same bytes
            return Now(slug, False)
        return Now(slug, errata.split(old) != errata.split(new))

    @cached_property
    def _cards(self) -> dict:
        return {c.slug: c for c in self.records.cards}

    @cached_property
    def _past_cards(self) -> dict:
        return {c.slug: c for c in self.past.cards}

    @cached_property
    def changelog(self) -> diffs.Changelog:
        """Everything that changed from the release to the current sources."""
        reasons = [r for r in self.history.releases if r.key > self.release.key]
        return diffs.changelog(self.release, self.current, self.past, self.records,
                               self.lineage, [*reasons, self.current])


_made: dict[tuple[int, str, str], tuple[GameRecords, Since]] = {}


def since(history: History, records: GameRecords, version: str) -> Since:
    """`Since(history, records, version)`, made once for the same records in a process: the
    site and the printed sheets of one build share it (its changelog runs the engine)."""
    key = (id(records), version, history.game)
    found = _made.get(key)
    if found is not None and found[0] is records and found[1].history is history:
        return found[1]
    if len(_made) > 32:
        _made.clear()
    made = Since(history, records, version)
    _made[key] = (records, made)
    return made


def _text(clause: Clause | None) -> str:
    return f"{clause.title}\n{clause.text}".strip() if clause else ""


@dataclass(frozen=True)
class SheetEntry:
    """One line of an errata sheet: a clause or a card changed since the release."""

    kind: str  # "rule" or "card"
    key: str  # the clause's current number (its old one when removed); the card's slug
    old_key: str | None  # the clause's number in the release; the card's slug; None: added
    label: str  # "Rule 14.13d", "The Sunken Bell"
    change: str  # what happened, in words: "added", "renumbered from 14.13c", ...
    functional: bool
    reason: str
    diffs: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()  # (field, word runs)
    text: str = ""  # an added clause's text, a removed one's last
    encoded: tuple[str, ...] = ()


def sheet_file(game: str, version: str) -> str:
    """The file name of the printed errata sheet from release `version`."""
    return f"{game}-errata-{version}.pdf"


def functional_clause(change: diffs.ClauseChange) -> bool:
    """A rule added, removed or reworded changes how the game is played; a renumbering alone
    does not. (The engine tells a card's errata apart; a clause's words it cannot, so every
    change of them counts.)"""
    return change.kinds != ["renumbered"]


def functional_card(change: diffs.CardChange) -> bool:
    """A card added or removed changes the pool; an erratum is functional when the engine's
    results for the card changed (`diff.CardChange.functional`)."""
    return change.kind != "erratum" or change.functional


def sheet(log: diffs.Changelog) -> list[SheetEntry]:
    """Every changed clause and card of a changelog: the functional changes first, then the
    others; rules before cards within each, in the changelog's order."""
    entries = [_clause_entry(c) for c in log.clauses] + [_card_entry(c) for c in log.cards]
    return [e for e in entries if e.functional] + [e for e in entries if not e.functional]


def _clause_entry(c: diffs.ClauseChange) -> SheetEntry:
    number = c.new_number or c.old_number or ""
    if c.old_number is None:
        what = "added"
    elif c.new_number is None:
        what = "removed"
    else:
        what = ", ".join(
            ([f"renumbered from {c.old_number}"] if c.old_number != c.new_number else [])
            + (["changed"] if c.words else [])
        )
    runs = (("", tuple(c.words)),) if c.words else ()
    return SheetEntry("rule", number, c.old_number, f"Rule {number}", what,
                      functional_clause(c), c.reason, runs, c.text)


def _card_entry(c: diffs.CardChange) -> SheetEntry:
    what = c.kind if c.kind != "erratum" else (
        "functional erratum" if c.functional else
        "erratum, not functional (every result the same)" if c.encoding else
        "wording erratum, not functional")
    runs = tuple((where, tuple(r)) for where, r in c.wording.items())
    return SheetEntry("card", c.slug, None if c.kind == "added" else c.slug, c.name, what,
                      functional_card(c), c.reason, runs, "", tuple(c.encoded))
