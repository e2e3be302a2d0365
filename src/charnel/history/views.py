"""A game's history as the outputs show it: what the site's changelog, clause and card pages,
the database's history tables and the booklet's "what changed" section are made from.

Everything here comes from one `book.read` (the loader over each release) and the changelogs
of `charnel diff` (each release against the one before it), so the outputs and the command
line cannot disagree. `of(records)` reads a game's history once per process for a given
state of `releases/<game>/`: compile, print and the site share that one read.

The live sources are shown as the latest release: a clause number of the live rules has the
identity its number has in the latest release (a clause not in any release yet has none).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from charnel.diagnostics import Problems
from charnel.history import book
from charnel.history.diff import CardChange, Changelog, ClauseChange, TermChange
from charnel.history.releases import folder
from charnel.records import Clause, GameRecords
from charnel.sources.files import release_files


@dataclass(frozen=True)
class ReleaseEntry:
    version: str
    date: str
    previous: str | None  # the release before it; None for the first


@dataclass
class ClauseEvent:
    """What one release did to one clause."""

    identity: str
    release: ReleaseEntry
    kinds: list[str]  # added, removed, renumbered, changed
    old_number: str | None
    new_number: str | None
    title: str
    old_text: str  # the title and text before ("" when added)
    new_text: str  # after ("" when removed)
    words: list[tuple[str, str]]  # the word-level diff; empty when the text is the same
    reason: str


@dataclass
class CardEvent:
    """What one release did to one card: added, removed, or an erratum."""

    slug: str
    name: str
    release: ReleaseEntry
    change: CardChange


@dataclass(frozen=True)
class NumberNote:
    """Another clause that had this number: until `until`, the number was the clause that is
    now at `now` (None: removed in `until`)."""

    identity: str
    until: str
    now: str | None


@dataclass
class OldNumber:
    """A number no clause of the current rules has, that a clause of a release had."""

    number: str
    identity: str
    until: str  # the release in which the number stopped being this clause's
    now: str | None  # the clause's current number; None: removed
    last: Clause  # the clause as the last release that had it under this number had it
    last_release: str


@dataclass
class GameHistory:
    game: str
    releases: list[ReleaseEntry] = field(default_factory=list)  # oldest first
    changelogs: list[Changelog] = field(default_factory=list)  # newest first
    clause_events: dict[str, list[ClauseEvent]] = field(default_factory=dict)  # oldest first
    clause_log: list[ClauseEvent] = field(default_factory=list)  # by release, in rules order
    card_events: dict[str, list[CardEvent]] = field(default_factory=dict)
    term_events: dict[str, list[tuple[ReleaseEntry, TermChange]]] = field(default_factory=dict)
    identities: dict[str, str] = field(default_factory=dict)  # latest number -> identity
    notes: dict[str, list[NumberNote]] = field(default_factory=dict)  # latest number -> notes
    old_numbers: dict[str, OldNumber] = field(default_factory=dict)
    key: str = ""  # a hash of the releases' files (names and bytes): equal keys, equal history
    # every release's records and the clause lineage, for the pages of past releases
    source: book.History | None = field(default=None, repr=False, compare=False)

    @property
    def latest(self) -> ReleaseEntry | None:
        return self.releases[-1] if self.releases else None

    def release(self, version: str) -> ReleaseEntry | None:
        return next((r for r in self.releases if r.version == version), None)

    def changelog(self, version: str) -> Changelog | None:
        """What `version` changed since the release before it."""
        return next((c for c in self.changelogs if c.new == version), None)

    def number_of(self, identity: str) -> str | None:
        """The identity's number in the latest release; None when it is not there."""
        found = self.__dict__.get("_numbers")
        if found is None:
            found = self.__dict__["_numbers"] = {i: n for n, i in self.identities.items()}
        return found.get(identity)

    def of_clause(self, number: str) -> list[ClauseEvent]:
        identity = self.identities.get(number)
        return self.clause_events.get(identity, []) if identity else []


def of(records: GameRecords) -> GameHistory:
    """The history of the game `records` is, read once per state of its releases folder. A
    broken release gives an empty history here: `read` (which `charnel build` calls) says
    what is wrong."""
    found = read(records.root, records.info.id, Problems())
    return found if found is not None else GameHistory(records.info.id)


_read: dict[tuple[str, str, str], GameHistory | None] = {}


def read(root: Path, game_id: str, problems: Problems) -> GameHistory | None:
    """The game's history; None (with located problems) when a release is broken."""
    key = _files_key(root, game_id)
    cache_key = (str(root.resolve()), game_id, key)
    if cache_key in _read and _read[cache_key] is not None:
        return _read[cache_key]
    history = book.read(root, game_id, problems)
    shown = None if history is None else _shown(history, _content_key(root, game_id))
    _read[cache_key] = shown
    return shown


def _content_key(root: Path, game_id: str) -> str:
    """A hash of the releases' files, by name and bytes: what the pages made from the history
    are keyed by, the same in any copy of the project."""
    digest = hashlib.sha256(game_id.encode())
    base = folder(root, game_id)
    for path in release_files(root, game_id):
        digest.update(path.relative_to(base).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:32]


def _files_key(root: Path, game_id: str) -> str:
    """Names, sizes and times of every file of the game's releases: cheap, and it changes
    when a release is cut or edited."""
    digest = hashlib.sha256(game_id.encode())
    base = folder(root, game_id)
    for path in release_files(root, game_id):
        st = path.stat()
        digest.update(f"{path.relative_to(base)}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:32]


def _shown(history: book.History, key: str) -> GameHistory:
    shown = GameHistory(history.game, key=key, source=history)
    previous: str | None = None
    for release in history.releases:
        shown.releases.append(ReleaseEntry(release.version, release.date, previous))
        previous = release.version
    if not shown.releases:
        return shown
    first = shown.releases[0]
    entry = {r.version: r for r in shown.releases}
    for clause in history.records[first.version].clauses:
        identity = history.lineage.identity(first.version, clause.number)
        event = ClauseEvent(identity, first, ["added"], None, clause.number, clause.title, "",
                            _text(clause), [], "")
        shown.clause_events.setdefault(identity, []).append(event)
        shown.clause_log.append(event)
    shown.changelogs = history.changelogs()
    for log in reversed(shown.changelogs):  # oldest first
        release = entry[log.new]
        before, after = history.records[log.old], history.records[log.new]
        for change in log.clauses:
            event = _clause_event(change, release, before, after)
            shown.clause_events.setdefault(change.identity, []).append(event)
            shown.clause_log.append(event)
        for card in log.cards:
            shown.card_events.setdefault(card.slug, []).append(
                CardEvent(card.slug, card.name, release, card))
        for term in log.terms:
            shown.term_events.setdefault(term.slug, []).append((release, term))
    latest = shown.releases[-1].version
    shown.identities = dict(history.lineage.at.get(latest, {}))
    _numbers(shown, history)
    return shown


def _text(clause: Clause) -> str:
    return f"{clause.title}\n{clause.text}".strip()


def _clause_event(change: ClauseChange, release: ReleaseEntry, before: GameRecords,
                  after: GameRecords) -> ClauseEvent:
    old = before.clause(change.old_number) if change.old_number else None
    new = after.clause(change.new_number) if change.new_number else None
    return ClauseEvent(
        change.identity, release, change.kinds, change.old_number, change.new_number,
        change.title, _text(old) if old else "", _text(new) if new else "", change.words,
        change.reason,
    )


def _numbers(shown: GameHistory, history: book.History) -> None:
    """For each number a clause ever had: the other clauses that had it (notes on the page of
    the clause that has it now), or, for a number no current clause has, the clause that had
    it last (the old number's page)."""
    lineage = history.lineage
    versions = [r.version for r in shown.releases]
    latest = versions[-1]
    held: dict[str, list[tuple[str, str]]] = {}  # number -> [(identity, last version it held)]
    for identity, seen in lineage.numbers.items():
        for version, number in seen:
            spans = held.setdefault(number, [])
            if spans and spans[-1][0] == identity:
                spans[-1] = (identity, version)
            else:
                spans.append((identity, version))
    for number, spans in sorted(held.items()):
        current = lineage.identity(latest, number)
        others = []
        for identity, last in spans:
            if identity == current:
                continue
            until = versions[versions.index(last) + 1]
            others.append((identity, last, until, lineage.current(identity, latest)))
        if current is not None:
            if others:
                shown.notes[number] = [NumberNote(i, until, now) for i, _, until, now in others]
            continue
        if not others:
            continue
        identity, last, until, now = max(others, key=lambda o: versions.index(o[1]))
        clause = history.records[last].clause(number)
        if clause is not None:
            shown.old_numbers[number] = OldNumber(number, identity, until, now, clause, last)
