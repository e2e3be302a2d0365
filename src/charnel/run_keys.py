"""Keys of example runs and card verifications: a hash of everything a run reads, so that a
run kept from an earlier build is reused exactly when its inputs are the same.

An example's run reads the example, the game's facts and glossary, and the pool: the cards it
names (by slug or name, and the cards those name in turn) and the pool's names (a deck list
checks every name, a hint offers the nearest). A card's verification reads the card, the
game's facts and glossary, every clause and example (which examples check an ability is the
engine's choice over all of them) and what those examples read of the pool: its key is the
card's identity (`card_identities`) among those of one digest of all but the card
(`RunKeys.cards_read`). Charnel's own code is the stamp of the store the runs are kept in
(`charnel.kept`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from typing import Any

from charnel.diagnostics import Origin
from charnel.records import CardBase, Example, GameRecords, Outcome, slugify


def _hash(*parts: str) -> str:
    """A digest of the parts, each ended by a NUL."""
    return hashlib.sha256("".join([f"{part}\0" for part in parts]).encode()).hexdigest()[:32]


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


def card_identity(card: CardBase) -> str:
    """A card as a key: its file's bytes, and where the file is (its group and slug name it:
    cards/<game>/<group>/<slug>.yaml)."""
    return f"{card._source_hash}\0{card._slug}\0{card._set_code}"  # the slots: once a card


def facts_digest(records: GameRecords) -> str:
    """A digest of the game's facts and glossary, which every check, run and row reads."""
    return _hash(_dump(records.info.model_dump(mode="json")),
                 _dump(records.glossary.model_dump(mode="json")))


def card_identities(records: GameRecords) -> list[str]:
    """Each card's `card_identity`, in the cards' order: the checks, runs and rows kept for the
    next build are each keyed by it."""
    return [card_identity(card) for card in records.cards]


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _strings(v)


class RunKeys:
    """The key of each example's run and each card's verification over one loaded records."""

    def __init__(self, records: GameRecords):
        self.records = records
        # a card by its slug, else by its name or its name's slug; the first card wins
        cards = records.cards[::-1]
        self._named: dict[str, CardBase] = {
            **{name: card for card in cards for name in (card.name, slugify(card.name))},
            **{card.slug: card for card in cards},
        }
        self._by_card: dict[str, list[str]] = {}  # slug -> the slugs its fields name
        names = _hash(*[f"{c.slug}\0{c.name}\0{c.set_code}" for c in records.cards])
        self._base = _hash(facts_digest(records), names)
        self._examples = {id(e): self._example_key(e) for e in records.examples}
        clauses = _hash(*(_dump([c.number, c.title, c.text, c.pages, c.heading, c.ruling,
                                 c.advanced, c.origin.path, c.origin.line])
                          for c in records.clauses))
        # what every card's verification reads beyond the card: a card's key is this and the
        # card's own identity (`card_identities`), kept apart so that no key is hashed per card
        self.cards_read = _hash(self._base, clauses, *self._examples.values())

    def _reads(self, example: Example) -> list[str]:
        """The pool's cards the example names, and the cards those name, as keys."""
        found: set[str] = set()
        todo = self._names(example.body) + self._names(example.owner)  # a card's own example
        while todo:
            slug = todo.pop()
            if slug not in found:
                found.add(slug)
                todo += self._card_names(slug)
        return sorted(card_identity(self._named[slug]) for slug in found)

    def _names(self, value: Any) -> list[str]:
        """The slugs of the pool's cards that `value` names anywhere."""
        out = []
        for text in _strings(value):
            for name in (text, slugify(text)):
                card = self._named.get(name)
                if card is not None:
                    out.append(card.slug)
        return out

    def _card_names(self, slug: str) -> list[str]:
        found = self._by_card.get(slug)
        if found is None:
            found = self._by_card[slug] = self._names(self._named[slug].model_dump(mode="json"))
        return found

    def _example_key(self, example: Example) -> str:
        return _hash(self._base, example.id, example.title, example.owner_kind, example.owner,
                     example.source, str(example.origin), _dump(example.cites),
                     *self._reads(example))

    def example(self, example: Example) -> str:
        return self._examples[id(example)]


def plain(outcome: Outcome) -> tuple:
    """An outcome as plain values, for the store."""
    where = outcome.origin
    return (outcome.example, outcome.passed, outcome.message, list(outcome.diff), outcome.card,
            None if where is None else (where.path, where.line, where.col), outcome.broken)


def from_plain(value: tuple) -> Outcome:
    example, passed, message, diff, card, where, broken = value
    return Outcome(example, passed, message, list(diff), card,
                   None if where is None else Origin(*where), broken)
