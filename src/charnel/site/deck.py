"""The deck page's data: the pool as the browser checks a pasted list against it (name,
slug, the colouring facet's value, the cost the curve counts) and the game's deck rules.
site_templates/site/deck.js reads it; src/charnel/decks.py is the same check in Python."""

from __future__ import annotations

import json
from collections.abc import Callable

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

    def row(card) -> list:
        value = facet.value(card) if facet else None
        number = model.card_row(card).get(f"{cost.name}_value") if cost else None
        return [card.name, card.slug, value, number]

    memo = _memo(model, keys, kept, lambda cards: [row(card) for card in cards])
    rows = [row for _, row in memo.values()]
    head = {
        "rules": {"min_cards": spec.min_cards, "max_copies": spec.max_copies} if spec else {},
        "facet": {
            "label": facet.label,
            "values": [[v.id, v.name] for v in facet.values],
        } if facet else None,
        "curve": cost.label if cost else None,
    }

    def whole() -> str:
        cards = sorted(rows, key=lambda c: (c[0].casefold(), c[1]))
        curve = head["curve"] if any(c[3] is not None for c in cards) else None
        data = {**head, "curve": curve, "cards": cards}
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)

    # a rebuild whose cards have the rows they had (a flavor text, a ruling): the same bytes
    return _made_again((model.info.id, "pool"), (head, rows), whole), memo


def rulings_json(model: SiteModel, keys: dict[str, str], kept) -> tuple[str, dict]:
    """What the rules say about each card of the pool, and each clause any of it rests on
    (`charnel.deckrulings`, as `charnel deck rulings` gives it): the deck page picks a pasted
    list's cards from it. Each card's part is kept as `pool_json` keeps its entry."""
    from charnel import deckrulings

    def entries(cards: list) -> list[dict]:
        made = [deckrulings.card_data(e, model.urls)
                for e in deckrulings.card_entries(model.records, [(card, 1) for card in cards])]
        for entry in made:
            del entry["count"]
        return made

    memo = _memo(model, keys, kept, entries)
    # each card's entry as JSON, as the whole's encoding writes it
    written = _encoded(memo)
    touching = [(e["name"], e["clauses"]) for _, e in memo.values()]

    def clauses_json() -> str:
        clauses = deckrulings.touched(model.records, touching)
        return _json([deckrulings.clause_data(c, model.urls) for c in clauses])

    # each clause's part names the cards resting on it: the same while each card rests on the
    # clauses it did and the rulebook is the same
    clauses = _made_again((model.info.id, "clauses"),
                          (model.urls.prefix, touching, model.records.clauses), clauses_json)
    # the bytes json.dumps(sort_keys=True) gives the whole ("cards" sorts before "clauses"),
    # made from the cards' kept encodings
    return '{"cards":[' + ",".join(written) + '],"clauses":' + clauses + "}", memo


# What the last builds in this process returned (`charnel serve --watch` builds again): their
# memos, by identity, one of which the next build's manifest gives back as `kept` (the same
# object while the manifest is the one written), and each card's entry as JSON with its
# page's key. With them a rebuild looks at each card's key only, and makes the entries of
# the cards whose key changed.
RETURNED = 8  # memos kept: two per game (pool, rulings), a few games and folders
_returned: dict[int, dict] = {}
_written: dict[str, tuple[str, str]] = {}  # slug -> (page's key, rulings entry as JSON)


def _memo(model: SiteModel, keys: dict[str, str], kept,
          make: Callable[[list], list]) -> dict:
    """Each card's [page's key, entry] by slug, in the pool's order: the last build's entry
    while the card's key is the same, else made (`make(cards)`, their entries in order)."""
    if kept is not None and _returned.get(id(kept)) is kept and list(keys) == list(kept):
        # the memo this process returned, over the same cards in the same order: only the
        # entries whose key differs are made again
        memo = dict(kept)
        todo = [slug for slug, key in keys.items() if kept[slug][0] != key]
    else:
        same = _kept(kept, keys)
        memo = {slug: [key, same[slug]] if slug in same else None for slug, key in keys.items()}
        todo = [slug for slug, entry in memo.items() if entry is None]
    cards = [model.card_by_slug[slug] for slug in todo]
    made = make(cards) if cards else []
    for slug, entry in zip(todo, made, strict=True):
        memo[slug] = [keys[slug], entry]
    _returned[id(memo)] = memo
    while len(_returned) > RETURNED:  # the oldest go: a build reads the last one's
        del _returned[next(iter(_returned))]
    return memo


_made: dict[tuple[str, str], tuple[object, str]] = {}  # (game, part) -> (inputs, JSON)


def _made_again(name: tuple[str, str], inputs, make: Callable[[], str]) -> str:
    """`make()`, or what it gave in the last build of this process from equal `inputs` (plain
    values and records of fixed field types, whose equal values encode the same)."""
    last = _made.get(name)
    if last is not None and last[0] == inputs:
        return last[1]
    made = make()
    _made[name] = (inputs, made)
    return made


def _encoded(memo: dict) -> list[str]:
    """Each card's rulings entry as JSON, encoded again only when its page's key changed."""
    written = []
    for slug, (key, entry) in memo.items():
        last = _written.get(slug)
        if last is None or last[0] != key:
            last = _written[slug] = (key, _json(entry))
        written.append(last[1])
    return written


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
