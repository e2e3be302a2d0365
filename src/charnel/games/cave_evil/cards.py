"""The fields of a Cave Evil card beyond the ones every game has, and what makes a card legal.

`FIELDS` declares each field once; the core derives from it the model card files validate
against, the columns, facets, number columns and search names. `check` holds the rules that span
fields and cards: which kinds carry attributes, sizes and costs, the resource every card of a
conjuration deck asks for, the ability vocabulary the engine runs, and the size of each deck.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Literal, get_args

from pydantic import Field

from charnel.fields import CardField, Column, Search, card_model
from charnel.fields import Cost as CostRule
from charnel.query import SearchField
from charnel.records import CardBase, Record

if TYPE_CHECKING:
    from charnel.diagnostics import Problems

Size = Literal["large", "medium", "small", "trinket"]
CarryKind = Literal["none", "carry_only", "carry_use"]
UseMode = Literal["always_use", "pay_to_use", "discard_after_use"]
AbilityUse = Literal["once_per_game", "permanent"]
Tile = Literal[
    "tunnel",
    "alcove",
    "crook",
    "antechamber",
    "great-hall",
    "throneroom",
    "shrine",
    "temple",
    "single-tile",
]
# What an excavation card or event asks to roll (rules 15.2-15.4), and a Protector's arrival.
SpawnRoll = Literal["regular", "excavation", "resource", "card", "protector"]

ATTRIBUTES = ("st", "sp", "dd", "bt", "ar", "wp")  # the ring, in order
ATTRIBUTE_NAMES = ("Strength", "Special", "Dodge", "Bloodthirst", "Armor", "Weapon")
RESOURCES = ("metals", "gore", "shadowflame")
SIZES = get_args(Size)
TILES = get_args(Tile)
SPAWN_ROLLS = get_args(SpawnRoll)
SPACE = {"large": 3, "medium": 2, "small": 1, "trinket": 0}

# The four 70-card conjuration decks and the resource every card of each costs (rule 7.3a);
# the Abyss asks for none in particular.
CONJURATION = {"bribe": "metals", "construct": "gore", "summon": "shadowflame", "abyss": None}
DECK_SIZE = {**{deck: 70 for deck in CONJURATION}, "excavation": 42, "necromonk": 4}
# The kinds each card group holds.
GROUP_KINDS: dict[str, tuple[str, ...]] = {
    **{deck: ("creature", "item", "spell", "event") for deck in CONJURATION},
    "necromonk": ("creature",),
    "necromancer": ("necromancer",),
    "awakening-evil": ("awakening-evil",),
    "protector": ("protector",),
    "excavation": ("excavation", "event"),
}
FIGHTERS = ("creature", "necromancer", "protector")  # cards with the creature fields
COSTED = ("creature", "item", "spell")  # what a Hire, an Invoke or a discard pays for
BLACK_DIAMOND_TILES = ("shrine", "temple")  # their excavation cards are advanced (rule 4.1b)
MAX_SPECIES = 3


class Cost(Record):
    metals: int = Field(default=0, ge=0, le=99)
    gore: int = Field(default=0, ge=0, le=99)
    shadowflame: int = Field(default=0, ge=0, le=99)

    @property
    def total(self) -> int:
        return self.metals + self.gore + self.shadowflame

    def printed(self) -> str:
        """'3 metals + 2 gore', the resources with an amount, in table order."""
        parts = [f"{getattr(self, r)} {r}" for r in RESOURCES if getattr(self, r)]
        return " + ".join(parts) or "0"

    def __str__(self) -> str:  # how pages and lists show a cost
        return self.printed()


CARRY_WORDS = {"none": "none", "carry_only": "carries only", "carry_use": "carries and uses"}


class Carry(Record):
    kind: CarryKind = Field(description="none, carry_only (CAN ONLY CARRY) or carry_use.")
    count: int = Field(default=0, ge=0, le=9, description="Items and Spells it may hold.")


class Attributes(Record):
    """The six combat attributes round the barbed hex, in ring order."""

    st: int = Field(ge=0, le=99, description="Strength")
    sp: int = Field(ge=0, le=99, description="Special")
    dd: int = Field(ge=0, le=99, description="Dodge")
    bt: int = Field(ge=0, le=99, description="Bloodthirst")
    ar: int = Field(ge=0, le=99, description="Armor")
    wp: int = Field(ge=0, le=99, description="Weapon")

    @property
    def total(self) -> int:
        return sum(getattr(self, a) for a in ATTRIBUTES)


def _of(part: str):
    return lambda value: getattr(value, part)


def _facet(name: str, help: str, example: str) -> Search:
    return Search((name,), help, example)


# Every field of a Cave Evil card beyond the common ones (name, type, text, flavor, rulings):
# the card model, the `cards` columns, facets, number columns and search names derive from these.
FIELDS = (
    CardField("copies", int, "Copies of this card in its deck.", 1, rules={"ge": 1, "le": 70},
              numbers=True, checklist=2,
              search=Search(("copies",), "Copies in its deck.", "copies>=3")),
    CardField(
        "cost", Cost | None, "Metals, Gore and Shadowflame: creatures, items and spells.",
        cost=CostRule(lambda c: c.total, value_description="The three amounts added up."),
        columns=(
            Column("cost", str, "The cost as printed: '1 metals + 3 shadowflame'.", str),
            Column("cost_value", int, "The three amounts added up.", _of("total"), index=True),
            *(Column(r, int, f"{r.capitalize()} in the cost.", _of(r), index=True,
                     search=Search((r,), f"{r.capitalize()} in the cost.", f"{r}>=3"))
              for r in RESOURCES),
        ),
        numbers=True,
        search=Search(("cost",), "The three amounts of the cost added up.", "cost<=4"),
    ),
    CardField("movement", int | None, "Movement rate: hexes a turn.", rules={"ge": 0, "le": 20},
              numbers=True, search=Search(("mv", "movement"), "Movement rate.", "mv>=4")),
    CardField("size", Size | None, "Large, medium, small or trinket.", index=True, facet="size",
              search=_facet("size", "Size.", "size:small"), checklist=1),
    CardField(
        "carry", Carry | None, "Whether it carries items and spells, or carries and uses them.",
        columns=(Column("carry", str, "What it does with items and spells, in words.",
                        lambda carry: CARRY_WORDS[carry.kind]),
                 Column("carry_count", int, "Items and spells it may hold.", _of("count"),
                        search=Search(("carry",), "Items and spells it may hold.", "carry>=2"))),
    ),
    CardField("excavation", int, "Pick Axe speed; 0: not an excavator.", 0,
              rules={"ge": 0, "le": 9}, numbers=True,
              search=Search(("dig", "excavation"), "Excavation speed.", "dig>=1")),
    CardField("spellcaster", bool, "May cast spells.", False,
              search=Search(("caster", "spellcaster"), "A spellcaster: 1, or 0.", "caster=1",
                            show=False)),
    CardField(
        "attributes", Attributes | None, "The six combat attributes, in ring order.",
        columns=tuple(Column(a, int, f"{name}.", _of(a), index=True,
                             search=Search((a, name.lower()), f"{name}.", f"{a}>=7"))
                      for a, name in zip(ATTRIBUTES, ATTRIBUTE_NAMES, strict=True)),
        numbers=True,
    ),
    CardField("species", list[str], "Up to three species.", [],
              rules={"max_length": MAX_SPECIES}, facet="species",
              search=Search(("species",), "One of its species.", "species:undead")),
    CardField("black_diamond", bool, "An advanced card, set aside for the basic game.", False,
              label="Black Diamond"),
    CardField("first_game", bool, "False for the cards set aside for a first game.", True),
    CardField("use", UseMode | None, "An item's use mode.", facet="item_use",
              search=_facet("use", "An item's use mode.", "use:pay_to_use")),
    CardField("trinket", bool, "An item any creature can use.", False),
    CardField("ability_use", AbilityUse | None,
              "A necromancer's ability: once per game, or permanent."),
    CardField("revealed", str | None, "An awakening evil's text when revealed."),
    CardField("awakened", str | None, "What an awakening evil does once awakened."),
    CardField("to_win", str | None, "How a player wins against an awakening evil."),
    CardField("abilities", list[dict[str, Any]],
              "What the engine runs; the rest of the text is text only.", []),
    CardField("text_only", str | None,
              "Why the engine does not run the card's text left unencoded (flavour, a choice "
              "the rules leave to the players ...)."),
)

# Search names beyond the declared fields': a card's deck is its group (the core's `set`), and
# `res` finds the resources a cost asks for, whatever the amounts.
_RESOURCES_ASKED = " || ".join(f"(case when {r} > 0 then '{r},' else '' end)" for r in RESOURCES)
_RESOURCE = SearchField(
    f"rtrim({_RESOURCES_ASKED}, ',')", "list", "A resource its cost asks for.", "res:gore",
    choices=" union all ".join(f"select '{r}'" for r in RESOURCES),
)
SEARCH_FIELDS = {"res": _RESOURCE, "resource": _RESOURCE}
# Queries of the search box and the search help, each finding cards of the bundled pool
# (tests/games/cave_evil/test_query_cave_evil.py).
SEARCH_EXAMPLES = (
    "deck:summon size:small",
    "res:gore -res:shadowflame",
    "species:undead t:creature",
    "sp>wp mv>=4",
    'o:"pick axe" deck:bribe',
    "name:ghoul",
)

# The model is derived from FIELDS by the core; this name says which cards a function takes.
CaveEvilCard = card_model("CaveEvilCard", CardBase, FIELDS)


# --- checks --------------------------------------------------------------------------------

Found = list[tuple[tuple, str]]  # (path of the field to point at, message)


def check_cards(cards: Iterable[CaveEvilCard], problems: Problems) -> None:
    """Every card's legal combination of fields, then each deck's size."""
    cards = list(cards)
    for card in cards:
        for path, message in card_problems(card, card.set_code):
            problems.add(card.where(*path), message)
    check_decks(cards, problems)


def check_decks(cards: list[CaveEvilCard], problems: Problems) -> None:
    """Each deck's size, from its cards' copies."""
    # a card file that did not load is not counted: say so, or the total reads as a second,
    # unrelated mistake
    loaded = {card.origin.path for card in cards}
    unread: dict[str, set[str]] = defaultdict(set)
    for problem in problems.items:
        path = problem.origin.path
        if path.startswith("cards/") and path.count("/") == 3 and path not in loaded:
            unread[path.split("/")[2]].add(path)
    for card, message in deck_problems(cards):
        missing = len(unread.get(card.set_code, ()))
        if missing:
            message += f" (without {missing} card file{'s' * (missing > 1)} that did not load)"
        problems.add(card.where("copies"), message)


def deck_problems(cards: list[CaveEvilCard]) -> list[tuple[CaveEvilCard, str]]:
    """A deck of a fixed size whose copies do not add up to it, reported at its last card."""
    groups: dict[str, list[CaveEvilCard]] = defaultdict(list)
    for card in cards:
        groups[card.set_code].append(card)
    found = []
    for group, members in sorted(groups.items()):
        size = DECK_SIZE.get(group)
        total = sum(card.copies for card in members)
        if size is not None and total != size:
            last = max(members, key=lambda c: c.slug)
            found.append(
                (last, f"the {group} deck holds {size} cards, but its copies add up to {total}")
            )
    return found


def card_problems(card: CaveEvilCard, group: str) -> Found:
    found: Found = []
    kinds = GROUP_KINDS.get(group)
    if kinds is None:
        found.append(((), f"'{group}' is not a Cave Evil card group ({', '.join(GROUP_KINDS)})"))
    elif card.type not in kinds:
        found.append((("type",), f"the {group} cards are {_either(kinds)}, not {card.type}"))
    found += _cost_problems(card, group)
    found += _fighter_problems(card)
    found += _kind_problems(card)
    found += _ability_problems(card)
    return found


def _cost_problems(card: CaveEvilCard, group: str) -> Found:
    if card.type not in COSTED:
        if card.cost is not None:
            return [(("cost",), f"{_a(card.type)} has no resource cost")]
        return []
    if card.cost is None:
        return [((), f"{_a(card.type)} needs a 'cost' in metals, gore and shadowflame")]
    if card.cost.total == 0:
        return [(("cost",), "a cost asks for at least one resource")]
    resource = CONJURATION.get(group)
    if resource and getattr(card.cost, resource) == 0:
        return [
            (
                ("cost",),
                f"every {group} card costs {resource}; this one costs {card.cost.printed()}",
            )
        ]
    return []


def _fighter_problems(card: CaveEvilCard) -> Found:
    """Creatures, necromancers and protectors have the creature fields; nothing else does."""
    creature_fields = ("attributes", "size", "movement", "carry")
    if card.type in FIGHTERS:
        found = [
            ((), f"{_a(card.type)} needs '{field}'")
            for field in creature_fields
            if getattr(card, field) is None
        ]
        if card.carry is not None:
            if card.carry.kind == "none" and card.carry.count:
                found.append(
                    (
                        ("carry", "count"),
                        "a creature that cannot carry holds nothing; its count is 0",
                    )
                )
            if card.carry.kind != "none" and not card.carry.count:
                found.append(
                    (("carry", "count"), f"{card.carry.kind} needs how many it holds (1 or more)")
                )
        return found
    # An awakening evil fights (rule 17) but is no creature card: attributes are allowed.
    allowed = ("attributes", "movement", "size") if card.type == "awakening-evil" else ()
    found = [
        ((field,), f"only creatures have '{field}'; {_a(card.type)} does not")
        for field in creature_fields
        if getattr(card, field) is not None and field not in allowed
    ]
    for field, value in (
        ("excavation", card.excavation),
        ("spellcaster", card.spellcaster),
        ("species", card.species),
    ):
        if value:
            found.append(((field,), f"only creatures have '{field}'; {_a(card.type)} does not"))
    return found


def _kind_problems(card: CaveEvilCard) -> Found:
    found: Found = []
    kind = card.type
    if kind == "item" and card.use is None:
        found.append(((), "an item needs its 'use': always_use, pay_to_use or discard_after_use"))
    if kind != "item":
        for field in ("use", "trinket"):
            if getattr(card, field):
                found.append(((field,), f"only items have '{field}'; {_a(kind)} does not"))
    runs_any = any(isinstance(a, dict) and "any_user" in a for a in card.abilities)
    if kind == "item" and bool(card.trinket) != runs_any:
        found.append((("trinket",), "the 'any creature may use it' symbol and the any_user "
                      "ability go together: write both or neither"))
    if kind == "necromancer":
        found += _necromancer_problems(card)
    elif card.ability_use is not None:
        found.append((("ability_use",), f"only necromancers have 'ability_use', not {_a(kind)}"))
    texts = ("revealed", "awakened", "to_win")
    if kind == "awakening-evil":
        found += [((), f"an awakening evil needs '{t}'") for t in texts if not getattr(card, t)]
    else:
        found += [
            ((t,), f"only awakening evils have '{t}'")
            for t in texts
            if getattr(card, t) is not None
        ]
    if kind == "protector" and not card.black_diamond:
        found.append((("black_diamond",), "every protector is a Black Diamond card"))
    if card.size == "trinket" and kind != "creature":
        found.append((("size",), f"only creatures are trinkets; {_a(kind)} is not"))
    if kind == "excavation":
        tiles = [a["tile"] for a in card.abilities if isinstance(a, dict) and "tile" in a]
        if len(tiles) != 1:
            found.append(
                (("abilities",), "an excavation card shows one tile: one '{tile: ...}' ability")
            )
        elif (tiles[0] in BLACK_DIAMOND_TILES) != card.black_diamond:
            state = "are" if tiles[0] in BLACK_DIAMOND_TILES else "are not"
            found.append(
                (("black_diamond",), f"{tiles[0]} excavation cards {state} Black Diamond cards")
            )
    return found


def _necromancer_problems(card: CaveEvilCard) -> Found:
    """Every necromancer is a small spellcaster carrying and using 2 or more (rule 15.1b)."""
    found: Found = []
    if card.ability_use is None and card.text:  # a split half has no ability of its own
        found.append(((), "a necromancer needs 'ability_use': once_per_game or permanent"))
    if card.size not in (None, "small"):
        found.append((("size",), "a necromancer counts as a small creature"))
    if not card.spellcaster:
        found.append((("spellcaster",), "every necromancer is a spellcaster"))
    if card.carry is not None and (card.carry.kind != "carry_use" or card.carry.count < 2):
        found.append((("carry",), "every necromancer carries and uses at least 2"))
    return found


# --- the ability vocabulary ----------------------------------------------------------------

WHEN = ("attacking", "defending")


def _ability_problems(card: CaveEvilCard) -> Found:
    found: Found = []
    for i, ability in enumerate(card.abilities):
        if not isinstance(ability, dict) or len(ability) != 1:
            found.append(
                (("abilities", i), "an ability is one name and its value: '{binding: {st: -3}}'")
            )
            continue
        ((name, value),) = ability.items()
        checker = VOCABULARY.get(name)
        if checker is None:
            found.append(
                (
                    ("abilities", i),
                    f"unknown ability '{name}' ({', '.join(VOCABULARY)}); keep it as text only",
                )
            )
            continue
        kinds, shape = checker
        if card.type not in kinds:
            message = f"'{name}' is for {_either(kinds)}, not {_a(card.type)}"
            found.append((("abilities", i), message))
        message = shape(value)
        if message:
            found.append((("abilities", i, name), f"{name}: {message}"))
    return found


def _changes(value: Any, *, sign: int, extra: tuple[str, ...] = ()) -> str | None:
    """Attribute changes: `{st: 2}`; sign 1 wants increases, -1 decreases, 0 either."""
    if not isinstance(value, dict) or not set(value) - set(extra):
        return "give attributes and amounts, such as {st: 2}"
    for key, amount in value.items():
        if key in extra:
            continue
        if key not in ATTRIBUTES:
            return f"'{key}' is not an attribute ({', '.join(ATTRIBUTES)})"
        if not isinstance(amount, int) or isinstance(amount, bool) or amount == 0:
            return f"{key} changes by a whole number other than 0"
        if sign and (amount > 0) != (sign > 0):
            change = "an increase, +n" if sign > 0 else "a decrease, -n"
            return f"{key} is {change} (got {amount})"
    return None


def _combat(value: Any) -> str | None:
    if isinstance(value, dict) and value.get("when", "attacking") not in WHEN:
        return f"when is {' or '.join(WHEN)} (or absent, for both)"
    return _changes(value, sign=0, extra=("when",))


def _ranged(value: Any) -> str | None:
    if not isinstance(value, dict) or set(value) - {"range", "first"}:
        return (
            "give range and, if the card requires one, the first attribute: {range: 3, first: wp}"
        )
    if (
        not isinstance(value.get("range"), int)
        or isinstance(value.get("range"), bool)
        or not 1 <= value["range"] <= 12
    ):
        return "range is a number of spaces from 1 to 12"
    if "first" in value and value["first"] not in ATTRIBUTES:
        return f"first is one of {', '.join(ATTRIBUTES)}"
    return None


def _positive(value: Any) -> str | None:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 9:
        return "a speed from 1 to 9"
    return None


def _price(value: Any) -> str | None:
    """A Pay to Use bonus names its price: `{wp: 5, pay: {gore: 1}}`."""
    pay = value.get("pay") if isinstance(value, dict) else None
    ok = isinstance(pay, dict) and pay and all(
        r in RESOURCES and isinstance(n, int) and not isinstance(n, bool) and n > 0
        for r, n in pay.items()
    )
    return None if ok else "name its price, such as {wp: 5, pay: {gore: 1}}"


def _true(value: Any) -> str | None:
    return None if value is True else "write true"


def _tile(value: Any) -> str | None:
    return None if value in TILES else f"one of {', '.join(TILES)}"


def _spawn(value: Any) -> str | None:
    if not isinstance(value, list) or not value or any(v not in SPAWN_ROLLS for v in value):
        return f"a list of rolls, each one of {', '.join(SPAWN_ROLLS)}"
    return None


def _binding(value: Any) -> str | None:
    if isinstance(value, dict) and value.get("against", "necromancer") != "necromancer":
        return "against is necromancer (a binding only against a squad with a Necromancer)"
    return _changes(value, sign=-1, extra=("against",))


def _forbids(value: Any) -> str | None:
    if not isinstance(value, list) or not value or set(value) - set(FORBIDDEN):
        return f"a list of what its enemies may not use against it: {', '.join(FORBIDDEN)}"
    return None


def _card_name(value: Any) -> str | None:
    return None if isinstance(value, str) and value.strip() else "the name of the other card"


FORBIDDEN = ("items", "mind")
CREATURES = ("creature", "necromancer", "protector", "awakening-evil")
VOCABULARY: dict[str, tuple[tuple[str, ...], Any]] = {
    "combat": (CREATURES, _combat),
    "binding": (CREATURES, _binding),
    "mind": (CREATURES, lambda v: None if v == "picks_first" else "write picks_first"),
    "forbids": (CREATURES, _forbids),
    "cancels": (("item", "spell"), _card_name),
    "enemy_total": (("spell", "item"), lambda v: _changes(v, sign=-1)),
    "ranged": (CREATURES, _ranged),
    "rip_apart": (CREATURES, _true),
    "bonus": (("item", "spell"), lambda v: _changes(v, sign=1)),
    "paid_bonus": (("item",), lambda v: _price(v) or _changes(v, sign=1, extra=("pay",))),
    "any_user": (("item",), _true),
    "through_rock": (CREATURES, _true),
    "through_wandering": (CREATURES, _true),
    "pick_axe": (("item",), _positive),
    "tile": (("excavation",), _tile),
    "spawn": (("excavation", "event"), _spawn),
}


def _effects() -> None:
    """The effects the engine runs outside fights, each declared once with its check."""
    from .engine.effects.all import EFFECTS

    VOCABULARY.update({name: (e.kinds, e.check) for name, e in EFFECTS.items()})


_effects()


def _a(kind: str) -> str:
    """'a creature', 'an item', 'an awakening-evil'."""
    return f"{'an' if kind[0] in 'aeiou' else 'a'} {kind}"


def _either(kinds: Iterable[str]) -> str:
    kinds = list(kinds)
    return kinds[0] if len(kinds) == 1 else ", ".join(kinds[:-1]) + " or " + kinds[-1]
