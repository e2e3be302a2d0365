"""The verify stage: every check over loaded records, all problems in one list."""

from __future__ import annotations

from dataclasses import dataclass

from charnel import games
from charnel.diagnostics import Problems
from charnel.records import GameRecords
from charnel.verify import keyword_text, references
from charnel.verify.keyword_text import CardText


@dataclass
class Verified:
    """Records that passed every check, with what the checks decoded on the way."""

    records: GameRecords
    card_text: dict[str, CardText]


def verify(records: GameRecords, problems: Problems) -> Verified:
    references.check(records, problems)
    card_text = keyword_text.check(records, problems)
    games.get(records.info.id).check(records, problems)
    return Verified(records, card_text)
