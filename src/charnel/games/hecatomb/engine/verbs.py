"""The verbs that both examples (`when`) and card effects use: damage, destruction, moves,
souls, stat changes and rule overrides. Each reads its arguments through `Args`, so the
same code serves a named target and a chosen one."""

from __future__ import annotations

from charnel.engine.errors import ExampleError, Illegal, reject_unknown

from . import damage, movement, souls
from .refs import Args
from .state import Abomination, Card, InPlay, State, Temporary


def do_damage(state: State, a: Args) -> None:
    abom = a.abomination()
    damage.deal_damage(state, abom, a.amount())


def do_destroy(state: State, a: Args, *, sacrifice: bool = False) -> None:
    found = a.thing()
    if sacrifice:
        owner = (
            found.card.owner
            if isinstance(found, InPlay)
            else (found.owner if isinstance(found, Abomination) else state.where_is(found).owner)
        )
        if owner != a.actor:
            raise Illegal("not-yours", "a player can sacrifice only their own cards")
    if isinstance(found, InPlay):
        _destroy_in_play(state, found)
    elif isinstance(found, Abomination):
        damage.remove_destroyed(state, found, list(found.minions), sacrifice=sacrifice)
    else:
        damage.destroy_card(state, found, sacrifice=sacrifice)


def _leave_play(state: State, item: InPlay) -> None:
    """A relic or god leaves its slot; where its card goes is the caller's."""
    for name in state.order:
        p = state.player(name)
        if p.god is item:
            p.god = None
        p.relics = [r for r in p.relics if r is not item]


def _destroy_in_play(state: State, item: InPlay) -> None:
    _leave_play(state, item)
    state.player(item.card.owner).graveyard.append(item.card)


def do_sacrifice(state: State, a: Args) -> None:
    do_destroy(state, a, sacrifice=True)


def do_sever(state: State, a: Args) -> None:
    movement.sever(state, a.minion(), a.get("as"))


def do_stitch(state: State, a: Args) -> None:
    cards = a.minions("minions")
    onto = a.abomination("onto") if a.has("onto") else None
    if onto is None and not a.has("as") and len(cards) < 1:
        raise ExampleError(a.path, "stitch needs 'onto:' or minions to stitch together")
    movement.stitch(state, cards, a.actor, onto, a.get("as"))


def _out_of_play(state: State, a: Args, zone: str, move_minion) -> None:
    """Every card of the thing named (an abomination's minions, a minion, a relic or a god)
    goes to its owner's `zone`; minions through `move_minion`, which knows their stacks."""
    found = a.thing()
    for card in found.minions[:] if isinstance(found, Abomination) else [found]:
        if isinstance(card, InPlay):
            _leave_play(state, card)
            getattr(state.player(card.card.owner), zone).append(card.card)
        else:
            move_minion(state, card)


def do_exile(state: State, a: Args) -> None:
    _out_of_play(state, a, "hand", movement.exile)


def _remove_minion(state: State, card) -> None:
    movement.take_from_play(state, card)
    state.player(card.owner).removed.append(card)


def do_remove(state: State, a: Args) -> None:
    """Remove from the game: out of play into the owner's removed-from-game zone."""
    _out_of_play(state, a, "removed", _remove_minion)


CARD_FILTERS = {"type", "subtype", "doom"}


def _from_zone(state: State, a: Args, cards: list[Card], where: str) -> Card | None:
    """`card: NAME` names the card; `card: {type, subtype, doom}` (card effects) describes it,
    and the player takes one that fits (`take` choice), or none if none fits."""
    wanted = a.require("card")
    if not isinstance(wanted, dict):
        return a.card_in(cards, where)
    reject_unknown(wanted, CARD_FILTERS, a.at("card"), "card filter")
    return movement.take_fitting(
        state,
        cards,
        lambda c: all(getattr(c, k) == v for k, v in wanted.items()),
        where,
    )


def do_exhume(state: State, a: Args) -> None:
    player = state.player(a.player())
    card = _from_zone(state, a, player.graveyard, f"{player.name}'s graveyard")
    if card is None:
        return  # nothing fits: do as much as you can
    player.graveyard.remove(card)
    state.player(card.owner).hand.append(card)


def do_retrieve(state: State, a: Args) -> None:
    """Search the deck, show the card to every player, put it into the hand, shuffle."""
    player = state.player(a.player())
    card = _from_zone(state, a, player.deck, f"{player.name}'s deck")
    if card is not None:
        player.deck.remove(card)
        for other in state.enemies(player.name):
            state.player(other).seen.append(card)
        player.hand.append(card)
    player.shuffled = True


def do_look_at_hand(state: State, a: Args) -> None:
    """The acting player sees another player's hand."""
    target = a.player("of")
    if target == a.actor:
        raise ExampleError(a.at("of"), "a player looks at another player's hand ('of:')")
    state.player(a.actor).seen.extend(state.player(target).hand)


def do_gain_control(state: State, a: Args) -> None:
    """An abomination changes hands with its minions; a minion changes hands alone, and forms
    an abomination of its new controller when it is severed from its old one."""
    found = a.thing()
    if isinstance(found, Abomination):
        found.owner = a.actor
    elif isinstance(found, Card):
        holder = state.where_is(found)
        if holder is not None and holder.owner == a.actor:
            found.controller = None
        else:
            found.controller = a.actor
    else:
        raise ExampleError(a.at("target"), "control is gained of a minion or an abomination")


def do_draw(state: State, a: Args) -> None:
    for who in a.players():
        movement.draw(state, who, a.amount("amount", 1))


def do_discard(state: State, a: Args) -> None:
    """Each player discards; a `discard` choice lists the cards one player picks, in order,
    one name for each card (15.7a); past the list, the first card of the hand goes."""
    for who in a.players():
        player = state.player(who)
        if a.has("card"):
            movement.discard(state, who, a.card_in(player.hand, f"{who}'s hand"))
            continue
        amount = a.amount("amount", 1)
        choice = state.choose("discard") if amount > 0 and player.hand else None
        wanted = [] if choice is None else _listed(choice.value)
        if len(wanted) > amount:
            raise ExampleError(
                choice.path, f"{who} discards {amount}; the choice names {len(wanted)} cards"
            )
        for i in range(amount):  # do as much as you can
            if not player.hand:
                break
            picked = player.hand[0]
            if i < len(wanted):
                picked = next((c for c in player.hand if c.answers_to(wanted[i])), None)
                if picked is None:
                    raise ExampleError(
                        (*choice.path, i), f"no card '{wanted[i]}' left in {who}'s hand"
                    )
            movement.discard(state, who, picked)


def _listed(value) -> list:
    return list(value) if isinstance(value, list) else [value]


def do_gain_souls(state: State, a: Args) -> None:
    for who in a.players():
        souls.gain(state, who, a.amount())


def do_lose_souls(state: State, a: Args) -> None:
    for who in a.players():
        souls.lose(state, who, a.amount())


def do_tap(state: State, a: Args) -> None:
    a.abomination().tapped = True


def do_untap(state: State, a: Args) -> None:
    a.abomination().tapped = False


def do_mana(state: State, a: Args) -> None:
    for who in a.players():
        state.player(who).pool.extend([a.get("doom")] * a.amount())


def do_strength(state: State, a: Args) -> None:
    state.temporary.append(Temporary("strength", a.thing(), amount=a.amount()))


def do_grant(state: State, a: Args) -> None:
    state.temporary.append(Temporary("grant", a.thing(), keywords=a.keywords()))


BLOCKER_FILTERS = {"subtype", "doom"}


def _override(kind: str):
    def apply(state: State, a: Args) -> None:
        action = a.require("action")
        actions = ("attack", "block", "be_blocked") if kind == "forbid" else ("attack", "block")
        if action not in actions:
            raise ExampleError(a.at("action"), f"action is one of {', '.join(actions)}")
        by = blocker_filter(a.get("by"), action, a.at("by"))
        state.temporary.append(Temporary(kind, a.abomination(), action=action, by=by))

    return apply


def blocker_filter(by, action: str, path: tuple) -> dict | None:
    """`by:` of `forbid: {action: be_blocked}`: which blockers it shuts out (all without it)."""
    if by is None:
        return None
    if action != "be_blocked" or not isinstance(by, dict):
        raise ExampleError(path, "'by: {subtype, doom}' goes with 'action: be_blocked'")
    reject_unknown(by, BLOCKER_FILTERS, path, "blocker filter")
    return dict(by)


VERBS = {
    "damage": (do_damage, {"target", "amount"}),
    "destroy": (do_destroy, {"target"}),
    "sacrifice": (do_sacrifice, {"target"}),
    "sever": (do_sever, {"target", "as"}),
    "stitch": (do_stitch, {"minions", "onto", "as"}),
    "exile": (do_exile, {"target"}),
    "remove": (do_remove, {"target"}),
    "exhume": (do_exhume, {"card", "player"}),
    "look_at_hand": (do_look_at_hand, {"of"}),
    "gain_control": (do_gain_control, {"target"}),
    "retrieve": (do_retrieve, {"card", "player"}),
    "draw": (do_draw, {"amount", "player"}),
    "discard": (do_discard, {"card", "amount", "player"}),
    "gain_souls": (do_gain_souls, {"amount", "player"}),
    "lose_souls": (do_lose_souls, {"amount", "player"}),
    "tap": (do_tap, {"target"}),
    "untap": (do_untap, {"target"}),
    "mana": (do_mana, {"amount", "doom", "player"}),
    "strength": (do_strength, {"target", "amount"}),
    "grant": (do_grant, {"target", "keywords"}),
    "forbid": (_override("forbid"), {"target", "action", "by"}),
    "allow": (_override("allow"), {"target", "action"}),
}
# `put_into_play` is playing's (engine/play.py adds it): a minion put into play runs its own
# effects in turn, so the verbs cannot import playing without a circle.
