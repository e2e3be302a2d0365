"""Souls: never below zero; the first player to hold 20 or more wins at once."""

from __future__ import annotations

from .state import WINNING_SOULS, State


def gain(state: State, player: str, amount: int) -> None:
    p = state.player(player)
    p.souls = max(p.souls + amount, 0)
    if state.winner is None and p.souls >= WINNING_SOULS:
        state.winner = player


def lose(state: State, player: str, amount: int) -> int:
    """Take up to `amount` souls; returns how many were actually lost."""
    p = state.player(player)
    taken = min(max(amount, 0), p.souls)
    p.souls -= taken
    return taken
