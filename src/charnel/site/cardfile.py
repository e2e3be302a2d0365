"""What a card page offers beside itself: the cards before and after it in its group, a
summary for link previews, and the card as a JSON file (`card.json` beside its page).

Links between cards are relative (`../<slug>/`), so they hold wherever the site's cards are.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic_core import to_json

from charnel import markdown
from charnel.records import CardBase

JSON_NAME = "card.json"
Named = tuple[str, str]  # a card's slug and name
SUMMARY_LENGTH = 200  # characters: what link previews show of a description


def neighbours(cards: Sequence[CardBase]) -> dict[str, tuple[Named | None, Named | None]]:
    """Each card's previous and next card in its group, in the order `cards` lists them, each
    as (slug, name): what a card page shows of them."""
    groups: dict[str, list[Named]] = {}
    for card in cards:
        groups.setdefault(card.set_code, []).append((card.slug, card.name))
    found: dict[str, tuple[Named | None, Named | None]] = {}
    for group in groups.values():
        last = len(group) - 1
        for i, named in enumerate(group):
            found[named[0]] = (group[i - 1] if i else None, group[i + 1] if i < last else None)
    return found


def link(card: Named | None) -> dict[str, str] | None:
    """A card page's link to another card's page (slug, name), from beside it."""
    return None if card is None else {"name": card[1], "href": f"../{card[0]}/"}


def summary(card: CardBase, type_name: str) -> str:
    """One line on the card for search engines and link previews: its type and its text."""
    text = " ".join(markdown.plain(card.text).split())
    line = f"{card.name}: {type_name}." + (f" {text}" if text else "")
    if len(line) <= SUMMARY_LENGTH:
        return line
    return line[: SUMMARY_LENGTH - 1].rsplit(" ", 1)[0] + "…"


def card_json(card: CardBase, game: str) -> bytes:
    """The card as its file states it, with where it belongs: one JSON object, indented by
    one space a level, characters as they are (what `json.dumps(..., ensure_ascii=False,
    indent=1)` writes: the indent takes json's Python encoder, six times slower than
    pydantic's, which writes the same bytes but a float's exponent without a leading 0)."""
    record = {"game": game, "id": card.slug, "group": card.set_code}
    record.update(card.model_dump(mode="json"))
    return to_json(record, indent=1) + b"\n"
