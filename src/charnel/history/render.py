"""A changelog as plain text lines, for `charnel diff` and print."""

from __future__ import annotations

from charnel.history.diff import Changelog, ClauseChange
from charnel.history.words import inline


def text_lines(log: Changelog) -> list[str]:
    lines = [f"{log.game} {log.old} -> {log.new} ({log.date})"]
    if not (log.clauses or log.terms or log.cards):
        return [*lines, "no changes"]
    if log.clauses:
        lines += ["", f"Rules ({len(log.clauses)})"]
    for c in log.clauses:
        kinds = ", ".join(c.kinds)
        where = (
            c.new_number if c.old_number is None
            else c.old_number if c.new_number is None
            else c.new_number if c.old_number == c.new_number
            else f"{c.old_number} -> {c.new_number}"
        )
        lines.append(f"  {where} {kinds}" + (f": {c.reason}" if c.reason else ""))
        if c.words:
            lines.append(f"      {inline(c.words)}")
        lines += [f"      {line}" for line in _shown(c)]
    if log.terms:
        lines += ["", f"Glossary ({len(log.terms)})"]
    for t in log.terms:
        lines.append(f"  {t.term} {t.kind}" + (f": {t.reason}" if t.reason else ""))
        if t.keyword:
            lines.append(f"      keyword: {t.keyword}")
        if t.rules:
            lines.append(f"      rules: {t.rules}")
        if t.words:
            lines.append(f"      {inline(t.words)}")
    if log.cards:
        lines += ["", f"Cards ({len(log.cards)})"]
    for card in log.cards:
        kind = card.kind
        if kind == "erratum":
            kind = "functional erratum" if card.functional else "erratum, not functional"
        lines.append(f"  {card.name} {kind}" + (f": {card.reason}" if card.reason else ""))
        for where, runs in card.wording.items():
            lines.append(f"      {where}: {inline(runs)}")
        if card.encoding:
            lines.append(
                "      encoding changed" + ("" if card.functional else ": every result the same")
            )
            lines += [f"        {line}" for line in card.encoded]
    return lines


def _shown(change: ClauseChange) -> list[str]:
    """An added clause's title and text (a removed one's, as it last read): a diff of nothing
    against it would show no words."""
    if change.old_number is not None and change.new_number is not None:
        return []
    title = f"{change.title}: " if change.title else ""
    return [line for line in f"{title}{change.text}".splitlines() if line.strip()]
