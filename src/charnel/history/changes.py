"""`rules/<game>/changes.yaml`: what the next release changes, in the maintainer's words.

    renumbered:      # old number: new number, for clauses that moved
      13.1c: 13.1d
    clauses:         # why a clause was added, changed or removed (by its new number)
      2.1b: Says what a blow of two equal dice does.
    cards:           # why a card's text or encoding changed
      the-sunken-bell: It acted at the end of every turn; it acts at the end of yours.
    terms: {}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pydantic import Field

from charnel.diagnostics import Origin, Problems
from charnel.records import RULE_NUMBER, Record
from charnel.sources import yamltext
from charnel.sources.validate import validate

FILE = "changes.yaml"
EMPTY = (
    "# What the next release changes, in the maintainer's words: clauses renumbered (old:\n"
    "# new), and why clauses, cards and terms changed. `charnel release` freezes this file\n"
    "# with the release and empties it for the next one.\n"
    "renumbered: {}\nclauses: {}\ncards: {}\nterms: {}\n"
)


class ChangesFile(Record):
    renumbered: dict[str, str] = Field(default_factory=dict)
    clauses: dict[str, str] = Field(default_factory=dict)
    cards: dict[str, str] = Field(default_factory=dict)
    terms: dict[str, str] = Field(default_factory=dict)


@dataclass
class Changes:
    """A release's authored changes; `where` points at each renumbering, for messages."""

    renumbered: dict[str, str] = field(default_factory=dict)
    reasons: dict[str, dict[str, str]] = field(default_factory=dict)  # kind -> id -> why
    where: dict[str, Origin] = field(default_factory=dict)  # old number -> its place

    def reason(self, kind: str, key: str) -> str:
        return self.reasons.get(kind, {}).get(key, "")


def read(rules_dir: Path, shown: str, problems: Problems) -> Changes:
    """The changes file of a game's rules folder; none is no changes."""
    path = rules_dir / FILE
    if not path.exists() and not path.is_symlink():
        return Changes()
    raw = yamltext.read_file(path, shown, problems)  # a FIFO or device is a problem
    if raw is None:
        return Changes()
    text = yamltext.read_text(shown, raw, problems)
    doc = yamltext.parse(text, Origin(shown), problems) if text is not None else None
    if doc is None:
        return Changes()
    if doc.value is None:
        return Changes()
    found = validate(ChangesFile, doc, problems, what="changes file")
    if found is None:
        return Changes()
    changes = Changes(
        renumbered=dict(found.renumbered),
        reasons={"clauses": found.clauses, "cards": found.cards, "terms": found.terms},
    )
    for old, new in found.renumbered.items():
        changes.where[old] = found.where("renumbered", old, key=True)
        for number in (old, new):
            if not RULE_NUMBER.match(number):
                problems.add(changes.where[old], f"'{number}' is not a clause number")
    return changes
