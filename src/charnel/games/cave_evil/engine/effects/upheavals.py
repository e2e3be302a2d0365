"""Events that make every player give something up or trade: a spell or an item discarded,
a card passed on, a card drawn, a lone creature lost, a creature gone wandering. The players
choose in turn order from the current player (each a scripted choice, in that order)."""

from __future__ import annotations

from typing import Any

from .. import death, events, hexes
from ..state import (
    CONJURATION_DECKS,
    RESOURCES,
    Card,
    Illegal,
    Squad,
)
from . import (
    DECK_NAMES,
    RESOURCE_NAMES,
    Resolution,
    effect,
    flag,
    whole,
)

COUNTS = {2: "two", 3: "three", 4: "four"}


def in_turn_order(done: Resolution) -> list[str]:
    return done.state.in_turn_order(done.player)


def _pick(done: Resolution, options: list[Card], why: str) -> Card:
    from ..args import find_card

    default = options[0].name if len(options) == 1 else None
    name = done.state.choices.take("card", why, done.state.path, default=default)
    return find_card(options, name, done.state.path, why)


def discard(state, card: Card) -> None:
    if card.deck in CONJURATION_DECKS:
        state.discards[card.deck].insert(0, card)
    else:
        state.box.append(card)


def _spell_each(done: Resolution, value: Any) -> None:
    for player in in_turn_order(done):
        held = [(s, c) for s in done.state.squads_of(player) for c in s.items if c.kind == "spell"]
        if not held:
            continue
        card = _pick(done, [c for _, c in held], f"the Spell {player} discards")
        squad = next(s for s, c in held if c is card)
        squad.items.remove(card)
        discard(done.state, card)


effect(
    "discard_spell",
    kinds=("event",),
    clause="19.5a",
    role="the event that takes a Spell from each player",
    check=flag,
    wording=lambda v: [
        "Each player discards one Spell carried by one of their Squads, if they have any"
    ],
    run=_spell_each,
)


def _item_each(done: Resolution, least: int) -> None:
    for player in in_turn_order(done):
        for squad in done.state.squads_of(player):
            if len(squad.items) >= least:
                card = _pick(done, list(squad.items), f"the card {squad.key} discards")
                squad.items.remove(card)
                discard(done.state, card)


effect(
    "discard_item",
    kinds=("event",),
    clause="19.5a",
    role="the event that takes an Item from laden squads",
    check=whole(2, 9),
    wording=lambda n: [
        f"Every Squad carrying {n} or more Items discards one of them, chosen by the Squad's player"
    ],
    run=_item_each,
)


def _pass_left(done: Resolution, value: Any) -> None:
    state = done.state
    players = in_turn_order(done)
    given = []
    for player in players:
        hand = state.players[player].hand
        given.append(_pick(done, hand, f"the card {player} passes") if hand else None)
    for i, player in enumerate(players):
        card = given[i]
        if card is None:
            continue
        left = state.order[(state.order.index(player) + 1) % len(state.order)]
        while state.players[left].out:
            left = state.order[(state.order.index(left) + 1) % len(state.order)]
        state.players[player].hand.remove(card)
        state.players[left].hand.append(card)


effect(
    "pass_left",
    kinds=("event",),
    clause="19.5c",
    role="the event that passes cards",
    check=flag,
    wording=lambda v: [
        "Each player passes one card of their choice from their hand to the player on their left"
    ],
    run=_pass_left,
)


def _draw_each(done: Resolution, deck: str) -> None:
    events.draw_into_hands(done.state, deck, in_turn_order(done))


effect(
    "draw_each",
    kinds=("event",),
    clause="19.5c",
    role="the event that gives every player a card",
    check=lambda v: None if v in CONJURATION_DECKS else "a conjuration deck",
    wording=lambda deck: [
        f"Each player draws one card from the {DECK_NAMES[deck]} deck and keeps it. Events drawn "
        "this way are put in the box and another card is drawn"
    ],
    run=_draw_each,
)


def _lonely(done: Resolution, price: int) -> None:
    state = done.state
    for player in in_turn_order(done):
        for squad in done.state.squads_of(player):
            if squad.label == "N" or len(squad.creatures) != 1:
                continue
            paid = state.choices.take(
                "resource",
                f"what {squad.key} pays to keep its creature (or none)",
                state.path,
                default="none",
            )
            if paid in RESOURCES and squad.resources[paid] >= price:
                squad.resources[paid] -= price
            elif paid != "none":
                raise Illegal("cannot-pay", f"{squad.key} has not {price} {paid}")
            else:
                death.kill_creatures(state, squad, list(squad.creatures), None)


effect(
    "lone_creatures",
    kinds=("event",),
    clause="19.5d",
    role="the event that takes lone creatures",
    check=whole(1, 9),
    wording=lambda n: [
        "Each Squad holding only one creature, other than an N Squad, loses that creature unless "
        f"its player pays {n} resources of one type from that Squad"
    ],
    run=_lonely,
)


def goes_wandering(state, squad: Squad, card: Card, at: hexes.Hex | None) -> None:
    """The creature leaves its squad and becomes a Wandering Monster: where the squad stands if
    it was the squad's last creature, else on `at`."""
    squad.creatures.remove(card)
    marker = death.next_marker(state)
    if not squad.creatures:
        del state.squads[squad.key]
        squad.owner, squad.label, squad.creatures = None, marker, [card]
        state.squads[squad.key] = squad
        return
    if (
        at is None
        or not hexes.adjacent(at, squad.at)
        or not state.cave.is_open(at)
        or state.occupant(at) is not None
    ):
        raise Illegal("no-room", f"the creature leaving {squad.key} needs a free adjacent space")
    state.squads[marker] = Squad(None, marker, at=at, creatures=[card])


def _place(done: Resolution, squad: Squad) -> hexes.Hex:
    return done.state.choices.take_hex("spawn_at", f"the space beside {squad.key}", done.state.path)


def _payday(done: Resolution, value: dict) -> None:
    state = done.state
    for player in in_turn_order(done):
        for squad in done.state.squads_of(player):
            paid_for = [c for c in squad.creatures if value["species"] in c.species]
            for card in paid_for:
                if squad.resources[value["resource"]] >= value["amount"]:
                    squad.resources[value["resource"]] -= value["amount"]
                else:
                    at = None if len(squad.creatures) == 1 else _place(done, squad)
                    goes_wandering(state, squad, card, at)


effect(
    "upkeep",
    kinds=("event",),
    clause="19.5e",
    role="the event that makes squads pay their creatures",
    check=lambda v: (
        None
        if isinstance(v, dict)
        and set(v) == {"species", "resource", "amount"}
        and v["resource"] in RESOURCES
        else "{species, resource, amount}"
    ),
    wording=lambda v: [
        f"Each player with a Squad holding a {v['species']} must pay {v['amount']} "
        f"{RESOURCE_NAMES[v['resource']]} per {v['species']} from that Squad, or that "
        f"{v['species']} becomes a Wandering Monster where it stands"
    ],
    run=_payday,
)


def _revolt(done: Resolution, least: int) -> None:
    for player in in_turn_order(done):
        for squad in done.state.squads_of(player):
            if len(squad.creatures) < least:
                continue
            options = [c for c in squad.creatures if c.kind != "necromancer"]
            card = _pick(done, options, f"the creature that leaves {squad.key}")
            goes_wandering(done.state, squad, card, _place(done, squad))


effect(
    "revolt",
    kinds=("event",),
    clause="19.5e",
    role="the event that frees a creature of each full squad",
    check=whole(2, 9),
    wording=lambda n: [
        f"Each Squad of {COUNTS.get(n, n)} or more creatures loses one creature other than a "
        "Necromancer, chosen by its player: it becomes a Wandering Monster adjacent to its old "
        "Squad"
    ],
    run=_revolt,
)


def _gone_wrong(done: Resolution, resource: str) -> None:
    mine = [
        (s, c)
        for s in done.state.squads_of(done.player)
        for c in s.creatures
        if c.kind != "necromancer" and c.cost.get(resource, 0) > 0
    ]
    if not mine:
        return
    card = _pick(done, [c for _, c in mine], "the creature that breaks loose")
    squad = next(s for s, c in mine if c is card)
    at = None if len(squad.creatures) == 1 else _place(done, squad)
    goes_wandering(done.state, squad, card, at)


effect(
    "breaks_loose",
    kinds=("event",),
    clause="19.5e",
    role="the event that frees a summoned creature",
    check=lambda v: None if v in RESOURCES else "a resource",
    wording=lambda r: [
        "The current player chooses one of their creatures whose cost includes "
        f"{RESOURCE_NAMES[r]}: it becomes a Wandering Monster where it stands"
    ],
    run=_gone_wrong,
)
