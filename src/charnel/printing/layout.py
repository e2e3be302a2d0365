"""A game's print layout (`games/<game>/print.yaml`): what its player aid and checklist show.

The layout names clauses by number, never by text, so the aid restates the rules themselves.
A selection is a clause number ("3.1") or an inclusive range in document order ("4.1-4.6").
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path

from pydantic import Field

from charnel.diagnostics import Origin, Problems
from charnel.records import Clause, GameRecords, Record
from charnel.sources import yamltext
from charnel.sources.validate import validate

LAYOUT_FILE = "print.yaml"


class AidPart(Record):
    title: str
    rules: list[str] = Field(min_length=1)


class PrintLayout(Record):
    player_aid: list[AidPart] = Field(default_factory=list)
    aid_pages: int = Field(default=2, ge=1)  # one sheet, both sides


@dataclass
class AidSection:
    title: str
    clauses: list[Clause]


def layout_path(game: object) -> Path:
    """The layout file sits in the game's own package, beside its code."""
    package = importlib.import_module(type(game).__module__.rpartition(".")[0])
    return Path(package.__file__).parent / LAYOUT_FILE


def load(game: object, problems: Problems) -> PrintLayout | None:
    """The game's layout; an absent file means an aid of keywords only."""
    path = layout_path(game)
    if not path.exists():
        return PrintLayout()
    text = yamltext.read_text(str(path), path.read_bytes(), problems)
    if text is None:
        return None
    doc = yamltext.parse(text, Origin(str(path)), problems)
    if doc is None:
        return None
    if doc.value is None:
        return PrintLayout()
    return validate(PrintLayout, doc, problems, what="print layout")


def aid_sections(layout: PrintLayout, records: GameRecords, problems: Problems) -> list[AidSection]:
    """The clauses each part of the aid restates.

    A selection inside a section that is not written yet is skipped (the corpus grows section
    by section); a number missing from a written section is an error at its place in the file.
    """
    index = {c.number: i for i, c in enumerate(records.clauses)}
    written = {s.number for s in records.sections}
    out = []
    for p, part in enumerate(layout.player_aid):
        chosen: list[Clause] = []
        for r, spec in enumerate(part.rules):
            first, _, last = spec.partition("-")
            first, last = first.strip(), (last or first).strip()
            where = layout.where("player_aid", p, "rules", r)
            missing = [n for n in (first, last) if n not in index]
            if any(n.split(".")[0] in written for n in missing):
                problems.add(where, f"no clause {', '.join(missing)} in the rules")
                continue
            if missing:
                continue
            if index[first] > index[last]:
                problems.add(where, f"range {spec} runs backwards")
                continue
            chosen.extend(records.clauses[index[first] : index[last] + 1])
        if chosen:
            out.append(AidSection(part.title, chosen))
    return out
