"""The changes between two releases of a game: clauses added, changed (word by word),
renumbered and removed; glossary terms and keyword specs likewise; cards whose wording or
encoding changed, each erratum marked functional or not by the engine."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from charnel.history import errata, words
from charnel.history.identity import Lineage
from charnel.history.releases import Release
from charnel.records import Clause, GameRecords, Term


@dataclass
class ClauseChange:
    identity: str
    old_number: str | None  # None: added
    new_number: str | None  # None: removed
    title: str
    words: list[tuple[str, str]] = field(default_factory=list)  # empty: text unchanged
    reason: str = ""
    text: str = ""  # an added clause's text, a removed one's last: what a diff cannot show

    @property
    def kinds(self) -> list[str]:
        if self.old_number is None:
            return ["added"]
        if self.new_number is None:
            return ["removed"]
        found = ["renumbered"] if self.old_number != self.new_number else []
        return found + (["changed"] if self.words else [])


@dataclass
class TermChange:
    slug: str
    term: str
    kind: str  # added, changed, removed
    words: list[tuple[str, str]] = field(default_factory=list)  # the definition's
    keyword: str = ""  # how the keyword spec changed, if it did
    rules: str = ""  # how the rules it points to changed, if they did
    reason: str = ""


@dataclass
class CardChange:
    slug: str
    name: str
    kind: str  # added, erratum, removed
    wording: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # field -> diff
    encoding: bool = False  # the encoded abilities or stats changed
    functional: bool = False  # the engine's results for it changed
    reason: str = ""
    encoded: list[str] = field(default_factory=list)  # how: 'path: old -> new' lines


@dataclass
class Changelog:
    game: str
    old: str
    new: str
    date: str
    clauses: list[ClauseChange] = field(default_factory=list)
    terms: list[TermChange] = field(default_factory=list)
    cards: list[CardChange] = field(default_factory=list)

    def as_data(self) -> dict:
        data = asdict(self)
        for change, row in zip(self.clauses, data["clauses"], strict=True):
            row["kinds"] = change.kinds
        return data


def changelog(
    old: Release, new: Release, before: GameRecords, after: GameRecords, lineage: Lineage,
    reasons: list[Release],
) -> Changelog:
    """What changed from `old` to `new`; `reasons` are the releases after `old` up to `new`,
    whose changes files say why."""
    log = Changelog(after.info.id, old.version, new.version, new.date)
    log.clauses = _clauses(old, new, before, after, lineage, reasons)
    log.terms = _terms(before, after, reasons)
    log.cards = _cards(before, after, reasons)
    return log


def _why(reasons: list[Release], kind: str, key: str) -> str:
    said = [(r.version, r.changes.reason(kind, key)) for r in reasons]
    said = [(v, text) for v, text in said if text]
    if len(said) == 1:
        return said[0][1]
    return " ".join(f"({v}) {text}" for v, text in said)


def _clauses(old, new, before, after, lineage, reasons) -> list[ClauseChange]:
    was: dict[str, Clause] = {lineage.identity(old.version, c.number): c for c in before.clauses}
    now: dict[str, Clause] = {lineage.identity(new.version, c.number): c for c in after.clauses}
    out = []
    for clause in after.clauses:  # in the new order; removed ones after
        identity = lineage.identity(new.version, clause.number)
        prior = was.get(identity)
        if prior is None:
            why = _why(reasons, "clauses", clause.number)
            out.append(ClauseChange(identity, None, clause.number, clause.title, [], why,
                                    clause.text))
            continue
        diff = _text_diff(prior, clause)
        if diff or prior.number != clause.number:
            why = _why(reasons, "clauses", clause.number)
            out.append(
                ClauseChange(identity, prior.number, clause.number, clause.title, diff, why)
            )
    for clause in before.clauses:
        identity = lineage.identity(old.version, clause.number)
        if identity not in now:
            why = _why(reasons, "clauses", clause.number)
            out.append(ClauseChange(identity, clause.number, None, clause.title, [], why,
                                    clause.text))
    return out


def _text_diff(old: Clause, new: Clause) -> list[tuple[str, str]]:
    a, b = f"{old.title}\n{old.text}".strip(), f"{new.title}\n{new.text}".strip()
    return words.diff(a, b) if a != b else []


def _terms(before: GameRecords, after: GameRecords, reasons) -> list[TermChange]:
    was = {t.slug: t for t in before.glossary.terms + before.glossary.lore}
    now = {t.slug: t for t in after.glossary.terms + after.glossary.lore}
    out = []
    for slug, term in now.items():
        prior = was.get(slug)
        why = _why(reasons, "terms", slug)
        if prior is None:
            out.append(TermChange(slug, term.term, "added", reason=why))
            continue
        diff = words.diff(prior.definition, term.definition) if (
            prior.definition != term.definition
        ) else []
        spec = _spec_change(prior, term)
        rules = (
            f"{', '.join(prior.rules) or 'none'} -> {', '.join(term.rules) or 'none'}"
            if prior.rules != term.rules else ""
        )
        if diff or spec or rules or prior.term != term.term:
            out.append(TermChange(slug, term.term, "changed", diff, spec, rules, why))
    for slug, term in was.items():
        if slug not in now:
            out.append(TermChange(slug, term.term, "removed", reason=_why(reasons, "terms", slug)))
    return out


def _spec_change(old: Term, new: Term) -> str:
    a = old.keyword.model_dump() if old.keyword else None
    b = new.keyword.model_dump() if new.keyword else None
    if a == b:
        return ""
    if a is None:
        return "now a keyword"
    if b is None:
        return "no longer a keyword"
    return ", ".join(f"{k}: {a.get(k)} -> {b.get(k)}" for k in sorted(b) if a.get(k) != b.get(k))


def _cards(before: GameRecords, after: GameRecords, reasons) -> list[CardChange]:
    was = {c.slug: c for c in before.cards}
    now = {c.slug: c for c in after.cards}
    out = []
    for slug, card in now.items():
        prior = was.get(slug)
        why = _why(reasons, "cards", slug)
        if prior is None:
            out.append(CardChange(slug, card.name, "added", reason=why))
            continue
        (old_words, old_code), (new_words, new_code) = errata.split(prior), errata.split(card)
        wording = {
            key: words.diff(old_words.get(key, ""), new_words.get(key, ""))
            for key in sorted(set(old_words) | set(new_words))
            if old_words.get(key, "") != new_words.get(key, "")
        }
        encoding = old_code != new_code
        if wording or encoding:
            functional = errata.functional(prior, card, after) if encoding else False
            out.append(CardChange(
                slug, card.name, "erratum", wording, encoding, functional, why,
                errata.encoding_changes(old_code, new_code),
            ))
    for slug, card in was.items():
        if slug not in now:
            out.append(CardChange(slug, card.name, "removed", reason=_why(reasons, "cards", slug)))
    return out
