"""Who fights with what: the one place that turns the engine's squads into the sides the fight
arithmetic (`fight`) adds up. Combat, the `odds` fact of examples, `charnel odds` and the fight
calculator's answers all take their sides from `matchup` here.

- creatures: the party's own (at range, only its Ranged creatures: rule 12.2b);
- items: as many as the party's own Carry/Use creatures can use, the ones that act in a
  fight in the order the squad carries them (3.4c-d, 3.4f); an item any creature may use
  by any of its creatures (3.4g); a Pay to Use item only if its squad pays (3.5f); a spell
  only with a spellcaster among them (3.6a); at range, only what the Ranged creatures can
  use (12.2c);
- none at all against a creature that forbids them (the Emperor, the Darkest Evil Bitch);
- two used items that cancel each other, one on each side, both give nothing (3.5c);
- a binding that names its target (`against: necromancer`) holds only against a squad with a
  Necromancer in it;
- a Mind ability that lets the defender pick the first attribute, unless the attacker is
  immune to Mind abilities or fights at range.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import fight, squads
from .state import Card, Squad

FIGHT_ITEM_ABILITIES = ("bonus", "paid_bonus", "binding", "enemy_total")


@dataclass
class Party:
    """One squad's part in a fight: the creatures that take part, and whether its items
    and abilities count (a Crystal's astral Necromancer has neither)."""

    squad: Squad
    creatures: list[Card]
    items: bool = True
    abilities: bool = True
    used: list[Card] = field(default_factory=list)  # the items and spells it fights with


def party(squad: Squad, creatures: list[Card] | None = None) -> Party:
    return Party(squad, list(squad.creatures if creatures is None else creatures))


def forbids(side: list[Party], what: str) -> bool:
    """Whether a creature of `side` forbids its enemy `what` (items, mind)."""
    return any(
        what in (f if isinstance(f, list) else [f])
        for p in side
        for c in p.creatures
        for f in c.ability("forbids")
    )


def fights_with(item: Card) -> bool:
    """Whether an item or spell has anything to do in a fight."""
    return any(item.ability(a) for a in (*FIGHT_ITEM_ABILITIES, "cancels"))


def usable(p: Party, allowed: bool) -> list[Card]:
    """The items and spells the party fights with: those of its items that act in a fight
    which its own taking-part creatures can use (`squads.in_use`) and, for a Pay to Use item,
    whose price its squad's resources still cover (ruling 3.5f)."""
    p.used = []
    if not (p.items and allowed):
        return p.used
    purse = dict(p.squad.resources)
    for item in squads.in_use(p.creatures, [i for i in p.squad.items if fights_with(i)]):
        price = price_of(item)
        if any(purse.get(r, 0) < n for r, n in price.items()):
            continue
        for r, n in price.items():
            purse[r] -= n
        p.used.append(item)
    return p.used


def price_of(item: Card) -> dict[str, int]:
    """What a Pay to Use item costs each Combat it is used in (3.5a)."""
    return {r: n for paid in item.ability("paid_bonus") for r, n in paid["pay"].items()}


def cancelled(mine: list[Card], theirs: list[Card]) -> set[int]:
    """The cards (by id) of both sides that cancel each other: an item whose `cancels` names a
    card the other side uses, and that card (rule 3.5c)."""
    out: set[int] = set()
    for a, b in ((mine, theirs), (theirs, mine)):
        for card in a:
            for name in card.ability("cancels"):
                hit = next((o for o in b if o.name == name and id(o) not in out), None)
                if hit is not None:
                    out |= {id(card), id(hit)}
    return out


def _abilities(card: Card, enemy_principal: Party) -> tuple[dict[str, Any], ...]:
    """The card's fight abilities, a binding against Necromancers dropped when the enemy's
    principal squad has none."""
    has_necromancer = any(c.kind == "necromancer" for c in enemy_principal.creatures)
    kept = []
    for a in card.abilities:
        if "paid_bonus" in a:  # paid for, it is a bonus like any other (3.5a)
            a = {"bonus": {k: v for k, v in a["paid_bonus"].items() if k != "pay"}}
        bound = a.get("binding")
        if isinstance(bound, dict) and bound.get("against") == "necromancer":
            if not has_necromancer:
                continue
        kept.append(a)
    return tuple(kept)


def _squad(p: Party, items: list[Card], gone: set[int], enemy: Party) -> fight.Squad:
    return fight.Squad(
        tuple(
            fight.Creature(c.name, dict(c.attributes), _abilities(c, enemy) if p.abilities else ())
            for c in p.creatures
        ),
        tuple(fight.Item(i.name, _abilities(i, enemy)) for i in items if id(i) not in gone),
    )


def matchup(
    attackers: list[Party],
    defenders: list[Party],
    *,
    ranged: bool = False,
    ranged_defence: bool = False,
) -> fight.Matchup:
    """The fight as the rules count it, from the parties that take part (the first of each
    side its principal squad)."""
    if not attackers or not defenders:
        raise fight.FightError("each side needs at least one squad")
    used_a = [usable(p, not forbids(defenders, "items")) for p in attackers]
    used_d = [usable(p, not forbids(attackers, "items")) for p in defenders]
    gone = cancelled([i for u in used_a for i in u], [i for u in used_d for i in u])
    mind = any(c.ability("mind") for p in defenders for c in p.creatures if p.abilities)
    idle = tuple(
        tuple(
            i.name
            for p, u in zip(side, used, strict=True)
            for i in p.squad.items
            if fights_with(i) and (i not in u or id(i) in gone)
        )
        for side, used in ((attackers, used_a), (defenders, used_d))
    )
    return fight.Matchup(
        tuple(_squad(p, u, gone, defenders[0]) for p, u in zip(attackers, used_a, strict=True)),
        tuple(_squad(p, u, gone, attackers[0]) for p, u in zip(defenders, used_d, strict=True)),
        ranged=ranged,
        ranged_defence=ranged_defence,
        # at range the ranged abilities name the first attribute (ruling 11.4h)
        first_by="defender"
        if mind and not ranged and not forbids(attackers, "mind")
        else "attacker",
        idle=idle,
    )


def ranged_only(p: Party) -> Party:
    """The party as it fights at range: its creatures with a Ranged ability (12.2b)."""
    return Party(p.squad, [c for c in p.creatures if c.ability("ranged")], p.items, p.abilities)


def of_squads(
    mine: list[Squad], theirs: list[Squad], *, ranged: bool = False, ranged_defence: bool = False
) -> fight.Matchup:
    """The fight of whole squads (the first of each side its principal): at range the
    attacker's Ranged creatures only, and the defender's if it answers with them."""
    attackers = [party(s) for s in mine]
    defenders = [party(s) for s in theirs]
    if ranged or ranged_defence:
        attackers = [ranged_only(p) for p in attackers]
    if ranged_defence:
        defenders = [ranged_only(p) for p in defenders]
    return matchup(
        attackers, defenders, ranged=ranged or ranged_defence, ranged_defence=ranged_defence
    )


def separate(
    mine: list[Squad], theirs: list[Squad], *, ranged: bool = False
) -> list[fight.Matchup]:
    """The Combats of an attack that rips the defending squad apart: the whole attacking squad
    against each creature alone, without the squad's items (rule 11.4c)."""
    if not any(c.ability("rip_apart") for c in mine[0].creatures):
        raise fight.FightError(
            "only a squad with a creature that rips squads apart (the Attacktite) fights each "
            "creature separately (rule 11.4c)"
        )
    if len(mine) > 1 or len(theirs) > 1 or ranged:
        raise fight.FightError(
            "a squad fights each creature separately only alone, against one squad, "
            "not at range (rule 11.4c)"
        )
    return [
        matchup([party(mine[0])], [Party(theirs[0], [c], items=False)]) for c in theirs[0].creatures
    ]


__all__ = [
    "Party", "party", "matchup", "of_squads", "separate", "ranged_only", "usable", "cancelled",
    "forbids",
]  # fmt: skip
