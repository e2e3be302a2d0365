"""Damage and destruction: top-down damage with spill, Ripper's free split, Survivor, and the
replacements of destruction (Regenerator, Soulbound, Martyr). Sacrifice can't be prevented."""

from __future__ import annotations

from contextlib import contextmanager

from charnel.engine.errors import ExampleError

from . import abilities
from .state import MAX_SIZE, Abomination, Card, State


def deal_damage(
    state: State,
    abom: Abomination,
    amount: int,
    *,
    combat: bool = False,
    split: list[int] | None = None,
) -> None:
    """Apply one source's damage. Damage too small to destroy a minion is ignored and never
    adds up with damage from another source, so nothing is remembered between calls."""
    if state.at_once is not None and not combat:  # one member of a group effect
        state.at_once.append((abom, _doomed(state, abom, amount, combat, split)))
        return
    deal_at_once(state, [(abom, amount, split)], combat=combat)


@contextmanager
def group_at_once(state: State):
    """Damage dealt inside destroys nothing until the block ends, then all of it together:
    a group effect reaches every member as the group stood when it began (ruling 12.7a)."""
    if state.at_once is not None:
        yield
        return
    state.at_once = []
    try:
        yield
        doomed = state.at_once
    finally:
        state.at_once = None
    remove_all(state, doomed)


def deal_at_once(
    state: State, hits: list[tuple[Abomination, int, list[int] | None]], *, combat: bool = False
) -> None:
    """Damage dealt at one moment (the fights of an attack, a group effect): what each hit
    destroys is read from the state before any of it, the destroyed minions leave together,
    and only then are they replaced (Soulbound, Regenerator, Martyr), so the order the hits
    are listed in changes nothing (rulings 10.7e, 12.7a)."""
    doomed = [(abom, _doomed(state, abom, amount, combat, split)) for abom, amount, split in hits]
    remove_all(state, doomed, combat=combat)


def _doomed(
    state: State, abom: Abomination, amount: int, combat: bool, split: list[int] | None
) -> list[Card]:
    powers = abilities.strengths(state, abom)  # fixed before any minion is removed
    ignore = abilities.keywords(state, abom).get("survivor", 0) if combat else 0
    doomed: list[Card] = []
    if split is not None:
        for i, (card, dealt) in enumerate(zip(abom.minions, split, strict=False)):
            if i == 0 and ignore:
                if dealt <= ignore:
                    continue
                dealt -= ignore
            if dealt >= powers[i]:
                doomed.append(card)
    else:
        left = amount
        for i, card in enumerate(abom.minions):
            if i == 0 and ignore:
                if left <= ignore:
                    break  # the top minion shrugs off all of it
                left -= ignore
            if left < powers[i]:
                break
            doomed.append(card)
            left -= powers[i]
    return doomed


def remove_destroyed(
    state: State,
    abom: Abomination,
    cards: list[Card],
    *,
    combat: bool = False,
    sacrifice: bool = False,
) -> None:
    remove_all(state, [(abom, cards)], combat=combat, sacrifice=sacrifice)


def remove_all(
    state: State,
    doomed: list[tuple[Abomination, list[Card]]],
    *,
    combat: bool = False,
    sacrifice: bool = False,
) -> None:
    """Destroyed minions leave their abominations together; then each goes where its
    replacements send it."""
    gone: list[tuple[Abomination, Card, dict]] = []
    for abom, cards in doomed:
        for card in cards:
            if state.where_is(card) is not abom:
                continue
            kws = {u.keyword: u for u in abilities.minion_keywords(state, abom, card)}
            abom.minions.remove(card)
            card.controller = None
            gone.append((abom, card, kws))
    for abom, _cards in doomed:
        settle(state, abom)
    for abom, card, kws in gone:
        _bury(state, abom, card, kws, combat=combat, sacrifice=sacrifice)


def _bury(
    state: State, abom: Abomination, card: Card, kws: dict, *, combat: bool, sacrifice: bool
) -> None:
    """Where a destroyed minion goes, after its replacements (its abilities as it left)."""
    owner = state.player(card.owner)
    if not sacrifice and combat and "soulbound" in kws:
        doom = next(iter(kws["soulbound"].params.values()))
        target = _soulbound_target(state, abom, card, doom)
        if target is not None:
            target.minions.insert(0, card)
            target.added = True
            trim(state, target)
            return
    if not sacrifice and "regenerator" in kws:
        owner.hand.append(card)
        return
    if "martyr" in kws:
        card.tapped = False
        owner.mana.append(card)
        return
    owner.graveyard.append(card)


def _soulbound_target(state: State, abom: Abomination, card: Card, doom: str) -> Abomination | None:
    def fits(value) -> bool:
        who = value.get("minion") if isinstance(value, dict) else None
        return who is None or card.answers_to(who)

    choice = state.choose("soulbound", fits)
    if choice is None or not isinstance(choice.value, dict):
        return None
    onto = choice.value.get("onto")
    if onto in (None, "none", False):
        return None
    target = state.abominations.get(str(onto))
    if target is None:
        raise ExampleError((*choice.path, "onto"), f"no abomination named '{onto}'")
    if target is abom or target.owner != abom.owner or target.top.doom != doom:
        raise ExampleError(
            (*choice.path, "onto"),
            f"{onto} can't take a Soulbound ({doom}) minion: it must be another of the "
            f"owner's abominations with a {doom} top minion",
        )
    return target


def destroy_card(state: State, card: Card, *, sacrifice: bool = False) -> None:
    abom = state.where_is(card)
    if abom is not None:
        remove_destroyed(state, abom, [card], sacrifice=sacrifice)


def trim(state: State, abom: Abomination) -> None:
    """Over 5 minions: the extra top minions are severed into abominations of their own."""
    while abom.size > MAX_SIZE:
        card = abom.minions.pop(0)
        name = state.fresh_name()
        state.abominations[name] = Abomination(name, abom.owner, [card])


def settle(state: State, abom: Abomination) -> None:
    """After minions leave: an empty abomination is gone; one reduced to a single minion
    leaves combat at once."""
    combat = state.combat
    if abom.size == 0:
        state.abominations.pop(abom.name, None)
        if combat is not None:
            combat.left.add(abom.name)
        return
    if combat is not None and abom.size < 2 and combat.in_combat(abom.name):
        combat.left.add(abom.name)
