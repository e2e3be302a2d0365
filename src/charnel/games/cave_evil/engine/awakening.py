"""The Awakening Evils as the engine runs them. The Darkest Evil Bitch comes for the
Necromancer with the fewest Enemy Kill Points (ties: each tied player rolls a D12, in turn
order, the lowest is chosen, equal lowest rolling again) and fights its N squad alone, the N
squad without items or spells; she is the attacker (ruling 17.2g). Before they awaken, the
Evil Black Old Goat blesses a Necromancer with 9 Enemy Kill Points that kneels beside it,
and the Darkest Statue of Death, bathed in at least 6 Kill Points, gazes at a squad: a
Ranged Combat with Weapon, earning nothing. Both stand on The Pit once revealed."""

from __future__ import annotations

from . import combat, death, hexes, sides
from .args import Args, find_card
from .sides import Party
from .state import Illegal, Squad, State

FIGHTERS = {"darkest evil bitch"}


def evil_attacks(state: State, args: Args) -> None:
    name = (state.awakening or "").lower()
    if not state.awakened or name not in FIGHTERS:
        raise Illegal("not-awakened", "no awakened evil that comes to fight is in play")
    evil = state.cards.make(state.awakening, args.at("first"))
    target = death.by_enemy_points(state, fewest=True)
    n = state.n_squad(target)
    if n is None:
        raise Illegal("no-necromancer", f"{target} has no Necromancer")
    shadow = Squad(None, "awakened", at=n.at, creatures=[evil])
    record = combat.run_fight(
        state,
        [Party(shadow, [evil], items=False)],
        [Party(n, list(n.creatures), items=False)],
        args.attribute("first"),
        "awakened",
    )
    record.attacker, record.defender = [state.awakening], [n.key]
    state.fights.append(record)
    if record.winner == "attacker":
        record.killed = [n.key]
        death.kill(state, n, None)  # nobody earns Kill Points (ruling 17.2g)
    elif state.winner is None:
        state.winner = target


def _beside_the_pit(state: State, actor: str, card: str) -> Squad:
    if (state.awakening or "").lower() != card or not state.revealed or state.awakened:
        raise Illegal("not-revealed", f"the {card.title()} is not revealed and still asleep")
    n = state.n_squad(actor)
    pit = state.cave.the_pit
    if n is None or pit is None or not hexes.adjacent(n.at, pit):
        raise Illegal("not-adjacent", "the Necromancer must stand beside The Pit")
    return n


def kneel(state: State, args: Args) -> None:
    from .effects import evil

    _beside_the_pit(state, args.actor, "evil black old goat")
    needed = evil.has(state, "kneel") or 9
    points = death.kill_points(state.players[args.actor].kills_enemy, True)
    if points < needed:
        raise Illegal("kill-points", f"the Goat blesses {needed} Enemy Kill Points, not {points:g}")
    state.winner = args.actor


def bathe(state: State, args: Args) -> None:
    """The Necromancer puts Kill Point cards worth at least 6 in the box, and the Statue
    gazes at `target`, within 8 spaces of The Pit and in its line of sight."""
    from .battle import sight
    from .effects import evil

    _beside_the_pit(state, args.actor, "darkest statue of death")
    if evil.has(state, "on_the_pit") == "advanced" and not state.advanced:
        raise Illegal("advanced", "the Statue is on the map in the advanced game only")
    asked = evil.has(state, "offering") or 6
    player = state.players[args.actor]
    stacks = player.kills_enemy + player.kills_wandering
    paid = [
        find_card(stacks, name, (*args.at("kills"), i), f"{args.actor}'s Kill Points")
        for i, name in enumerate(args.need("kills"))
    ]
    worth = death.kill_points([c for c in paid if c in player.kills_enemy], True)
    worth += death.kill_points([c for c in paid if c in player.kills_wandering], False)
    if worth < asked:
        raise Illegal(
            "kill-points", f"the Statue wants at least {asked} Kill Points, not {worth:g}"
        )
    target = args.squad("target")
    pit = state.cave.the_pit
    if hexes.distance(pit, target.at) > 8:
        raise Illegal("out-of-range", f"{target.key} is beyond the Statue's 8 spaces")
    if not sight(state, pit, target.at):
        raise Illegal("no-line-of-sight", f"the Statue does not see {target.key}")
    for card in paid:
        (player.kills_enemy if card in player.kills_enemy else player.kills_wandering).remove(card)
        state.box.append(card)
    statue = state.cards.make(state.awakening, args.at("target"))
    gazer = Squad(None, "statue", at=pit, creatures=[statue])
    record = combat.run_fight(
        state, [Party(gazer, [statue])], [sides.party(target)], "wp", "ranged"
    )
    record.attacker = [state.awakening]
    state.fights.append(record)
    if record.winner == "attacker":
        record.killed = [target.key]
        death.kill(state, target, None)  # the gaze earns no Kill Points
