"""The deck page's data: the pool as the browser checks a pasted list against it (name,
slug, the colouring facet's value, the cost the curve counts) and the game's deck rules.
site_templates/site/deck.js reads it; src/charnel/decks.py is the same check in Python."""

from __future__ import annotations

import json

from charnel.site.model import SiteModel


def has_page(model: SiteModel) -> bool:
    """Games whose players build decks have deck rules in game.yaml, and so a deck page."""
    return model.info.deck is not None


def rules_text(model: SiteModel) -> str:
    spec = model.info.deck
    parts = []
    if spec and spec.min_cards is not None:
        parts.append(f"at least {spec.min_cards} cards")
    if spec and spec.max_copies is not None:
        parts.append(f"at most {spec.max_copies} copies of a card")
    return " and ".join(parts)


def pool_json(model: SiteModel) -> str:
    spec = model.info.deck
    facet, cost = model.colored_facet, model.cost
    cards = []
    for card in sorted(model.cards, key=lambda c: (c.name.casefold(), c.slug)):
        value = facet.value(card) if facet else None
        printed = getattr(card, cost.name, None) if cost else None
        curve = cost.cost.value(printed) if cost and printed is not None else None
        cards.append([card.name, card.slug, value, curve])
    data = {
        "rules": {"min_cards": spec.min_cards, "max_copies": spec.max_copies} if spec else {},
        "facet": {
            "label": facet.label,
            "values": [[v.id, v.name] for v in facet.values],
        } if facet else None,
        "curve": cost.label if cost and any(c[3] is not None for c in cards) else None,
        "cards": cards,
    }
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
