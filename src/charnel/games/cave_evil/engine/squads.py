"""What a squad may hold and how fast it goes: space (3 Small, or 1 Medium + 1 Small, or
1 Large; Trinkets take none; the Necromancer is a Small), carrying, movement at the pace of
the slowest creature, excavation speed."""

from __future__ import annotations

from .state import SQUAD_SPACE, Card, Illegal, Squad


def space_used(creatures: list[Card]) -> int:
    return sum(c.space for c in creatures if c.is_creature)


def fits(creatures: list[Card]) -> bool:
    """Small 1, Medium 2, Large 3, at most 3 in all: exactly the three legal squads and
    their parts (a Large and a Medium never share; two Mediums never share)."""
    return space_used(creatures) <= SQUAD_SPACE


def carry_capacity(creatures: list[Card]) -> int:
    """Carry numbers added up, and what a subdued Protector adds to its squad's."""
    more = sum(n for c in creatures for n in c.ability("carry_more"))
    return more + sum(c.carry for c in creatures if c.carry_kind in ("carry_only", "carry_use"))


def use_capacity(creatures: list[Card]) -> int:
    return sum(c.carry for c in creatures if c.carry_kind == "carry_use")


def in_use(creatures: list[Card], items: list[Card]) -> list[Card]:
    """Of `items` (in the order carried), the ones these creatures can use at once: one per
    Carry/Use place (3.4c-d); an item any creature may use by a creature with no such place
    first, so it leaves the places to the others (ruling 3.4g); a spell only with a
    spellcaster among them (3.6a)."""
    places = use_capacity(creatures)
    free = sum(1 for c in creatures if c.is_creature and c.carry_kind != "carry_use")
    casts = any(c.spellcaster for c in creatures)
    used = []
    for item in items:
        if item.kind == "spell":
            if not casts:
                continue
        elif item.ability("any_user") and free > 0:
            free -= 1
        elif places > 0:
            places -= 1
        else:
            continue
        used.append(item)
    return used


def spellcasters(squad: Squad) -> list[Card]:
    return [c for c in squad.creatures if c.spellcaster]


def _sizes(creatures: list[Card]) -> str:
    return ", ".join(f"{c.name} ({c.size.capitalize()})" for c in creatures if c.space)


def _carriers(creatures: list[Card]) -> str:
    return ", ".join(
        f"{c.name} carries {c.carry if c.carry_kind != 'none' else 'none'}" for c in creatures
    )


def check_holds(creatures: list[Card], items: list[Card], what: str) -> None:
    """Refuse a squad its space or its carriers cannot hold, naming the cards and the rule;
    every path that builds a squad (moves, passes, conjuring, the odds) says it alike."""
    if not fits(creatures):
        raise Illegal(
            "squad-full",
            f"{what} would hold {space_used(creatures)} spaces of creatures ({_sizes(creatures)});"
            " a squad holds 3: 3 Small, 1 Medium + 1 Small, or 1 Large (rule 8.2a)",
        )
    if len(items) > carry_capacity(creatures) + carry_capacity(items):  # a marker brings its place
        raise Illegal(
            "cannot-carry",
            f"{what} would carry {len(items)} items and spells "
            f"({', '.join(i.name for i in items)}) but its creatures can carry "
            f"{carry_capacity(creatures)} ({_carriers(creatures)}) (rules 3.4a, 8.3a)",
        )


def rate(squad: Squad) -> int:
    """The squad's movement rate: its slowest creature's."""
    return min((c.movement for c in squad.creatures), default=0)


def movement_left(squad: Squad) -> int:
    return min((c.left() for c in squad.creatures), default=0)


def speed(squad: Squad) -> int:
    """Excavation speed: Pick Axe numbers of its creatures and of the items they can use."""
    own = sum(c.excavation for c in squad.creatures)
    picks = [item for item in squad.items if item.ability("pick_axe")]
    tools = sum(int(a) for item in in_use(squad.creatures, picks) for a in item.ability("pick_axe"))
    return own + tools


def excavators(squad: Squad) -> list[Card]:
    return [c for c in squad.creatures if c.excavation > 0]
