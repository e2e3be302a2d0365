"""An attack: declare attackers, blocks (Evader, Hunter, one blocker each), then the fight:
unblocked attackers reap their size (+ Reaper), blocked pairs deal their strengths at once."""

from __future__ import annotations

from charnel.engine.errors import ExampleError, Illegal

from . import abilities, damage, souls
from .refs import Args
from .state import Combat, State


def attack(state: State, a: Args) -> None:
    player = a.actor
    _over(state)
    if state.combat is not None:
        raise Illegal("in-combat", "an attack is already under way")
    if state.turn != player:
        raise Illegal("not-your-turn", f"only {state.turn} can attack now")
    names = a.require("attackers")
    if not isinstance(names, list) or not names:
        raise ExampleError(a.at("attackers"), "attackers is a list of abominations, e.g. [A, B]")
    enemy = a.get("enemy") or state.enemies(player)[0]
    if enemy not in state.enemies(player):
        raise ExampleError(a.at("enemy"), f"'{enemy}' is not an enemy of {player}")
    attackers = []
    for i, name in enumerate(names):
        abom = a.lookup(name, (*a.at("attackers"), i))
        if not hasattr(abom, "minions"):
            raise ExampleError((*a.at("attackers"), i), f"'{name}' is not an abomination")
        if abom.owner != player:
            raise Illegal("not-yours", f"{abom.name} is not {player}'s")
        why = abilities.attack_refusal(state, abom)
        if why is not None:
            raise Illegal(*why)
        attackers.append(abom)
    for abom in attackers:
        abom.tapped = True
    for name in state.order:  # the mana pool empties when an attack starts
        state.player(name).pool.clear()
    state.combat = Combat(player, enemy, [x.name for x in attackers])
    for abom in attackers:
        if abilities.keywords(state, abom).get("hunter"):
            _hunt(state, abom)


def _hunt(state: State, hunter) -> None:
    choice = state.choose(
        "hunt", lambda v: isinstance(v, dict) and v.get("attacker") == hunter.name
    )
    if choice is None:
        return
    prey = state.abominations.get(str(choice.value.get("target")))
    if prey is None or prey.owner != state.combat.defender:
        raise ExampleError(
            (*choice.path, "target"), "a Hunter chooses one of the defender's abominations"
        )
    prey.tapped = False
    state.combat.hunted[hunter.name] = prey.name


def _over(state: State) -> None:
    """A win ends the game at once, and the attack with it (ruling 10.1g)."""
    if state.winner is not None:
        raise Illegal("game-over", f"the game is over: {state.winner} won")


def block(state: State, a: Args) -> None:
    _over(state)
    combat = state.combat
    if combat is None:
        raise Illegal("no-attack", "there is no attack to block")
    if combat.blockers_declared:
        raise Illegal("already-declared", "blockers for this attack were already declared")
    pairs = dict(a.raw)
    for blocker_name, attacker_name in pairs.items():
        path = a.at(blocker_name)
        blocker = a.lookup(blocker_name, path)
        attacker = a.lookup(attacker_name, path)
        if not hasattr(blocker, "minions") or not hasattr(attacker, "minions"):
            raise ExampleError(path, "block pairs are written 'blocker: attacker', e.g. {C: A}")
        if blocker.owner != combat.defender:
            raise Illegal("not-defender", f"{blocker.name} is not the defender's")
        if attacker.name not in combat.attackers or attacker.name in combat.left:
            raise Illegal("not-attacking", f"{attacker.name} is not attacking")
        if blocker.name in combat.blocks.values():
            raise Illegal("blocker-taken", f"{blocker.name} is already blocking")
        if attacker.name in combat.blocks:
            raise Illegal("already-blocked", f"{attacker.name} already has a blocker")
        why = abilities.block_refusal(state, blocker, attacker)
        if why is not None:
            raise Illegal(*why)
        hunter = next((h for h, p in combat.hunted.items() if p == blocker.name), None)
        if (
            hunter is not None
            and hunter != attacker.name
            and _could_block(state, blocker.name, hunter)
        ):
            raise Illegal("hunter", f"{blocker.name} must block the Hunter {hunter}")
        combat.blocks[attacker.name] = blocker.name
    _forced_blocks(state)
    combat.blockers_declared = True
    combat.blocked = set(combat.blocks)
    combat.defender_played = False  # a new window: the aggressor plays first again (10.5a)


def _could_block(state: State, blocker: str, attacker: str) -> bool:
    b, t = state.abominations.get(blocker), state.abominations.get(attacker)
    return b is not None and t is not None and abilities.block_refusal(state, b, t) is None


def _forced_blocks(state: State) -> None:
    combat = state.combat
    for hunter, prey in combat.hunted.items():
        if prey in combat.blocks.values() or not _could_block(state, prey, hunter):
            continue  # Hunter forces a block only from prey able to make it (14.6b)
        if hunter in combat.blocks:
            raise Illegal("hunter", f"{prey} must block the Hunter {hunter}")
        if hunter not in combat.left:
            combat.blocks[hunter] = prey


def fight(state: State, a: Args | None = None) -> None:
    """End the attack: reap for unblocked attackers, damage for blocked pairs."""
    _over(state)
    combat = state.combat
    if combat is None:
        raise Illegal("no-attack", "there is no attack to finish")
    if not combat.blockers_declared:
        _forced_blocks(state)
        combat.blockers_declared = True
        combat.blocked = set(combat.blocks)
    live = [n for n in combat.attackers if n not in combat.left and n in state.abominations]
    for name in live:
        if name in combat.blocked:
            continue
        abom = state.abominations[name]
        wanted = abom.size + abilities.keywords(state, abom).get("reaper", 0)
        taken = souls.lose(state, combat.defender, wanted)
        souls.gain(state, combat.aggressor, taken)
    if state.winner is not None:  # every unblocked attacker reaped; nothing is fought
        state.combat = None
        return
    hits = []  # every pair fights at the same moment (ruling 10.7e)
    for name in live:
        blocker_name = combat.blocks.get(name)
        if (
            blocker_name is None
            or blocker_name in combat.left
            or blocker_name not in state.abominations
        ):
            continue  # blocked stays blocked, even when the blocker is gone
        attacker, blocker = state.abominations[name], state.abominations[blocker_name]
        for dealer, victim in ((attacker, blocker), (blocker, attacker)):
            amount = abilities.strength(state, dealer)
            hits.append((victim, amount, _split(state, dealer, victim, amount)))
    damage.deal_at_once(state, hits, combat=True)
    state.combat = None


def _split(state: State, dealer, victim, amount: int) -> list[int] | None:
    if not abilities.keywords(state, dealer).get("ripper"):
        return None
    choice = state.choose(
        "rip", lambda v: isinstance(v, dict) and v.get("attacker", dealer.name) == dealer.name
    )
    if choice is None:
        return None
    split = choice.value.get("split")
    if not isinstance(split, list) or any(not isinstance(n, int) or n < 0 for n in split):
        raise ExampleError(
            (*choice.path, "split"), "split is a list of damage per minion, top first"
        )
    if len(split) > victim.size or sum(split) != amount:
        raise ExampleError(
            (*choice.path, "split"),
            f"{dealer.name} deals {amount} damage to {victim.size} minions; "
            f"the split {split} doesn't fit (every point is assigned, rule 14.13b)",
        )
    return split
