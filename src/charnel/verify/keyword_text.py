"""Printed keyword text against the `keywords` encoding: they must say the same thing.

Reading the text gives the keywords it prints; decoding the encoding and rendering it gives
the text it should print. Any difference is drift, reported with a +/- diff.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from charnel.diagnostics import Problems
from charnel.keywords import KeywordBook
from charnel.records import CardBase, GameRecords, KeywordUse


@dataclass
class CardText:
    """What a card's text decodes to."""

    keywords: list[KeywordUse] = field(default_factory=list)
    other: list[str] = field(default_factory=list)  # sentences that are not keywords


def check(records: GameRecords, problems: Problems) -> dict[str, CardText]:
    book = KeywordBook(records.glossary.terms, records.info)
    decoded: dict[str, CardText] = {}
    for card in records.cards:
        decoded[card.slug] = read_card(card, book, problems)
    return decoded


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
