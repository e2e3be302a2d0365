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


def pool_json(model: SiteModel, keys: dict[str, str], kept) -> tuple[str, dict]:
    """The pool's JSON, and each card's entry by slug with its page's key (`keys`), to keep
    for the next build (`kept`: what the last one kept): a card whose page is unchanged is
    not read again."""
    spec = model.info.deck
    facet = model.colored_facet
    cost = model.cost  # the game's cost field, whose number the curve counts
    memo = {}
    for card in model.cards:
        row = _kept(kept, card.slug, keys)
        if row is None:
            value = facet.value(card) if facet else None
            number = model.card_row(card).get(f"{cost.name}_value") if cost else None
            row = [card.name, card.slug, value, number]
        memo[card.slug] = [keys[card.slug], row]
    cards = sorted((row for _, row in memo.values()), key=lambda c: (c[0].casefold(), c[1]))
    data = {
        "rules": {"min_cards": spec.min_cards, "max_copies": spec.max_copies} if spec else {},
        "facet": {
            "label": facet.label,
            "values": [[v.id, v.name] for v in facet.values],
        } if facet else None,
        "curve": cost.label if cost and any(c[3] is not None for c in cards) else None,
        "cards": cards,
    }
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True), memo


def rulings_json(model: SiteModel, keys: dict[str, str], kept) -> tuple[str, dict]:
    """What the rules say about each card of the pool, and each clause any of it rests on
    (`charnel.deckrulings`, as `charnel deck rulings` gives it): the deck page picks a pasted
    list's cards from it. Each card's part is kept as `pool_json` keeps its entry."""
    from charnel import deckrulings

    todo = [card for card in model.cards if _kept(kept, card.slug, keys) is None]
    made = {e.card.slug: deckrulings.card_data(e, model.urls)
            for e in deckrulings.card_entries(model.records, [(card, 1) for card in todo])}
    memo = {}
    for card in model.cards:
        entry = made.get(card.slug) or _kept(kept, card.slug, keys)
        entry.pop("count", None)
        memo[card.slug] = [keys[card.slug], entry]
    cards = [entry for _, entry in memo.values()]
    clauses = deckrulings.touched(model.records, [(e["name"], e["clauses"]) for e in cards])
    data = {"cards": cards, "clauses": [deckrulings.clause_data(c, model.urls) for c in clauses]}
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True), memo


def _kept(kept, slug: str, keys: dict[str, str]):
    """The last build's entry for the card, if its page's key is the same."""
    entry = kept.get(slug) if isinstance(kept, dict) else None
    if isinstance(entry, list) and len(entry) == 2 and entry[0] == keys[slug]:
        return entry[1]
    return None
