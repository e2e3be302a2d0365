"""Clause identity across releases. A clause is the same clause from one release to the next
when it keeps its number, or when the release's changes file renumbers it (old: new); any
other number is a new clause. An identity is named by where it began: `1.0/13.1c`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from charnel.diagnostics import Problems
from charnel.history.changes import Changes


@dataclass
class Step:
    version: str
    numbers: list[str]  # the release's clause numbers, in order
    changes: Changes


@dataclass
class Lineage:
    """Each release's clause numbers mapped to identities, and each identity's numbers."""

    at: dict[str, dict[str, str]] = field(default_factory=dict)  # version -> number -> identity
    numbers: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # id -> (ver, n)

    def identity(self, version: str, number: str) -> str | None:
        return self.at.get(version, {}).get(number)

    def current(self, identity: str, version: str) -> str | None:
        """The identity's number in `version`, or None when it is not there."""
        return next((n for v, n in self.numbers.get(identity, []) if v == version), None)

    def ever(self, number: str) -> list[str]:
        """Every identity that has had this number, oldest first."""
        return [i for i, seen in self.numbers.items() if any(n == number for _, n in seen)]


def thread(steps: list[Step], problems: Problems) -> Lineage:
    """Identities through the releases, oldest first; a renumbering that does not fit the two
    releases it joins is a located problem, and that release's renumberings are not used."""
    lineage = Lineage()
    previous: Step | None = None
    for step in steps:
        renamed = _checked(step, previous, problems)
        mapping: dict[str, str] = {}
        before = lineage.at.get(previous.version, {}) if previous else {}
        into = {new: old for old, new in renamed.items()}
        for number in step.numbers:
            if number in into:
                identity = before[into[number]]
            elif number in before and number not in renamed:
                identity = before[number]
            else:
                identity = f"{step.version}/{number}"
            mapping[number] = identity
            lineage.numbers.setdefault(identity, []).append((step.version, number))
        lineage.at[step.version] = mapping
        previous = step
    return lineage


def _checked(step: Step, previous: Step | None, problems: Problems) -> dict[str, str]:
    renamed = step.changes.renumbered
    if not renamed:
        return {}
    count = len(problems)
    where = step.changes.where
    if previous is None:
        for old in renamed:
            problems.add(where[old], "the first release renumbers nothing: it has no earlier one")
        return {}
    old_numbers, new_numbers = set(previous.numbers), set(step.numbers)
    targets: dict[str, str] = {}
    for old, new in renamed.items():
        if old not in old_numbers:
            problems.add(where[old], f"{old} is not a clause of release {previous.version}")
        if new not in new_numbers:
            problems.add(where[old], f"{new} is not a clause of release {step.version}")
        if new in targets:
            problems.add(
                where[old], f"{old} and {targets[new]} are both renumbered {new}: one clause each"
            )
        targets[new] = old
        if new in old_numbers and new not in renamed:
            problems.add(
                where[old],
                f"{new} was already a clause of {previous.version} and is not renumbered away",
            )
    return {} if len(problems) > count else dict(renamed)
