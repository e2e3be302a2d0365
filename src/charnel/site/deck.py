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
    facet = model.colored_facet
    cost = model.cost  # the game's cost field, whose number the curve counts
    cards = []
    for card in sorted(model.cards, key=lambda c: (c.name.casefold(), c.slug)):
        value = facet.value(card) if facet else None
        number = model.card_row(card).get(f"{cost.name}_value") if cost else None
        cards.append([card.name, card.slug, value, number])
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


def rulings_json(model: SiteModel) -> str:
    """What the rules say about each card of the pool, and each clause any of it rests on
    (`charnel.deckrulings`, as `charnel deck rulings` gives it): the deck page picks a pasted
    list's cards from it."""
    from charnel import deckrulings

    found = deckrulings.collect(model.records, [(card, 1) for card in model.cards])
    data = deckrulings.as_data(found, model.urls)
    for card in data["cards"]:
        del card["count"]
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
