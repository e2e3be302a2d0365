"""Card verification, Cave Evil's part: each ability a card encodes is checked against the
examples of the clauses that define it (or that name it in `ability:`), with the card put in
the place of the example's subject.

The subject is the first card written in `given` that carries the ability: squads' creatures
and items in written order, then the excavation deck. An example written with `$variables`
speaks for every card with the ability: its variables take the substituted card's values
(its attributes, and the ability's own numbers), so the facts it expects are the card's own
arithmetic, which the engine must reproduce. An example written with plain numbers speaks only
for the card it names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from charnel import example_language as language
from charnel.engine.verification import covers

from .effects.all import EFFECTS
from .fight import neighbours
from .pieces import Cards, as_fields, build
from .state import ATTRIBUTES, Card, ExampleError

# The clauses that define each ability: their examples (and those naming the ability in
# `ability:`) are the ones a card with the ability runs.
CLAUSES: dict[str, tuple[str, ...]] = {
    "combat": ("11.4",),  # abilities in combat, as an attacker or when defending (11.4f)
    "binding": ("11.5",),
    "bonus": ("11.4",),  # items and spells in combat
    "paid_bonus": ("3.5f",),  # a Pay to Use item's bonus, when its squad pays
    "any_user": ("3.4g",),  # an item any creature may use
    "through_rock": ("13.1o",),  # moves through undug rock
    "through_wandering": ("13.1p",),  # moves through Wandering Monsters
    "ranged": ("12.2", "12.3"),
    "rip_apart": ("11.4c",),
    "mind": ("11.4h",),  # the defender picks the first attribute
    "forbids": ("11.4i",),  # no items, spells or Mind abilities against it
    "cancels": ("3.5c",),
    "enemy_total": ("11.4g",),  # a spell cast against the enemy squad's total
    "pick_axe": ("3.5e", "10.2d"),  # a Pick Axe item adds to its squad's excavation speed
    "tile": ("10.3", "10.4"),
    "spawn": ("10.4", "14.1", "15.2", "15.3", "15.4"),
}
ROLES: dict[str, str] = {
    "combat": "the creature with the ability",
    "binding": "the binding creature",
    "bonus": "the item or spell",
    "paid_bonus": "the Pay to Use item",
    "any_user": "the item any creature may use",
    "through_rock": "the creature that moves through rock",
    "through_wandering": "the creature that moves through Wandering Monsters",
    "ranged": "the ranged creature",
    "rip_apart": "the creature that rips squads apart",
    "mind": "the creature with the Mind ability",
    "forbids": "the creature nothing may be used against",
    "cancels": "the item that cancels another",
    "enemy_total": "the spell cast against the enemy",
    "pick_axe": "the Pick Axe item",
    "tile": "the excavation card",
    "spawn": "the card that spawns",
}
CLAUSES.update({name: e.clauses for name, e in EFFECTS.items()})
ROLES.update({name: e.role for name, e in EFFECTS.items()})


@dataclass(frozen=True)
class Encoded:
    """An ability as a card encodes it: its value, and the card (by slug) that carries it."""

    value: Any
    card: str


@dataclass(frozen=True)
class Subject:
    """The card an example tests an ability on: where it is written in `given`, and the card
    it stands for."""

    place: tuple  # ("squads", key, "creatures" | "items", i), ("decks", "excavation", i), ...
    card: Card


def _written(given: dict):
    """(place, written card) for each card of `given` that can carry an ability: squads'
    creatures, items and the card they dig, the excavation deck, the Events waiting."""
    squads = given.get("squads")
    for key, body in (squads if isinstance(squads, dict) else {}).items():
        body = body if isinstance(body, dict) else {}
        for part in ("creatures", "items"):
            written = body.get(part)
            for i, card in enumerate(written if isinstance(written, list) else []):
                yield ("squads", key, part, i), card
        dig = body.get("digging")
        if isinstance(dig, dict) and "card" in dig:
            yield ("squads", key, "digging", "card"), dig["card"]
    monsters = given.get("monsters")
    for key, body in (monsters if isinstance(monsters, dict) else {}).items():
        written = body.get("creatures") if isinstance(body, dict) else None
        for i, card in enumerate(written if isinstance(written, list) else []):
            yield ("monsters", key, "creatures", i), card
    awakening = given.get("awakening")
    if isinstance(awakening, dict) and "card" in awakening:
        yield ("awakening", "card"), awakening["card"]
    necromancers = given.get("necromancers")
    for who, card in (necromancers if isinstance(necromancers, dict) else {}).items():
        yield ("necromancers", who), card
    decks = given.get("decks")
    deck = decks.get("excavation") if isinstance(decks, dict) else None
    for i, card in enumerate(deck if isinstance(deck, list) else []):
        yield ("decks", "excavation", i), card
    events = given.get("events")
    for who, cards in (events if isinstance(events, dict) else {}).items():
        for i, card in enumerate(cards if isinstance(cards, list) else []):
            yield ("events", who, i), card


def find_subject(body: dict, ability: str, pool: dict) -> Subject | None:
    """The first written card that carries `ability`."""
    given = body.get("given")
    if not isinstance(given, dict):
        return None
    try:
        cards = Cards(pool, given.get("cards") or {}, ())
    except ExampleError:
        return None
    for place, written in _written(given):
        try:
            card = cards.make(written, place)
        except ExampleError:
            continue  # written with variables, or wrong: the run reports it
        if card.ability(ability):
            return Subject(place, card)
    return None


def variables(card: Card, ability: str, entry: Any) -> dict[str, Any]:
    """What an example may read of the card in the subject's place: `$name`, its six
    attributes (`$st` ...), and the ability's numbers: `$attack_st` ... and `$defend_st` ...
    (what it adds to an attribute when its squad attacks or defends; binding: what it takes
    from each enemy creature), `$range`, `$first` and its ring neighbours `$before_first`,
    `$after_first` (the first attribute it forces, or Strength) and the card's values in them,
    `$first_value`, `$before_first_value`, `$after_first_value`; `$pick_axe`."""
    values: dict[str, Any] = {"name": card.name}
    for a in ATTRIBUTES:
        values[a] = card.attributes.get(a, 0)
        values[f"attack_{a}"] = values[f"defend_{a}"] = 0
    if ability in ("combat", "binding", "bonus", "paid_bonus") and isinstance(entry, dict):
        when = entry.get("when")
        for a in ATTRIBUTES:
            change = entry.get(a, 0)
            values[f"attack_{a}"] = change if when in (None, "attacking") else 0
            values[f"defend_{a}"] = change if when in (None, "defending") else 0
    if ability == "ranged" and isinstance(entry, dict):
        first = entry.get("first", "st")
        values.update(range=entry.get("range", 0), first=first)
        values["before_first"], values["after_first"] = neighbours(first)
        for key in ("first", "before_first", "after_first"):
            values[f"{key}_value"] = values[values[key]]
    if ability == "pick_axe":
        values["pick_axe"] = entry
    if ability in EFFECTS:
        values.update(EFFECTS[ability].variables(entry))
    return values


def bind(example: Any, pool: dict) -> dict:
    """The example body with its variables set from its own subject (a normal run)."""
    body = example.body
    if not language.uses_variables(body):
        return body
    ability, subject = _own_subject(example, pool)
    if subject is None:
        raise language.LanguageError(
            ("ability",) if "ability" in body else (),
            "the example uses $variables but has no subject: add 'ability: <ability>' and "
            "give a card in 'given' with that ability",
        )
    entry = subject.card.ability(ability)[0]
    return language.substitute(body, variables(subject.card, ability, entry))


def _own_subject(example: Any, pool: dict) -> tuple[str | None, Subject | None]:
    """The ability an example tests and its subject: its `ability:`, or the first ability
    whose clauses hold the example (any, outside the rules) that a card of its `given`
    carries."""
    named = example.body.get("ability")
    if isinstance(named, str):
        return named, find_subject(example.body, named, pool)
    owned = [
        ability
        for ability, clauses in CLAUSES.items()
        if example.owner_kind == "rule" and any(covers(c, example.owner) for c in clauses)
    ]
    # an example read outside the rules (a file of its own) is held by no clause: any ability
    for ability in owned or list(CLAUSES):
        subject = find_subject(example.body, ability, pool)
        if subject is not None:
            return ability, subject
    return None, None


def applies(example: Any, subject: Subject, encoded: Encoded, pool: dict) -> bool:
    """An example whose numbers are variables speaks for every card with the ability; one
    written with plain numbers (at most the card's `$name`) only for the cards the engine
    cannot tell from its subject: the same fields and abilities under another name."""
    if _against_necromancers(encoded.value) and not _fights_an_n_squad(example.body):
        return False  # such a binding says nothing where no N squad is in the fight
    if example.variables - {"name"}:
        return True
    try:
        card = build(dict(pool[encoded.card]), ())
    except (KeyError, ExampleError):
        return False
    return _unnamed(as_fields(card)) == _unnamed(as_fields(subject.card))


def _against_necromancers(value: Any) -> bool:
    return isinstance(value, dict) and value.get("against") == "necromancer"


def _fights_an_n_squad(body: dict) -> bool:
    given = body.get("given")
    squads = given.get("squads") if isinstance(given, dict) else None
    return any(str(key).endswith(" N") for key in (squads if isinstance(squads, dict) else {}))


def _unnamed(fields: dict) -> dict:
    return {k: v for k, v in fields.items() if k != "name"}


def substituted(example: Any, subject: Subject, written: dict, ability: str, entry: Any) -> dict:
    """The example body with the card's fields (`written`, as the pool holds them) in the
    subject's place, and its variables set from that card and the ability's entry."""
    body = dict(example.body)
    body["given"] = _replace(body["given"], subject.place, dict(written))
    card = build(dict(written), subject.place)
    return language.substitute(body, variables(card, ability, entry))


def _replace(tree: Any, place: tuple, value: Any) -> Any:
    """A copy of `tree` with the item at `place` replaced; only the path is copied."""
    if not place:
        return value
    head, rest = place[0], place[1:]
    copied = dict(tree) if isinstance(tree, dict) else list(tree)
    copied[head] = _replace(tree[head], rest, value)
    return copied
