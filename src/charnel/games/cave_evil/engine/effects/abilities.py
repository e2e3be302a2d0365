"""Creature and item abilities used with the `use` step: taking an item back from a discard
pile, picking up from a neighbouring space, casting through a Soulglass Orb."""

from __future__ import annotations

from .. import hexes, squads
from ..state import CONJURATION_DECKS, Illegal
from . import DECK_NAMES, Resolution, effect, flag
from .spells import find_card


def _salvage(done: Resolution, deck: str) -> None:
    pile = done.state.discards[deck]
    squad = done.squad
    items = [c for c in pile if c.kind in ("item", "spell")]
    card = find_card(
        items,
        done.args.need("take"),
        done.args.at("take"),
        f"the items of the {DECK_NAMES[deck]} discard pile",
    )
    price = card.cost.get("gore", 0)
    if squad.resources["gore"] < price:  # type: ignore[union-attr]
        raise Illegal("cannot-pay", f"{card.name} costs {price} Gore")
    squads.check_holds(squad.creatures, [*squad.items, card], squad.key)  # type: ignore[union-attr]
    squad.resources["gore"] -= price  # type: ignore[union-attr]
    pile.remove(card)
    squad.items.append(card)  # type: ignore[union-attr]


effect(
    "salvage",
    kinds=("creature",),
    clause="19.7a",
    role="the creature that takes items back from a discard pile",
    check=lambda v: None if v in CONJURATION_DECKS else "a conjuration deck",
    wording=lambda deck: [
        f"Ability: as its Squad's action, take one Item from the {DECK_NAMES[deck]} discard pile "
        "into its Squad by paying that Item's Gore"
    ],
    run=_salvage,
    when="use",
)


def _reach_out(done: Resolution, value: bool) -> None:
    state, squad = done.state, done.squad
    at = done.args.hex("at")
    if not hexes.adjacent(at, squad.at):  # type: ignore[union-attr]
        raise Illegal("not-adjacent", f"{hexes.show(at)} is not beside {squad.key}")  # type: ignore[union-attr]
    ground = state.ground.get(at)
    lying = ground.items if ground is not None else []
    taken = done.args.cards_in("take", lying, f"what lies at {hexes.show(at)}")
    squads.check_holds(squad.creatures, [*squad.items, *taken], squad.key)  # type: ignore[union-attr]
    for card in taken:
        lying.remove(card)
        squad.items.append(card)  # type: ignore[union-attr]


effect(
    "reach_out",
    kinds=("creature",),
    clause="19.7a",
    role="the creature that picks up from a neighbouring space",
    check=flag,
    wording=lambda v: [
        "Ability: once per turn its Squad may pick up Items and Spells from one adjacent space "
        "without moving"
    ],
    run=_reach_out,
    when="free",
)


def _orb(done: Resolution, value: bool) -> None:
    from .. import effects
    from .upheavals import discard

    squad = done.squad
    spells = [c for c in squad.items if c.kind == "spell"]  # type: ignore[union-attr]
    spell = find_card(
        spells, done.args.need("spell"), done.args.at("spell"), f"the spells {squad.key} carries"
    )  # type: ignore[union-attr]
    squad.items.remove(done.card)  # type: ignore[union-attr]
    discard(done.state, done.card)
    squad.items.remove(spell)  # type: ignore[union-attr]
    effects.resolve(done.state, done.args, spell, squad, done.player)
    discard(done.state, spell)


effect(
    "cast_through",
    kinds=("item",),
    clause="19.7b",
    role="the item that casts a spell",
    check=flag,
    wording=lambda v: [
        "Discard it: a creature of its Squad casts one Spell the Squad carries, even if no "
        "creature of the Squad is a Spellcaster"
    ],
    run=_orb,
    when="use",
)


def use(state, args) -> None:
    """The `use` step: a squad sets off a card's ability as its action (a bomb)."""
    from .. import effects
    from ..args import find_card

    squad = args.squad()
    if squad.owner != args.actor:
        raise Illegal("not-yours", f"{squad.key} is not {args.actor}'s")
    card = find_card(
        [*squad.items, *squad.creatures], args.need("card"), args.at("card"), f"{squad.key}"
    )
    if effects.of(card, "free"):  # no action; once a turn
        key = (state.cycle, state.turn, id(card))
        if key in state.used_abilities:
            raise Illegal("used", f"{card.name}'s ability is used once a turn")
        state.used_abilities.add(key)
        effects.resolve(state, args, card, squad, args.actor, "free")
        return
    if not effects.of(card, "use"):
        raise Illegal("no-ability", f"{card.name} has nothing to use")
    if squad.acted:
        raise Illegal("already-acted", f"{squad.key} has already taken its action")
    for c in squad.creatures:
        c.acted = True
    if squad.label == "N":
        state.players[args.actor].n_action = "use"
    effects.resolve(state, args, card, squad, args.actor, "use")


effect(
    "casts_carried",
    kinds=("creature",),
    clause="19.7c",
    role="the Spellcaster that carries nothing",
    check=flag,
    wording=lambda v: [
        "Cast: may cast Spells carried by its Squad, but cannot carry Spells itself"
    ],
)
