"""The fields of a Hecatomb card beyond the ones every game has, and what makes a card legal.

`FIELDS` declares each field once; the core derives from it the model card files validate
against (and the JSON Schema editors use), the columns, facets and search fields. `check`
holds the rules that span fields: which card types carry strength, subtypes, triggers,
conditional abilities and keywords.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, get_args

from pydantic import Field

from charnel.diagnostics import Problems
from charnel.fields import REQUIRED, CardField, Column, Cost, Search
from charnel.keywords import KeywordBook
from charnel.records import CardBase, Record

if TYPE_CHECKING:
    from charnel.records import GameRecords, TextPart
    from charnel.verify.keyword_text import CardText

Doom = Literal["corruption", "deceit", "destruction", "greed"]

# The subtypes the rulebook names (p. 4, 27-29): minions carry the first list, fates the second.
MinionSubtype = Literal[
    "Animate", "Aztecal", "Beast", "Cultist", "Demon", "Mutant", "Outsider", "Shapeshifter",
    "Undead",
]
FateSubtype = Literal["Curse", "Invocation", "Mishap", "Tactic"]
MINION_SUBTYPES = get_args(MinionSubtype)
FATE_SUBTYPES = get_args(FateSubtype)
MAX_SIZE = 5  # minions in one abomination


class Conditional(Record):
    doom: Doom = Field(description="Colour of the text box: the trigger it needs.")
    text: str = Field(min_length=1, description="As printed; one-time effects in « ».")
    effects: list[dict[str, Any]] = Field(
        default_factory=list, description="The ability encoded in the engine's action language."
    )


def _fixed_part(cost: str) -> int:
    """The fixed part of a cost: '2' -> 2, 'X+2' -> 2, 'X' -> 0."""
    digits = re.findall(r"\d+", cost)
    return int(digits[0]) if digits else 0


def _conditional(column: str, sql: type, description: str, value) -> Column:
    return Column(f"conditional_{column}", sql, description, value)


# Every field of a Hecatomb card beyond the common ones: the card model, the `cards` columns,
# facets, the search language and the checklists are all derived from these.
FIELDS = (
    CardField("number", int, "Collector number within its set.", REQUIRED, rules={"ge": 1},
              index=True, unique_in_group=True, label="Collector number",
              search=Search(("cn", "number"), "Collector number.", "cn:17")),
    CardField("rarity", str, "Rarity: common, uncommon or rare.", REQUIRED, index=True,
              facet="rarity", search=Search(("r", "rarity"), "Rarity.", "r:rare"),
              checklist=2),
    CardField(
        "cost", str | None, "Printed cost: a number, X, or X+n.",
        cost=Cost(_fixed_part, pattern=r"(\d{1,2}|X|X\s*[+-]\s*\d{1,2}|\d{1,2}\s*[+]\s*X)",
                  message="cost must be a number from 0 to 99, X, or X+n", variable="X",
                  value_description="Fixed part of the cost (X counts as 0)."),
        search=Search(("cost",), "Cost: a number compares the fixed part; `x` finds X costs.",
                      "cost<=2"),
    ),
    CardField("doom", Doom, "The card's doom.", REQUIRED, index=True, facet="doom",
              search=Search(("d", "doom"), "Doom.", "doom:greed"), checklist=1),
    CardField("combat", bool, "True for combat minions and fates, playable in combat.", False),
    CardField("strength", int | None, "A minion's printed strength.", rules={"ge": 0},
              numbers=True, search=Search(("str", "strength"), "A minion's strength.", "str>=3")),
    CardField("subtype", MinionSubtype | FateSubtype | None, "Subtype, such as Undead or Curse.",
              search=Search(("sub", "subtype"), "Subtype (contains).", "sub:undead")),
    CardField(
        "triggers", list[Doom] | None, "Corner triggers, comma-separated.",
        rules={"min_length": 4, "max_length": 4},
        search=Search(("tr", "triggers"), "One of a minion's corner triggers.", "tr:deceit",
                      show=False),
    ),
    CardField(
        "conditional", Conditional | None, "A minion's conditional ability.",
        columns=(
            _conditional("doom", str, "Doom of the conditional box.", lambda c: c.doom),
            _conditional("text", str, "Conditional ability, printed.", lambda c: c.text),
            _conditional("effects", str, "The conditional ability's encoded effects as JSON.",
                         lambda c: json.dumps(c.effects, sort_keys=True, ensure_ascii=False)),
        ),
    ),
)

# The model is derived from FIELDS by the core (`Game.card_model`); this name says which
# cards a function takes.
HecatombCard = CardBase


def card_checks(records: GameRecords) -> Callable[[HecatombCard], list[tuple[tuple, str]]]:
    """A card's legal combinations of type, cost, strength, subtype, triggers and abilities,
    and printed keywords the glossary does not know."""
    from charnel.verify.keyword_text import sound_keywords  # charnel.verify imports the games

    # keyword specs that do not compile are reported by the keyword checks already
    book = KeywordBook(sound_keywords(records, Problems()), records.info)
    nearest: dict[str, str | None] = {}  # by sentence: many cards print the same ones
    return lambda card: (_card_problems(card) + _timing_problems(card)
                         + _misspelt_keywords(card, book, nearest))


def _misspelt_keywords(
    card: HecatombCard, book: KeywordBook, nearest: dict[str, str | None]
) -> list[tuple[tuple, str]]:
    """A sentence of the text that would read as a keyword if its first word were spelt
    like that keyword's ("Survivr +1") is a misspelt keyword, not an effect."""
    found: list[tuple[tuple, str]] = []
    for sentence in book.read(card.text)[1]:
        if sentence not in nearest:
            nearest[sentence] = _nearest_keyword(sentence, book)
        near = nearest[sentence]
        if near is not None:
            message = f"'{sentence}' is not a keyword the glossary knows; nearest: '{near}'"
            found.append((("text",), message))
    return found


def _nearest_keyword(sentence: str, book: KeywordBook) -> str | None:
    first = sentence.split(maxsplit=1)[0]
    best: tuple[float, str] | None = None
    for syntax in book.syntaxes.values():
        lead = syntax.term.keyword.syntax.split(maxsplit=1)[0]
        if "{" in lead or lead.casefold() == first.casefold():
            continue
        ratio = difflib.SequenceMatcher(None, first.casefold(), lead.casefold()).ratio()
        if ratio < 0.75:
            continue
        uses, rest = book.read(lead + sentence[len(first) :])
        if len(uses) == 1 and not rest and (best is None or ratio > best[0]):
            best = (ratio, uses[0].text)
    return None if best is None else best[1]


# The printed phrase that opens a timed ability, and the `on:` that encodes it.
TIMING_PHRASES = {
    "at the start of your turn": "ready",
    "at the end of your turn": "end_of_your_turn",
    "at the end of each turn": "end_of_turn",
    "whenever you play": "played",
    "whenever an enemy plays": "played",
    "whenever a player plays": "played",
}


def _timing_problems(card: HecatombCard) -> list[tuple[tuple, str]]:
    """A timed effect's `on:` must be what its text box prints, and a printed timing must
    be encoded: "at the end of your turn" happens on its controller's own turns only."""
    boxes = [(card.text, card.effects, ())]
    if card.conditional is not None:
        boxes.append((card.conditional.text, card.conditional.effects, ("conditional",)))
    found: list[tuple[tuple, str]] = []
    for text, effects, at in boxes:
        lowered = text.lower()
        printed = {on: phrase for phrase, on in TIMING_PHRASES.items() if phrase in lowered}
        encoded = set()
        for i, effect in enumerate(effects):
            on = effect.get("on") if isinstance(effect, dict) else None
            if on in TIMING_PHRASES.values():
                encoded.add(on)
                if on not in printed:
                    message = f"'on: {on}' is not what the text prints ({_printed(printed)})"
                    found.append(((*at, "effects", i, "on"), message))
        for on in sorted(set(printed) - encoded):
            message = f"the text says '{printed[on]}', but no effect is 'on: {on}'"
            found.append(((*at, "text"), message))
    return found


def _printed(printed: dict[str, str]) -> str:
    return "; ".join(f"'{p}' is 'on: {on}'" for on, p in printed.items()) or "it names no moment"


def _card_problems(card: HecatombCard) -> list[tuple[tuple, str]]:
    """(path of the field to point at, message) for each illegal combination."""
    found: list[tuple[tuple, str]] = []
    kind = card.type
    if card.cost is None:
        found.append(((), "every Hecatomb card has a cost; add 'cost'"))
    elif "X" in card.cost and not re.search(r"\bX\b", card.text):
        found.append((("cost",), f"cost {card.cost} has an X, but the text never says what X does"))
    if kind == "minion":
        if card.strength is None:
            found.append(((), "a minion needs 'strength'"))
        if card.triggers is None:
            found.append(((), "a minion needs its four corner 'triggers'"))
        if card.subtype not in MINION_SUBTYPES:
            found.append(_subtype_problem(card, "minion", MINION_SUBTYPES))
        for i, entry in enumerate(card.keywords):
            size = entry.get("tap", {}).get("size") if isinstance(entry, dict) else None
            if isinstance(size, int) and not 2 <= size <= MAX_SIZE:
                found.append(
                    (("keywords", i), f"a tap threshold is between 2 and {MAX_SIZE} (got {size})")
                )
        return found
    for field, what in (("strength", "strength"), ("triggers", "triggers"),
                        ("conditional", "a conditional ability")):
        if getattr(card, field) is not None:
            found.append(((field,), f"only minions have {what}; a {kind} does not"))
    if card.keywords:
        found.append((
            ("keywords",),
            f"only minions carry keyword abilities; a {kind} grants them through its effect text",
        ))
    if kind == "fate":
        if card.subtype not in FATE_SUBTYPES:
            found.append(_subtype_problem(card, "fate", FATE_SUBTYPES))
    else:
        if card.subtype is not None:
            found.append((("subtype",), f"a {kind} has no subtype"))
        if card.combat:
            found.append((("combat",), f"only minions and fates can be combat cards, not a {kind}"))
    return found


def _subtype_problem(card: HecatombCard, kind: str, allowed: tuple[str, ...]) -> tuple[tuple, str]:
    path = ("subtype",) if card.subtype else ()
    return path, f"a {kind}'s subtype is one of {', '.join(allowed)} (got {card.subtype or 'none'})"


def text_parts(card: HecatombCard, text: CardText) -> list[TextPart]:
    """Main text, each tap ability and the conditional ability, each with its own effects."""
    from charnel.coverage import sentences
    from charnel.records import TextPart

    main = [e for e in card.effects if e.get("on") != "tap"]
    parts = [TextPart("text", text.other, main)] if text.other else []
    taps = [e for e in card.effects if e.get("on") == "tap"]
    for use in text.keywords:
        if use.keyword == "tap":
            parts.append(TextPart(f"↻{use.params.get('size')}", [str(use.params["effect"])], taps))
    if card.conditional is not None:
        parts.append(
            TextPart("conditional", sentences(card.conditional.text), card.conditional.effects)
        )
    return parts
