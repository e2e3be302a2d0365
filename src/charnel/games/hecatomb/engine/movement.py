"""Moving cards between zones and abominations: sever, stitch, exile, exhume, retrieve,
draw, discard, tapping. Moves last; they are never undone at end of turn."""

from __future__ import annotations

from charnel.engine.errors import ExampleError, Illegal

from . import damage
from .state import Abomination, Card, State


def sever(state: State, card: Card, name: str | None = None) -> Abomination:
    source = state.where_is(card)
    assert source is not None
    source.minions.remove(card)
    name = name or state.fresh_name()
    # a minion someone gained control of forms an abomination of theirs
    new = Abomination(name, card.controller or source.owner, [card])
    card.controller = None  # from now on it is controlled as part of its abomination
    state.abominations[name] = new
    damage.settle(state, source)
    return new


def stitch(
    state: State, cards: list[Card], player: str, onto: Abomination | None, name: str | None
):
    """Stitch minions onto one of the player's abominations, or together into a new one.
    The first card listed ends on top. Conditional abilities don't happen."""
    if onto is not None and onto.owner != player:
        raise Illegal(
            "enemy-abomination", f"minions can't be stitched onto {onto.name}, an enemy's"
        )
    sources = []
    for card in cards:
        source = state.where_is(card)
        if source is None:
            raise Illegal("not-in-play", f"{card.name} is not in play")
        if onto is not None and source is onto:
            raise Illegal("same-abomination", f"{card.name} is already in {onto.name}")
        source.minions.remove(card)
        card.controller = None
        sources.append(source)
    if onto is None:
        name = name or state.fresh_name()
        onto = Abomination(name, player, list(cards))
        state.abominations[name] = onto
    else:
        onto.minions[0:0] = list(cards)
        onto.added = True  # stitching onto it keeps it from attacking this turn
    for source in sources:
        if source.name in state.abominations:
            damage.settle(state, source)
    damage.trim(state, onto)
    return onto


def take_from_play(state: State, card: Card) -> None:
    source = state.where_is(card)
    if source is not None:
        source.minions.remove(card)
        card.controller = None
        damage.settle(state, source)


def exile(state: State, card: Card) -> None:
    """Return a card in play to its owner's hand."""
    take_from_play(state, card)
    state.player(card.owner).hand.append(card)


def take_fitting(state: State, cards: list[Card], fits, where: str) -> Card | None:
    """The card an effect takes from a zone: the scripted `take` choice among those that fit,
    else the first that fits; None when none does."""
    fitting = [c for c in cards if fits(c)]
    if not fitting:
        return None
    choice = state.choose("take")
    if choice is None:
        return fitting[0]
    picked = next((c for c in fitting if c.answers_to(choice.value)), None)
    if picked is None:
        raise ExampleError(choice.path, f"no card '{choice.value}' that fits in {where}")
    return picked


def draw(state: State, player: str, amount: int) -> None:
    """Draw up to `amount`; an empty deck draws nothing and play goes on."""
    p = state.player(player)
    for _ in range(max(amount, 0)):
        if not p.deck:
            return
        p.hand.append(p.deck.pop(0))


def find(cards: list[Card], ref, where: str, path: tuple) -> Card:
    for card in cards:
        if card.answers_to(ref):
            return card
    raise ExampleError(path, f"no card '{ref}' in {where}")


def discard(state: State, player: str, card: Card) -> None:
    p = state.player(player)
    p.hand.remove(card)
    p.graveyard.append(card)
