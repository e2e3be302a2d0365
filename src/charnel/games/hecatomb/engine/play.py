"""Playing cards: minions (new abomination or on top, at most 5; Host only new; nothing on a
Parasite; conditional abilities on a matching trigger), fates, relics, gods; mana cards;
tap abilities."""

from __future__ import annotations

from charnel.engine.errors import ExampleError, Illegal

from . import abilities, costs, effects, verbs
from .refs import Args, chosen_targets
from .state import MAX_SIZE, Abomination, Card, InPlay, State


def can_act(state: State, player: str, *, combat_card: bool) -> None:
    """Cards are played on your own turn, or in an attack by its two sides (combat cards only)."""
    if state.winner is not None:
        raise Illegal("game-over", f"the game is over: {state.winner} won")
    combat = state.combat
    if combat is not None:
        if player not in (combat.aggressor, combat.defender):
            raise Illegal("not-in-combat", f"{player} is not in this attack")
        if not combat_card:
            raise Illegal("not-combat", "only combat cards can be played during an attack")
        take_turn_in_window(state, player)
    elif state.turn != player:
        raise Illegal("not-your-turn", f"it is {state.turn}'s turn")


def take_turn_in_window(state: State, player: str) -> None:
    """The aggressor plays combat cards first in each window, then the defender."""
    combat = state.combat
    if player == combat.defender:
        combat.defender_played = True
    elif combat.defender_played:
        raise Illegal(
            "out-of-turn",
            f"{combat.defender} has played in this window; the aggressor plays before, not after",
        )


def add_mana(state: State, a: Args) -> None:
    player = a.player()
    p = state.player(player)
    card = a.card_in(p.hand, f"{player}'s hand")
    if state.combat is not None:
        raise Illegal("in-combat", "mana cards can't be added during an attack")
    if state.turn != player:
        raise Illegal("not-your-turn", f"it is {state.turn}'s turn")
    if p.mana_added:
        raise Illegal("mana-once", f"{player} already added a mana card this turn")
    p.hand.remove(card)
    card.tapped = False
    p.mana.append(card)
    p.mana_added = True


def check_stack(state: State, player: str, card: Card, on: Abomination) -> None:
    if on.owner != player:
        raise Illegal("enemy-abomination", f"{on.name} is not {player}'s")
    if card.has("host"):
        raise Illegal("host", f"{card.name} is a Host: it can only start a new abomination")
    if abilities.keywords(state, on).get("parasite"):
        raise Illegal("parasite", f"{on.name} is a Parasite: nothing can be played on top of it")
    if on.size >= MAX_SIZE:
        raise Illegal("full", f"{on.name} already has {MAX_SIZE} minions")


def place_minion(
    state: State,
    player: str,
    card: Card,
    on: Abomination | None,
    name: str | None,
    *,
    from_hand: bool,
    path: tuple,
    chosen: list | None = None,
) -> Abomination:
    if on is None:
        name = name or state.fresh_name()
        if name in state.abominations:
            raise ExampleError(path, f"an abomination named '{name}' is already in play")
        abom = Abomination(name, player, [card])
        state.abominations[name] = abom
        return abom
    check_stack(state, player, card, on)
    under = on.top
    on.minions.insert(0, card)
    on.added = True
    cond = card.conditional
    if from_hand and cond and cond.get("doom") in under.triggers:
        summons = effects.timed(cond.get("effects", []), "play")
        if summons:
            declined = state.choose("summon", lambda v: v is False)
            if declined is None:
                effects.run(
                    state,
                    card,
                    summons,
                    player,
                    doom=cond.get("doom"),
                    chosen=chosen if chosen is not None else [],
                    holder=on,
                    path=path,
                    skip_untargetable=True,
                )
    return on


def play(state: State, a: Args) -> None:
    player = a.player()
    p = state.player(player)
    card = a.card_in(p.hand, f"{player}'s hand")
    can_act(state, player, combat_card=card.combat)
    chosen = chosen_targets(a.get("targets"), a.at("targets"))
    on = a.abomination("on") if a.has("on") else None
    x = a.get("x")
    if x is None:
        x = costs.x_paid(state, player, card, a.get("pay"), a.at("pay"))
    if card.type == "minion" and on is not None:
        check_stack(state, player, card, on)
    elif card.type == "fate":
        effects.check_targets(
            state, card, effects.timed(card.effects, "play"), player, card.doom, a.path
        )
    elif card.type not in ("minion", "relic", "god"):
        raise ExampleError(a.at("card"), f"{card.name} is a {card.type}; it can't be played")
    costs.pay(state, player, card, costs.cost_of(card, x, a.at("card")), a.get("pay"), a.at("pay"))
    p.hand.remove(card)
    if card.type == "minion":
        place_minion(
            state, player, card, on, a.get("as"), from_hand=True, path=a.path, chosen=chosen
        )
        effects.after_play(state, card, player)
        return
    if card.type != "fate":  # relics and gods stay in play, their effects from there
        item = InPlay(a.get("as") or card.name, card)
        if card.type == "god":
            if p.god is not None:  # a new god sacrifices the old one
                p.graveyard.append(p.god.card)
            p.god = item
        else:
            p.relics.append(item)
    effects.run(
        state,
        card,
        effects.timed(card.effects, "play"),
        player,
        doom=card.doom,
        chosen=chosen,
        x=x,
        path=a.path,
        # a fate needs its targets to be played; a relic's or god's effect just doesn't happen
        skip_untargetable=card.type != "fate",
    )
    if card.type == "fate":
        p.graveyard.append(card)
    effects.after_play(state, card, player)


def tap_ability(state: State, a: Args) -> None:
    """Tap an abomination to use a minion's ↻N ability: untapped, size at least N, and at a
    time a combat fate could be played."""
    abom = a.abomination("abomination")
    card = (
        a.minion("minion")
        if a.has("minion")
        else next((m for m in abom.minions if m.has("tap")), None)
    )
    if card is None or state.where_is(card) is not abom or not card.has("tap"):
        raise ExampleError(a.path, f"{abom.name} has no minion with a tap ability")
    player = abom.owner
    if state.winner is not None:
        raise Illegal("game-over", f"the game is over: {state.winner} won")
    combat = state.combat
    if (combat is None and state.turn != player) or (
        combat is not None and player not in (combat.aggressor, combat.defender)
    ):
        raise Illegal(
            "timing", "a tap ability is used only when its player could play a combat fate"
        )
    if combat is not None:
        take_turn_in_window(state, player)
    size = int(card.params("tap")[0].get("size", 0))
    if abom.tapped:
        raise Illegal("tapped", f"{abom.name} is tapped")
    if abom.size < size:
        raise Illegal("tap-size", f"{abom.name} has {abom.size} minions; the ability needs {size}")
    ability = effects.timed(card.effects, "tap")
    effects.check_targets(state, card, ability, player, card.doom, a.path)
    abom.tapped = True
    chosen = chosen_targets(a.get("targets"), a.at("targets"))
    effects.run(
        state, card, ability, player, doom=card.doom, chosen=chosen, holder=abom, path=a.path
    )


def put_into_play(state: State, a: Args) -> None:
    """The effect that puts a minion from a hand into play, as playing it would, unpaid."""
    player = state.player(a.player())
    card = a.card_in(player.hand, f"{player.name}'s hand")
    on = a.abomination("on") if a.has("on") else None
    place_minion(state, player.name, card, on, a.get("as"), from_hand=False, path=a.path)
    player.hand.remove(card)


# An effect may put a minion into play, whose arrival runs effects in turn: the verb is
# added to the effects' verbs here, so that effects need not import playing.
verbs.VERBS["put_into_play"] = (put_into_play, {"card", "on", "as", "player"})
