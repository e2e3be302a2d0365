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
    same = _kept(kept, keys)
    for card in model.cards:
        row = same.get(card.slug)
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

    same = _kept(kept, keys)
    todo = [card for card in model.cards if card.slug not in same]
    made = {e.card.slug: deckrulings.card_data(e, model.urls)
            for e in deckrulings.card_entries(model.records, [(card, 1) for card in todo])}
    for entry in made.values():
        del entry["count"]
    memo = {}
    written = []  # each card's entry as JSON, as the whole's encoding writes it
    for card in model.cards:
        key = keys[card.slug]
        entry = made.get(card.slug) or same[card.slug]
        memo[card.slug] = [key, entry]
        last = _written.get(card.slug)
        if last is None or last[0] != key:
            last = _written[card.slug] = (key, _json(entry))
        written.append(last[1])
    clauses = deckrulings.touched(model.records,
                                  [(e["name"], e["clauses"]) for _, e in memo.values()])
    clauses_json = _json([deckrulings.clause_data(c, model.urls) for c in clauses])
    # the bytes json.dumps(sort_keys=True) gives the whole ("cards" sorts before "clauses"),
    # made from the cards' kept encodings
    return '{"cards":[' + ",".join(written) + '],"clauses":' + clauses_json + "}", memo


# Each card's rulings entry as JSON, by slug, with its page's key, from the last build in this
# process (`charnel serve --watch` builds again): an unchanged card is not encoded again.
_written: dict[str, tuple[str, str]] = {}


def _json(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def _kept(kept, keys: dict[str, str]) -> dict:
    """The last build's entries (`kept`) of the cards whose page's key is the same, by slug."""
    if not isinstance(kept, dict):
        return {}
    found = {}
    for slug, key in keys.items():
        entry = kept.get(slug)
        if type(entry) is list and len(entry) == 2 and entry[0] == key:
            found[slug] = entry[1]
    return found
