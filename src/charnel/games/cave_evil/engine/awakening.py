"""The Awakened Evils that fight: the Darkest Evil Bitch comes for the Necromancer with the
fewest Enemy Kill Points (ties: each tied player rolls a D12, in turn order, the lowest is
chosen, equal lowest rolling again) and fights its N squad alone, the N squad without items
or spells; she is the attacker (ruling 17.2g)."""

from __future__ import annotations

from charnel.games.cave_evil.engine import combat, death
from charnel.games.cave_evil.engine.args import Args
from charnel.games.cave_evil.engine.combat import Party
from charnel.games.cave_evil.engine.state import Illegal, Squad, State

FIGHTERS = {"darkest evil bitch"}


def her_target(state: State) -> str:
    alive = [p for p in state.order if not state.players[p].out]
    points = {p: death.kill_points(state.players[p].kills_enemy, True) for p in alive}
    tied = [p for p in alive if points[p] == min(points.values())]
    while len(tied) > 1:
        rolls = {
            p: state.dice.roll(12, f"{p}, tied for the fewest Enemy Kill Points", state.path)
            for p in tied
        }
        tied = [p for p in tied if rolls[p] == min(rolls.values())]
    return tied[0]


def evil_attacks(state: State, args: Args) -> None:
    name = (state.awakening or "").lower()
    if not state.awakened or name not in FIGHTERS:
        raise Illegal("not-awakened", "no awakened evil that comes to fight is in play")
    evil = state.cards.make(state.awakening, args.at("first"))
    target = her_target(state)
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
