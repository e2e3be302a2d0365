"""Fight arithmetic: squad totals per attribute and Combat in fight rounds (rules 11-12).

Plain data in, plain data out, no game state and no say in who fights with what: `sides.py`
makes the two sides from the engine's squads (for Combat, the `odds` fact and `charnel odds`
alike), `fight` fights them, and the odds (`odds.py`) use the same totals.

A side is a sequence of squads: the first is the principal squad (the one that acts, or the
one attacked), the others flank it. Dice are scripted: `fight` reads them in order, the
attacker's die then the defender's for every roll, a tie taking two more.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

# The ring, in the rulebook's printed order; each attribute's neighbours are the ones beside
# it, and wp is beside st (rule 3.3b).
ATTRIBUTES = ("st", "sp", "dd", "bt", "ar", "wp")
ATTRIBUTE_NAMES = {
    "st": "Strength",
    "sp": "Special",
    "dd": "Dodge",
    "bt": "Bloodthirst",
    "ar": "Armor",
    "wp": "Weapon",
}
ROLES = ("attacking", "defending")
DIE = range(1, 13)

Role = Literal["attacking", "defending"]
Winner = Literal["attacker", "defender"]


class FightError(ValueError):
    """A fight that cannot be fought as given: an unknown attribute, a round-two pick that is
    not a neighbour, a die missing or out of range, an impossible side."""


def check_attribute(attribute: str) -> str:
    if attribute not in ATTRIBUTE_NAMES:
        raise FightError(f"unknown attribute '{attribute}' (known: {', '.join(ATTRIBUTES)})")
    return attribute


def neighbours(attribute: str) -> tuple[str, str]:
    """The two attributes beside `attribute` on the ring: the one before, the one after."""
    i = ATTRIBUTES.index(check_attribute(attribute))
    return ATTRIBUTES[i - 1], ATTRIBUTES[(i + 1) % len(ATTRIBUTES)]


def other_neighbour(first: str, second: str) -> str:
    """Round three's attribute: the neighbour of `first` that round two did not use."""
    before, after = neighbours(first)
    if second not in (before, after):
        raise FightError(
            f"round two must use {before} or {after}, the neighbours of {first} (got '{second}')"
        )
    return after if second == before else before


# --- the fighters ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Creature:
    """One creature card in a fight: its six attributes and its encoded abilities."""

    name: str
    attributes: Mapping[str, int]
    abilities: tuple[Mapping[str, Any], ...] = ()

    def attribute(self, attribute: str) -> int:
        return int(self.attributes.get(attribute, 0))

    @property
    def ranged(self) -> Mapping[str, Any] | None:
        return next((a["ranged"] for a in self.abilities if "ranged" in a), None)


@dataclass(frozen=True)
class Item:
    """An item or spell a squad holds; only its `bonus` abilities count in a fight."""

    name: str
    abilities: tuple[Mapping[str, Any], ...] = ()


@dataclass(frozen=True)
class Squad:
    creatures: tuple[Creature, ...]
    items: tuple[Item, ...] = ()


Side = Sequence[Squad]


@dataclass(frozen=True)
class Matchup:
    """Who fights whom, and how.

    The squads are as they count (`sides.matchup` decides which creatures, items and
    abilities take part). `ranged`: the attacker fights at range, its squads only their ranged
    creatures, and a losing attacker survives (12.2b, 12.2d). `ranged_defence`: the defender
    answers with only its ranged creatures, and kills the attacker if it wins (12.2e-f).
    `first_by`: who picks the first attribute (the defender, by a Mind ability).
    """

    attacker: tuple[Squad, ...]
    defender: tuple[Squad, ...]
    ranged: bool = False
    ranged_defence: bool = False
    first_by: Winner = "attacker"
    # the items and spells each side carries into the fight that do not count in it (no free
    # user or caster, forbidden, cancelled), by name: for the reader, never for the sums
    idle: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())

    def __post_init__(self) -> None:
        if not self.attacker or not self.defender:
            raise FightError("each side needs at least one squad")
        if self.ranged_defence and not self.ranged:
            raise FightError("a ranged defence answers only a ranged attack")
        if self.ranged and len(self.defender) > 1:
            raise FightError("a squad attacked at range gets no flanking squads (rule 12.2h)")

    def sides(self) -> tuple[tuple[Squad, ...], tuple[Squad, ...]]:
        """The squads that fight, checked: at range each side that must have a ranged
        creature has one."""
        if self.ranged and not any(c.ranged for s in self.attacker for c in s.creatures):
            raise FightError("a ranged attack needs a creature with a ranged ability (rule 12.2b)")
        if self.ranged_defence and not any(c.ranged for s in self.defender for c in s.creatures):
            raise FightError("a ranged defence needs a creature with a ranged ability (rule 12.2e)")
        return self.attacker, self.defender

    @property
    def attacker_may_die(self) -> bool:
        return not self.ranged or self.ranged_defence

    def first_attributes(self) -> tuple[str, ...]:
        """The attributes the attacker may open with: any of the six, or at range the ones the
        taking-part ranged abilities require (the attacker picks among them, 12.2c, 12.2g)."""
        if not self.ranged:
            return ATTRIBUTES
        attacker, _ = self.sides()
        forced = {
            check_attribute(c.ranged["first"])
            for s in attacker
            for c in s.creatures
            if c.ranged and c.ranged.get("first")
        }
        return tuple(a for a in ATTRIBUTES if a in forced) or ATTRIBUTES


# --- totals ----------------------------------------------------------------------------------


def _effects(abilities: Iterable[Mapping[str, Any]], kind: str, role: Role | None = None):
    """The attribute changes of every `kind` ability in `abilities` that applies in `role`."""
    for ability in abilities:
        change = ability.get(kind)
        if not isinstance(change, Mapping):
            continue
        when = change.get("when")
        if when is not None and role is not None and when != role:
            continue
        yield {a: int(v) for a, v in change.items() if a in ATTRIBUTE_NAMES}


def binding(side: Side) -> dict[str, int]:
    """What a side's binding abilities do to each creature of the opposing principal squad,
    per attribute (rule 11.4e: binding reaches that squad only, whichever squad holds it)."""
    total = dict.fromkeys(ATTRIBUTES, 0)
    for squad in side:
        holders = [c.abilities for c in squad.creatures] + [i.abilities for i in squad.items]
        for abilities in holders:
            for change in _effects(abilities, "binding"):
                for a, v in change.items():
                    total[a] += v
    return total


def squad_total(
    squad: Squad,
    attribute: str,
    role: Role,
    bound: Mapping[str, int] | None = None,
    hexed: Mapping[str, int] | None = None,
) -> int:
    """A squad's total for one attribute: each creature's value changed by `bound` (the enemy's
    binding) and floored at zero per creature (rule 11.4a), plus the squad's own combat
    abilities for `role` and its items' and spells' bonuses, the sum floored at zero (11.4b)."""
    check_attribute(attribute)
    change = (bound or {}).get(attribute, 0)
    creatures = sum(max(0, c.attribute(attribute) + change) for c in squad.creatures)
    extra = (hexed or {}).get(attribute, 0)
    for creature in squad.creatures:
        extra += sum(e.get(attribute, 0) for e in _effects(creature.abilities, "combat", role))
    for item in squad.items:
        extra += sum(e.get(attribute, 0) for e in _effects(item.abilities, "bonus", role))
    return max(0, creatures + extra)


def against(side: Side) -> dict[str, int]:
    """What a side's cast spells take off the opposing principal squad's total, per attribute
    (`enemy_total`: the squad's sum, not each creature's, never below zero)."""
    total = dict.fromkeys(ATTRIBUTES, 0)
    for squad in side:
        for item in squad.items:
            for change in _effects(item.abilities, "enemy_total"):
                for a, v in change.items():
                    total[a] += v
    return total


def side_total(side: Side, attribute: str, role: Role, enemy: Side) -> int:
    """A side's total for one attribute: its squads' totals added up (flanking, rule 12.1b),
    the enemy's binding and spells cast against it applied to the principal squad only
    (rule 11.4e)."""
    bound = binding(enemy)
    hexed = against(enemy)
    return sum(
        squad_total(squad, attribute, role, bound if i == 0 else None, hexed if i == 0 else None)
        for i, squad in enumerate(side)
    )


def totals(matchup: Matchup) -> tuple[dict[str, int], dict[str, int]]:
    """The attacker's and the defender's totals for each of the six attributes."""
    attacker, defender = matchup.sides()
    return (
        {a: side_total(attacker, a, "attacking", defender) for a in ATTRIBUTES},
        {a: side_total(defender, a, "defending", attacker) for a in ATTRIBUTES},
    )


# --- fight rounds ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Roll:
    attacker_die: int
    defender_die: int
    attacker: int  # total: die plus attribute total
    defender: int


@dataclass(frozen=True)
class Round:
    attribute: str
    rolls: tuple[Roll, ...]  # tied rolls first, the deciding roll last
    winner: Winner


@dataclass(frozen=True)
class FightResult:
    rounds: tuple[Round, ...]
    winner: Winner
    killed: Winner | None  # the side that dies: the loser, except a ranged attacker's escape
    dice_used: int


class Dice:
    """Scripted dice read in order; a missing or impossible die is a FightError."""

    def __init__(self, dice: Iterable[int]):
        self._dice: Iterator[int] = iter(dice)
        self.used = 0

    def roll(self) -> int:
        die = next(self._dice, None)
        if die is None:
            raise FightError(f"the fight needs a die more than the {self.used} given")
        if not isinstance(die, int) or isinstance(die, bool) or die not in DIE:
            raise FightError(f"a die shows 1 to 12, not {die!r}")
        self.used += 1
        return die


def fight_round(attribute: str, attacker: int, defender: int, dice: Dice) -> Round:
    """One fight round: attacker's die, defender's die, higher total wins, a tie re-rolls."""
    rolls: list[Roll] = []
    while True:
        a, d = dice.roll(), dice.roll()
        rolls.append(Roll(a, d, attacker + a, defender + d))
        if attacker + a != defender + d:
            winner: Winner = "attacker" if attacker + a > defender + d else "defender"
            return Round(attribute, tuple(rolls), winner)


def fight(matchup: Matchup, first: str, second: str, dice: Iterable[int]) -> FightResult:
    """A whole Combat: round one in `first`, round two in `second` (the defender's pick, a
    neighbour of `first`), round three, if needed, in the other neighbour."""
    if check_attribute(first) not in matchup.first_attributes():
        allowed = ", ".join(matchup.first_attributes())
        raise FightError(f"this ranged attack must open with {allowed}, not {first}")
    third = other_neighbour(first, second)
    attacker, defender = totals(matchup)
    rolled = Dice(dice)
    rounds: list[Round] = []
    for attribute in (first, second, third):
        rounds.append(fight_round(attribute, attacker[attribute], defender[attribute], rolled))
        wins = [r.winner for r in rounds]
        if wins.count("attacker") == 2 or wins.count("defender") == 2:
            break
    winner: Winner = rounds[-1].winner
    killed: Winner | None = "defender" if winner == "attacker" else "attacker"
    if killed == "attacker" and not matchup.attacker_may_die:
        killed = None
    return FightResult(tuple(rounds), winner, killed, rolled.used)


__all__ = [
    "ATTRIBUTES",
    "ATTRIBUTE_NAMES",
    "Creature",
    "FightError",
    "FightResult",
    "Item",
    "Matchup",
    "Roll",
    "Round",
    "Squad",
    "binding",
    "fight",
    "fight_round",
    "neighbours",
    "other_neighbour",
    "side_total",
    "squad_total",
    "totals",
]
