"""Printed keyword text against the `keywords` encoding: they must say the same thing.

Reading the text gives the keywords it prints; decoding the encoding and rendering it gives
the text it should print. Any difference is drift, reported with a +/- diff.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from charnel.diagnostics import Problems
from charnel.keywords import _PARAM as PARAM  # the placeholder form the book compiles
from charnel.keywords import KeywordBook
from charnel.records import CardBase, GameRecords, KeywordUse, Term


@dataclass
class CardText:
    """What a card's text decodes to."""

    keywords: list[KeywordUse] = field(default_factory=list)
    other: list[str] = field(default_factory=list)  # sentences that are not keywords


def check(records: GameRecords, problems: Problems) -> dict[str, CardText]:
    book = KeywordBook(sound_keywords(records, problems), records.info)
    decoded: dict[str, CardText] = {}
    for card in records.cards:
        decoded[card.slug] = read_card(card, book, problems)
    return decoded


def sound_keywords(records: GameRecords, problems: Problems) -> list[Term]:
    """Glossary terms whose keyword spec can be compiled; the others are reported."""
    kinds = {"int", "text", *records.info.enums}
    sound = []
    for i, term in enumerate(records.glossary.terms):
        spec = term.keyword
        if spec is None:
            continue
        where = lambda *path, i=i: records.glossary.where("terms", i, "keyword", *path)  # noqa: E731
        ok = True
        placeholders = PARAM.findall(spec.syntax)
        for name in sorted({p for p in placeholders if placeholders.count(p) > 1}):
            problems.add(where("syntax"), f"keyword syntax uses {{{name}}} more than once")
            ok = False
        for name in sorted(set(placeholders) - set(spec.params)):
            problems.add(where("syntax"), f"{{{name}}} in the syntax is not listed under params")
            ok = False
        for name, kind in spec.params.items():
            if name not in placeholders:
                problems.add(where("params", name), f"param '{name}' never appears in the syntax")
                ok = False
            if kind not in kinds:
                problems.add(
                    where("params", name),
                    f"param type '{kind}' is not int, text or an enum of game.yaml "
                    f"({', '.join(sorted(kinds))})",
                )
                ok = False
        if ok:
            sound.append(term)
    return sound


def read_card(card: CardBase, book: KeywordBook, problems: Problems) -> CardText:
    encoded: list[KeywordUse] = []
    for i, entry in enumerate(card.keywords):
        try:
            encoded.append(book.decode(entry))
        except ValueError as exc:
            problems.add(card.where("keywords", i), str(exc))
    printed, other = book.read(card.text)
    want = [k.text for k in encoded]
    have = [k.text for k in printed]
    if len(encoded) == len(card.keywords) and sorted(want) != sorted(have):
        diff = [f"- {t}" for t in want if t not in have] + [f"+ {t}" for t in have if t not in want]
        if not diff:  # same keywords, different counts
            diff = [f"- {t}" for t in want] + [f"+ {t}" for t in have]
        problems.add(
            card.where("text"),
            "printed keywords and the 'keywords' encoding disagree "
            "(- encoded but not printed, + printed but not encoded)",
            "\n".join(diff),
        )
    return CardText(encoded, other)
