"""Paying costs: that much mana, from untapped mana cards the player taps and from their pool,
at least one of the card's doom. Which pays is the player's choice (`pay:`); where the example
does not say, the pool goes first. A cost of 0 or less takes nothing."""

from __future__ import annotations

from charnel.engine.errors import ExampleError, Illegal

from .state import Card, Player, State

PAY_FORMS = "pay is a number of mana, a list of mana card positions, or {pool: N, cards: [...]}"


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
    `pay: [1, 3]` two mana cards, `pay: {pool: 1, cards: [1, 3]}` three mana."""
    fixed, has_x = card.cost_parts()
    if not has_x or paid is None:
        return None
    if _is_count(paid):
        total = paid
    else:
        pool, cards = _written(paid, path)
        total = (pool if _is_count(pool) else len(pool)) + len(cards)
    if total < fixed:
        raise Illegal("cost", f"{card.name} costs {card.cost}; {total} mana pays less than {fixed}")
    return total - fixed


def pay(state: State, player: str, card: Card, amount: int, paid, path: tuple) -> None:
    if amount <= 0:
        return
    p = state.player(player)
    if _is_count(paid):
        if paid != amount:
            raise Illegal("cost", f"{card.name} costs {amount}; {paid} mana offered")
        paid = None  # how much, not which: the engine picks as it does without `pay:`
    if paid is None:
        spent, chosen = _default(p, card, amount)
    else:
        pool, cards = _written(paid, path)
        spent = _from_pool(p, card, pool, path)
        chosen = _picked(p, cards, path if isinstance(paid, list) else (*path, "cards"))
        if len(spent) + len(chosen) != amount:
            raise Illegal(
                "cost", f"{card.name} costs {amount}; {len(spent) + len(chosen)} mana offered"
            )
    if (
        card.doom is not None
        and all(p.pool[i] != card.doom for i in spent)
        and all(m.doom != card.doom for m in chosen)
    ):
        raise Illegal("doom", f"at least one mana paid for {card.name} must be {card.doom}")
    for m in chosen:
        m.tapped = True
    p.pool[:] = [d for i, d in enumerate(p.pool) if i not in spent]


def _is_count(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _written(paid, path: tuple) -> tuple:
    """(pool part, card positions) of a written payment: a list is mana cards alone."""
    if isinstance(paid, list):
        return 0, paid
    if not isinstance(paid, dict) or not set(paid) <= {"pool", "cards"}:
        raise ExampleError(path, PAY_FORMS)
    pool, cards = paid.get("pool", 0), paid.get("cards", [])
    if not (_is_count(pool) and pool >= 0) and not isinstance(pool, list):
        raise ExampleError((*path, "pool"), "pool is a number of mana or a list of dooms")
    if not isinstance(cards, list):
        raise ExampleError((*path, "cards"), "cards is a list of mana card positions")
    return pool, cards


def _pool_order(p: Player, card: Card) -> list[int]:
    """Positions in the pool, mana of the card's doom first."""
    return sorted(range(len(p.pool)), key=lambda i: p.pool[i] != card.doom)


def _from_pool(p: Player, card: Card, pool, path: tuple) -> set[int]:
    if _is_count(pool):
        if pool > len(p.pool):
            raise Illegal("cost", f"{pool} mana from the pool asked, {len(p.pool)} there")
        return set(_pool_order(p, card)[:pool])
    spent: set[int] = set()
    for i, doom in enumerate(pool):
        at = next((j for j, d in enumerate(p.pool) if d == doom and j not in spent), None)
        if at is None:
            raise ExampleError((*path, "pool", i), f"no {doom} mana left in the pool")
        spent.add(at)
    return spent


def _picked(p: Player, cards: list, where: tuple) -> list[Card]:
    chosen: list[Card] = []
    for i, pick in enumerate(cards):
        if not _is_count(pick) or not 1 <= pick <= len(p.mana):
            raise ExampleError((*where, i), f"pay picks mana cards by position 1..{len(p.mana)}")
        if p.mana[pick - 1].tapped:
            raise Illegal("tapped", f"mana card {pick} is already tapped")
        if any(m is p.mana[pick - 1] for m in chosen):
            raise ExampleError((*where, i), f"mana card {pick} is picked twice")
        chosen.append(p.mana[pick - 1])
    return chosen


def _default(p: Player, card: Card, amount: int) -> tuple[set[int], list[Card]]:
    """The payment an example gets when it does not say: the pool first, except one mana card
    of the card's doom when the pool holds none; then untapped mana cards in order."""
    untapped = [m for m in p.mana if not m.tapped]
    doom_card = None
    if card.doom is not None and card.doom not in p.pool:
        doom_card = next((m for m in untapped if m.doom == card.doom), None)
    spent = set(_pool_order(p, card)[: amount - (1 if doom_card is not None else 0)])
    chosen = [doom_card] if doom_card is not None else []
    chosen += [m for m in untapped if m is not doom_card][: amount - len(spent) - len(chosen)]
    if len(spent) + len(chosen) < amount:
        raise Illegal(
            "cost", f"{card.name} costs {amount}; only {len(untapped) + len(p.pool)} mana is there"
        )
    return spent, chosen
