"""Stand-in for the fight arithmetic until engine/fight.py lands: the ring and a round's two
totals. To be deleted when combat reads fight.py."""

from __future__ import annotations

from dataclasses import dataclass, field

RING = ("st", "sp", "dd", "bt", "ar", "wp")


def neighbours(a: str) -> tuple[str, str]:
    i = RING.index(a)
    return RING[(i - 1) % 6], RING[(i + 1) % 6]


@dataclass
class Fighter:
    attributes: dict[str, int]
    combat: list[dict] = field(default_factory=list)
    binding: list[dict] = field(default_factory=list)


@dataclass
class SquadInFight:
    creatures: list[Fighter]
    bonuses: list[dict[str, int]] = field(default_factory=list)


@dataclass
class Side:
    squads: list[SquadInFight]
    role: str


def total(side: Side, other: Side, a: str) -> int:
    principal, enemy = side.squads[0], other.squads[0]
    own_bind = sum(max(0, b.get(a, 0)) for f in principal.creatures for b in f.binding)
    enemy_bind = sum(min(0, b.get(a, 0)) for f in enemy.creatures for b in f.binding)
    out = 0
    for sq in side.squads:
        for f in sq.creatures:
            v = f.attributes.get(a, 0)
            if sq is principal:
                v += own_bind + enemy_bind
            out += max(0, v)
            for c in f.combat:
                if c.get("when") in (None, side.role):
                    out += c.get(a, 0)
        out += sum(b.get(a, 0) for b in sq.bonuses)
    return max(0, out)


def round_totals(att: Side, dfd: Side, a: str, a_die: int, d_die: int) -> tuple[int, int]:
    return total(att, dfd, a) + a_die, total(dfd, att, a) + d_die
