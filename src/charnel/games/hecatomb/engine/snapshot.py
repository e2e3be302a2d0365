"""A state as plain JSON-able data, for the before/after pictures of an example."""

from __future__ import annotations

from typing import Any

from . import abilities
from .state import Card, State


def _card(card: Card) -> dict[str, Any]:
    return {"name": card.name, "type": card.type, "doom": card.doom}


def snapshot(state: State) -> dict[str, Any]:
    players = {}
    for name in state.order:
        p = state.player(name)
        players[name] = {
            "souls": p.souls,
            "hand": [_card(c) for c in p.hand],
            "deck": len(p.deck),
            "mana": [{"doom": c.doom, "tapped": c.tapped} for c in p.mana],
            "pool": list(p.pool),
            "graveyard": [_card(c) for c in p.graveyard],
            "removed": [_card(c) for c in p.removed],
            "relics": [{"name": r.name, "doom": r.card.doom} for r in p.relics],
            "god": {"name": p.god.name, "doom": p.god.card.doom} if p.god else None,
        }
    aboms = {}
    for name, abom in state.abominations.items():
        powers = abilities.strengths(state, abom)
        aboms[name] = {
            "owner": abom.owner,
            "tapped": abom.tapped,
            "added": abom.added,
            "minions": [
                {
                    "name": m.name,
                    "strength": powers[i],
                    "doom": m.doom,
                    "subtype": m.subtype,
                    "keywords": [k.text for k in m.keywords],
                }
                for i, m in enumerate(abom.minions)
            ],
        }
    return {
        "turn": state.turn,
        "combat": state.combat is not None,
        "winner": state.winner,
        "players": players,
        "abominations": aboms,
    }
