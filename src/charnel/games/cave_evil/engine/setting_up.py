"""Set-up steps the rules decide with dice and cards: the first player's roll (ties roll
again), the starting hands (a Necromonk, two Bribe, a Construct and a Summon card; an Event
dealt goes to the box and is replaced from the same deck), and each Necromancer's three
starting resources of value 1."""

from __future__ import annotations

from .args import Args
from .conjure import draw_past_events, n_squad, to_box
from .state import RESOURCES, Illegal, State

STARTING_HAND = (("necromonk", 1), ("bribe", 2), ("construct", 1), ("summon", 1))
STARTING_RESOURCES = 3


def roll_for_first(state: State, args: Args) -> None:
    """Every player rolls a D12, in seating order; the highest goes first, ties roll again.
    Seating (clockwise) is kept: the order turns to begin with the first player."""
    rolling = list(state.order)
    while len(rolling) > 1:
        rolls = {
            p: state.dice.roll(12, f"{p}'s roll for first player", state.path) for p in rolling
        }
        rolling = [p for p in rolling if rolls[p] == max(rolls.values())]
    first = state.order.index(rolling[0])
    state.order = state.order[first:] + state.order[:first]
    state.turn = state.order[0]


def deal(state: State, args: Args) -> None:
    for player in state.order:
        for deck, count in STARTING_HAND:
            for _ in range(count):
                card = draw_past_events(state, deck, to_box(state))
                state.players[player].hand.append(card)


def starting_resources(state: State, args: Args) -> None:
    taken = args.resources("resources")
    if sum(taken.values()) != STARTING_RESOURCES:
        raise Illegal(
            "three-resources",
            f"each Necromancer begins with 3 resources of value 1, not {sum(taken.values())}",
        )
    squad = n_squad(state, args.actor)
    for r in RESOURCES:
        squad.resources[r] += taken[r]
