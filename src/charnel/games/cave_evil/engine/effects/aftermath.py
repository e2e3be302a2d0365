"""What card text does when a Combat is over and the losers are dead: a Void Maw's victims
lose their dropped goods to the discard piles, a Taker picks one dropped item up, an Armored
Gas clings to a creature of the squad that killed it (a permanent effect, rule 3.8); and, at
the death itself, a Stitching Kit returns a creature that lost a Combat it fought alone."""

from __future__ import annotations

from typing import Any

from .. import squads as squad_rules
from ..fight import ATTRIBUTE_NAMES
from ..state import (
    ATTRIBUTES,
    SIZES,
    Card,
    Fight,
    Illegal,
    Squad,
    State,
)
from . import effect, flag, hook


@hook("before_deaths")
def before(losers: list[Squad]) -> list[tuple[Any, list[Card], list[Card]]]:
    """Where each losing squad stood, what it carried and who was in it, before it died."""
    return [(s.at, list(s.items), list(s.creatures)) for s in losers]


@hook("after_combat")
def after(state: State, record: Fight, winners: list[Squad], was: list) -> None:
    from .upheavals import discard

    if not record.killed:
        return
    attacked = record.winner == "attacker"
    fighters = [c for s in winners for c in s.creatures]
    dropped = [
        (at, i)
        for at, items, _ in was
        for i in items
        if at in state.ground and i in state.ground[at].items
    ]
    if attacked and any(c.ability("devour_drops") for c in fighters):
        for at, item in dropped:
            state.ground[at].items.remove(item)
            discard(state, item)
        dropped = []
    taker = next((s for s in winners if any(c.ability("take_drop") for c in s.creatures)), None)
    if attacked and taker is not None and dropped:
        name = state.choices.take(
            "card", "the dropped item the Taker takes (or none)", state.path, default="none"
        )
        if name != "none":
            at, item = next(((a, i) for a, i in dropped if i.name == name), (None, None))
            if item is None:
                raise Illegal("not-dropped", f"'{name}' is not among the dropped items")
            squad_rules.check_holds(taker.creatures, [*taker.items, item], taker.key)
            state.ground[at].items.remove(item)
            taker.items.append(item)
    for _, _, creatures in was:
        for dead in creatures:
            for change in dead.ability("curse"):
                _curse(state, dead, change, fighters)


def _curse(state: State, dead: Card, change: dict, fighters: list[Card]) -> None:
    living = [c for c in fighters if c.is_creature]
    if not living:
        return
    name = state.choices.take(
        "card",
        f"the creature {dead.name} clings to",
        state.path,
        default=living[0].name if len(living) == 1 else None,
    )
    victim = next((c for c in living if c.name == name), None)
    if victim is None:
        raise Illegal("not-a-winner", f"'{name}' is no creature of the winning squad")
    for a, n in change.items():
        victim.attributes[a] = max(0, victim.attributes[a] + n)


effect(
    "devour_drops",
    kinds=("creature",),
    clause="19.10a",
    role="the creature whose victims' goods are lost",
    check=flag,
    wording=lambda v: [
        "Ability: when it wins a Combat as the Attacker, the Items and Spells the losing Squad "
        "drops are discarded instead"
    ],
)
effect(
    "take_drop",
    kinds=("creature",),
    clause="19.10a",
    role="the creature that takes a dropped item",
    check=flag,
    wording=lambda v: [
        "Ability: when its Squad wins a Combat as the Attacker, it may take one Item the losing "
        "Squad drops into its Squad at once"
    ],
)
effect(
    "curse",
    kinds=("creature",),
    clause="19.10b",
    role="the creature whose death clings to its killer",
    check=lambda v: (
        None
        if isinstance(v, dict)
        and v
        and all(a in ATTRIBUTES and isinstance(n, int) and n < 0 for a, n in v.items())
        else "{attribute: -n}"
    ),
    wording=lambda v: [
        "When it dies in Combat, attach it to one creature of the winning Squad, chosen by that "
        "Squad's player: that creature has "
        + " and ".join(f"{n} {ATTRIBUTE_NAMES[a]}" for a, n in v.items())
        + " for the rest of the game"
    ],
)


@hook("stitched")
def stitched(state: State, squad: Squad, card: Card) -> bool:
    """Whether an item of `squad` returns `card`, dying in a Combat it fought alone, to the
    squad instead: only while another creature of the squad lives; the item is discarded
    (ruling 19.10c)."""
    from .upheavals import discard

    if not any(c is not card for c in squad.creatures):
        return False  # no rest of its squad lives
    kit = next((i for i in squad.items if card.size in i.ability("stitch_back")), None)
    if kit is None:
        return False
    squad.items.remove(kit)
    discard(state, kit)
    return True


def spares_one(squad: Squad) -> bool:
    """Whether an item of `squad` keeps the Attacktite from killing it whole, whatever order
    it fights the creatures in: the item returns the first of two creatures of its size to die
    (`stitched`), while the other lives."""
    sizes = {size for item in squad.items for size in item.ability("stitch_back")}
    return sum(c.size in sizes for c in squad.creatures) >= 2


effect(
    "stitch_back",
    kinds=("item",),
    clause="19.10c",
    role="the item that returns a creature to its squad",
    check=lambda v: None if v in SIZES else f"a size ({', '.join(SIZES)})",
    wording=lambda v: [
        f"Discard it when a {v.title()} creature of its Squad dies in a Combat it fights "
        "alone while the rest of its Squad lives: that creature returns to the Squad instead of "
        "dying"
    ],
)
