"""How much printed card text the rules engine can run.

Keyword text is executable by definition (the engine knows every keyword). Every other
sentence must be encoded: the game splits each card into parts (its main text, and whatever
else it prints, such as an ability with a condition of its own), each with the sentences it
prints and the effects that encode them. A part is covered when it has at least one encoded
effect per printed sentence; a card is executable when all its parts are covered.

A card the engine does not fully run says why (`Game.unrun_reason`: flavour, a choice the rules
leave to the players, ...); "not implemented" is no reason, and `reason_problem` says so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from charnel.records import TextPart

if TYPE_CHECKING:
    from charnel.verify import Verified

_SENTENCE_END = re.compile(r"\.(?=\s|$)|\n")


# Words that name no reason: a card left text only must say why the engine does not run it.
# A reason that the engine does not read, ask or run something is "not implemented" again.
_NO_REASON = re.compile(
    r"\b(not (yet )?(implemented|encoded|supported|done|read|asked|run|handled|tracked)"
    r"|(do|does|did) not (yet )?(read|ask|run|handle|track)"
    r"|(reads|asks|runs|handles|tracks) no|todo|tbd|later)\b",
    re.I,
)


@dataclass
class CardCoverage:
    card: str
    name: str
    parts: list[TextPart]
    reason: str | None = None  # why the text the engine does not run stays text only

    @property
    def reason_problem(self) -> str | None:
        """What is wrong with the card's reason: missing, no reason, or kept on a card that
        now runs in full."""
        if self.executable:
            return "runs in full: drop its reason" if self.reason else None
        if not self.reason or not self.reason.strip():
            return "is not fully executable and gives no reason"
        if _NO_REASON.search(self.reason):
            return f"gives no reason ({self.reason!r}): say why the engine does not run it"
        return None

    @property
    def executable(self) -> bool:
        return all(p.covered for p in self.parts)

    @property
    def missing(self) -> list[str]:
        """The sentences nothing encodes, labelled by part."""
        return [
            f"{p.label}: {s}" if p.label != "text" else s
            for p in self.parts
            if not p.covered
            for s in p.sentences
        ]


@dataclass
class Coverage:
    cards: list[CardCoverage]

    @property
    def executable(self) -> int:
        return sum(c.executable for c in self.cards)

    @property
    def total(self) -> int:
        return len(self.cards)

    @property
    def percent(self) -> float:
        return 100.0 * self.executable / self.total if self.total else 100.0

    def by_card(self) -> dict[str, CardCoverage]:
        return {c.card: c for c in self.cards}

    @property
    def figure(self) -> str:
        return figure(self.executable, self.total)


def figure(executable: int, total: int) -> str:
    """'N/M cards fully executable (P%)'."""
    percent = 100.0 * executable / total if total else 100.0
    return f"{executable}/{total} cards fully executable ({percent:.1f}%)"


def sentences(text: str) -> list[str]:
    """Printed text split into sentences: at '. ' and at line ends; empty pieces dropped."""
    out, pos = [], 0
    for m in _SENTENCE_END.finditer(text):
        out.append(text[pos : m.end()].strip())
        pos = m.end()
    out.append(text[pos:].strip())
    return [s for s in out if s.strip(" .")]


def measure(verified: Verified) -> Coverage:
    game = verified.records.game
    return Coverage(
        [
            CardCoverage(
                card.slug,
                card.name,
                game.text_parts(card, verified.card_text[card.slug]),
                game.unrun_reason(card),
            )
            for card in sorted(verified.records.cards, key=lambda c: c.slug)
        ]
    )


def summary(verified: Verified, limit: int = 40) -> str:
    """The coverage figure, then each card that is not fully executable with what is missing;
    a game with no rules engine (data only) says so instead: none of its text runs."""
    from charnel.game import Game

    game = verified.records.game
    if type(game).engine is Game.engine:
        return (f"{len(verified.records.cards)} cards, no rules engine: '{game.id}' is data "
                "only, so its rules, glossary, cards and rulings are checked and built, and no "
                "example or card text runs")
    coverage = measure(verified)
    lines = [coverage.figure]
    short = [c for c in coverage.cards if not c.executable]
    if short:
        lines.append("not executable:")
    for card in short[:limit]:
        lines.append(f"  {card.card}: " + " | ".join(_clip(s) for s in card.missing))
        lines.append(f"    why: {card.reason or '(no reason given)'}")
    stale = [c.card for c in coverage.cards if c.executable and c.reason]
    if stale:
        lines.append("runs in full but keeps a reason: " + ", ".join(stale))
    if len(short) > limit:
        lines.append(f"  ... and {len(short) - limit} more")
    return "\n".join(lines)


def _clip(text: str, width: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"
