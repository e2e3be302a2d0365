"""A game's whole history: its releases, each loaded by the one loader, and the identity of
every clause through them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from charnel.diagnostics import Origin, Problems
from charnel.history import diff as diffs
from charnel.history.identity import Lineage, Step, thread
from charnel.history.releases import Release, read_all
from charnel.records import GameRecords


@dataclass
class History:
    game: str
    releases: list[Release]  # oldest first
    records: dict[str, GameRecords]  # by version
    lineage: Lineage

    def release(self, version: str) -> Release | None:
        return next((r for r in self.releases if r.version == version), None)

    def changelog(self, old: str, new: str) -> diffs.Changelog:
        a, b = self.release(old), self.release(new)
        assert a is not None and b is not None and a.key < b.key
        between = [r for r in self.releases if a.key < r.key <= b.key]
        return diffs.changelog(a, b, self.records[old], self.records[new], self.lineage, between)

    def changelogs(self) -> list[diffs.Changelog]:
        """Each release against the one before it, newest first."""
        pairs = zip(self.releases, self.releases[1:], strict=False)
        return [self.changelog(a.version, b.version) for a, b in reversed(list(pairs))]


def read(root: Path, game_id: str, problems: Problems) -> History | None:
    """Every release of the game loaded and threaded; None (with problems) if one is broken."""
    from charnel import example_language as language
    from charnel.sources import loader

    releases = read_all(root, game_id, problems)
    records: dict[str, GameRecords] = {}
    for release in releases:
        found = Problems()
        loaded = loader.load(release.root, game_id, found)
        if found or loaded is None:
            shown = release.root.relative_to(root).as_posix()
            for problem in found:
                problems.add(
                    Origin(f"{shown}/{problem.origin.path}", problem.origin.line,
                           problem.origin.col),
                    problem.message,
                )
            continue
        language.in_current_language(loaded.examples)
        records[release.version] = loaded
    if problems:
        return None
    steps = [
        Step(r.version, [c.number for c in records[r.version].clauses], r.changes)
        for r in releases
    ]
    lineage = thread(steps, problems)
    return None if problems else History(game_id, releases, records, lineage)


def version_problem(history: History, version: str) -> str | None:
    if history.release(version) is None:
        known = ", ".join(r.version for r in history.releases) or "none yet"
        return f"no release {version} of {history.game} (releases: {known})"
    return None
