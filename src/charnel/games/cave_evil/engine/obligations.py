"""What a squad owes before anything else: dealing with the enemy beside it (rules 6.1a,
11.1b, 11.1e, 11.3f, 13.1j, 10.4c, 15.3e, 15.5a).

In Phase 1 every squad of the player that stands beside an enemy squad or a Wandering
Monster owes a fight (or, against a monster, a hire or a subdue). Later in the turn a squad
owes one when it stopped beside an enemy, and when its player's excavation spawned a monster
beside it before it acted; a monster spawned beside a squad that has acted, or beside an
enemy's, waits for that player's next Phase 1, which the first rule covers. While a debt is
open its squad may only fight, hire or subdue what is beside it, and the turn goes no further.
"""

from __future__ import annotations

from . import hexes
from .args import Args
from .state import Illegal, Squad, State

DEALING = ("attack", "hire", "subdue")
# the squads an action puts to use, by the fields that name them ("N": the N squad)
ACTING = {
    "cast": ("squad",),
    "excavate": ("squad", "helpers"),
    "dig": ("squad", "helpers"),
    "move": ("squad",),
    "split": ("squad",),
    "merge": ("squad",),
    "join": ("from",),
    "secondary_conjure": ("N",),
    "invoke": ("N",),
    "sacrifice": ("N",),
    "attack": ("squad", "with"),
    "hire": ("squad",),
    "subdue": ("squad",),
    "use": ("squad",),  # a bomb or a creature's ability (engine.effects)
}
ENDING = ("next_phase", "end_turn")


def stoppers(state: State, squad: Squad) -> list[Squad]:
    """Squads beside which `squad` must stop: enemy squads and Wandering Monsters, unless
    trapped in a Collapse (squads may move past those)."""
    return [
        s
        for s in state.squads.values()
        if s is not squad and s.at is not None and s.owner != squad.owner and not s.trapped
    ]


def owe(state: State, squad: Squad) -> None:
    """`squad` must deal with what is beside it before this turn ends."""
    state.obliged.add(squad.key)


def beside(state: State, squad: Squad) -> list[Squad]:
    """The enemy squads and Wandering Monsters next to `squad` that it could fight."""
    if squad.at is None:
        return []
    return [s for s in stoppers(state, squad) if hexes.adjacent(s.at, squad.at)]


def open_debts(state: State, player: str) -> dict[Squad, list[Squad]]:
    """Each squad of `player` that still owes a fight, with what it stands beside."""
    out = {}
    for squad in state.squads_of(player):
        if squad.trapped or squad.acted:
            continue
        if state.phase != 1 and squad.key not in state.obliged:
            continue
        enemies = beside(state, squad)
        if state.phase == 1 and squad.protector and any(
            c.ability("calm_monsters") for c in squad.creatures
        ):  # a subdued Warden: no Phase 1 Combat with the monsters beside it (19.6d)
            enemies = [e for e in enemies if not e.wandering]
        if enemies:
            out[squad] = enemies
    return out


def must_fight(state: State, player: str) -> None:
    """Refuse to go on while a squad of `player` owes a fight."""
    debts = open_debts(state, player)
    if debts:
        squad, enemies = next(iter(debts.items()))
        when = "Phase 1 comes first" if state.phase == 1 else "before the turn goes on"
        raise Illegal(
            "must-fight",
            f"{squad.key} is next to {enemies[0].key}: {when} (it must fight, hire or subdue)",
        )


def gate(state: State, name: str, args: Args) -> None:
    """Before an action: refuse it while it would leave a fight owed behind."""
    if name in ENDING:
        must_fight(state, args.actor)
        return
    debts = open_debts(state, args.actor)
    if not debts:
        return
    if state.phase == 1 and name in ACTING and name not in DEALING:
        must_fight(state, args.actor)
    if name == "move":
        return  # the move refuses itself: the squad has stopped (rule 13.1j)
    target = _target(args) if name in DEALING else None
    for squad in _acting(state, name, args):
        if squad in debts and target not in debts[squad]:
            raise Illegal(
                "must-fight",
                f"{squad.key} is next to {debts[squad][0].key}: its action is to fight, "
                "hire or subdue it",
            )


def _acting(state: State, name: str, args: Args) -> list[Squad]:
    found = []
    for field in ACTING.get(name, ()):
        if field == "N":
            n = state.n_squad(args.actor)
            found += [n] if n is not None else []
        elif field == "with":
            found += args.squads("with")
        elif args.has(field):
            found.append(args.squad(field))
    return found


def _target(args: Args) -> Squad | None:
    """What a fight, hire or subdue is aimed at (a Crystal is no squad beside anyone)."""
    for field in ("target", "monster"):
        if args.has(field):
            return args.squad(field)
    return None
