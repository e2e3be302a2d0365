"""Paying costs: tap that many untapped mana cards, at least one of the card's doom; mana
already in the pool is spent first. A cost of 0 or less taps nothing."""

from __future__ import annotations

from charnel.engine.errors import ExampleError, Illegal
from charnel.games.hecatomb.engine.state import Card, State


def cost_of(card: Card, x: int | None, path: tuple) -> int:
    fixed, has_x = card.cost_parts()
    if has_x and (isinstance(x, bool) or not isinstance(x, int)) and x is not None:
        raise ExampleError(path, "x is a whole number")
    if has_x and x is None:
        raise ExampleError(
            path, f"{card.name} costs {card.cost}: say how much X is with 'x:' or 'pay:'"
        )
    return fixed + (x or 0 if has_x else 0)


def x_paid(state: State, player: str, card: Card, paid, path: tuple) -> int | None:
    """X follows from what is paid when it is not written (15.2b): `pay: 5` pays five mana,
    `pay: [1, 3]` the picked mana cards; mana in the pool is spent first, all of it."""
    fixed, has_x = card.cost_parts()
    if not has_x or paid is None:
        return None
    if isinstance(paid, bool) or not isinstance(paid, (int, list)):
        raise ExampleError(path, "pay is a number of mana or a list of mana card positions")
    total = paid if isinstance(paid, int) else len(state.player(player).pool) + len(paid)
    if total < fixed:
        raise Illegal("cost", f"{card.name} costs {card.cost}; {total} mana pays less than {fixed}")
    return total - fixed


def pay(
    state: State, player: str, card: Card, amount: int, picks: list | None, path: tuple
) -> None:
    if amount <= 0:
        return
    p = state.player(player)
    from_pool = p.pool[:amount]
    needed = amount - len(from_pool)
    if isinstance(picks, int) and not isinstance(picks, bool):
        if picks != amount:
            raise Illegal("cost", f"{card.name} costs {amount}; {picks} mana offered")
        picks = None  # how much, not which: the engine picks as it does without `pay:`
    if picks is not None:
        if not isinstance(picks, list):
            raise ExampleError(path, "pay is a number of mana or a list of mana card positions")
        chosen = []
        for i, pick in enumerate(picks):
            if not isinstance(pick, int) or not 1 <= pick <= len(p.mana):
                raise ExampleError((*path, i), f"pay picks mana cards by position 1..{len(p.mana)}")
            if p.mana[pick - 1].tapped:
                raise Illegal("tapped", f"mana card {pick} is already tapped")
            chosen.append(p.mana[pick - 1])
        if len(chosen) != needed:
            raise Illegal(
                "cost", f"{card.name} needs {needed} mana cards tapped, {len(chosen)} picked"
            )
    else:
        untapped = [m for m in p.mana if not m.tapped]
        matching = [m for m in untapped if m.doom == card.doom]
        chosen = []
        if card.doom not in from_pool and matching and needed > 0:
            chosen.append(matching[0])
        chosen += [m for m in untapped if all(m is not c for c in chosen)][: needed - len(chosen)]
        if len(chosen) < needed:
            raise Illegal(
                "cost",
                f"{card.name} costs {amount}; only {len(untapped) + len(from_pool)} mana is there",
            )
    if (
        card.doom is not None
        and card.doom not in from_pool
        and all(m.doom != card.doom for m in chosen)
    ):
        raise Illegal("doom", f"at least one mana paid for {card.name} must be {card.doom}")
    for m in chosen:
        m.tapped = True
    del p.pool[: len(from_pool)]
