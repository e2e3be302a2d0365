"""The verify stage: every check over loaded records, all problems in one list.

The checks are of two kinds: those over the whole pool (declarations, names used twice, the
rulebook's numbering and citations, a game's checks across cards), run on every build, and
each card's own (its set, type and facets, what its rulings cite, its keywords against its
text, the game's card checks), which read the card and the game's facts alone. A build keeps
the latter's results, what the card's text decodes to, under a key of the card's file and of
those facts (`checks_read`): an edit checks again only the cards whose key changed. Results
are kept only from a build where every check passed, so a kept card is one whose checks find
nothing: the problems reported are a full check's.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from charnel import registry
from charnel.diagnostics import Problems
from charnel.game import Game
from charnel.keywords import KeywordBook
from charnel.records import CardBase, GameRecords, KeywordUse
from charnel.run_keys import card_identities, facts_digest
from charnel.verify import keyword_text, references
from charnel.verify.keyword_text import CardText


@dataclass
class Verified:
    """Records that passed every check, with what the checks decoded on the way."""

    records: GameRecords
    card_text: Mapping[str, CardText]
    # each card's `card_identity`, in the cards' order: its kept checks, runs and rows are
    # found by it. Made once for every stage, one string per card that the stores share
    identities: list[str] | None = None

    def __post_init__(self) -> None:
        if self.identities is None:
            self.identities = card_identities(self.records)


def verify(records: GameRecords, problems: Problems, kept: dict | None = None) -> Verified:
    """Every check of `records`. `kept`: each card's results kept from an earlier build, by
    the card's identity under what they read (`checks_read`); a card whose results are there
    is not checked again. Updated to this build's when every check passes."""
    read = checks_read(records) if kept is not None else None
    found = kept.get("cards") if kept is not None and kept.get("read") == read else None
    found = found if isinstance(found, dict) else {}
    _pool_checks(records, problems)
    check = card_check(records, problems)
    identities = card_identities(records)
    card_text, results = _CardTexts(), {}
    for card, key in zip(records.cards, identities, strict=True):
        result = found.get(key)
        if result is None:
            text = card_text.made[card.slug] = check(card)
            result = _plain(text)
            card_text.kept[card.slug] = None
        else:
            card_text.kept[card.slug] = result
            card_text.made.pop(card.slug, None)  # a slug used twice: the last card's, as checked
        results[key] = result
    _engine_hook(records.game, records, problems)
    if kept is not None and not problems:
        kept.clear()
        kept.update(read=read, cards=results)  # in the cards' order: the store sorts
    return Verified(records, card_text, identities)


def game_checks(records: GameRecords, problems: Problems) -> None:
    """The game's own checks: of each card, then across cards."""
    game = records.game
    checks = game.card_checks(records)
    for card in records.cards:
        for path, message in checks(card):
            problems.add(card.where(*path), message)
    game.check(records, problems)


def _pool_checks(records: GameRecords, problems: Problems) -> None:
    """The checks that are not one card's (but the engine hook, which runs last)."""
    references.check_pool(records, problems)
    keyword_text.sound_keywords(records, problems)
    game = records.game
    _keywords_declared(game, records, problems)
    game.check(records, problems)


def card_check(records: GameRecords, problems: Problems) -> Callable[[CardBase], CardText]:
    """Every check of one card alone, adding its problems to `problems`; returns what the
    card's text decodes to."""
    facts = references.CardFacts(records)
    book = KeywordBook(keyword_text.sound_keywords(records, Problems()), records.info)
    game = records.game
    of_game = game.card_checks(records)
    why = _no_keywords(game)

    def check(card: CardBase) -> CardText:
        references.check_card(card, facts, problems)
        text = keyword_text.read_card(card, book, problems)
        if why and card.keywords:
            problems.add(card.where("keywords", key=True), why)
        for path, message in of_game(card):
            problems.add(card.where(*path), message)
        return text

    return check


def checks_read(records: GameRecords) -> str:
    """A digest of what a card's checks read beyond the card: the game's facts and glossary
    (`run_keys.facts_digest`) and the rule numbers."""
    return hashlib.sha256("\0".join(
        [facts_digest(records), *sorted(c.number for c in records.clauses)]).encode()).hexdigest()


class _CardTexts(Mapping[str, CardText]):
    """Card slug -> what its text decodes to, in the cards' order; a kept card's made from its
    kept result when first asked for (an edit's database asks for the edited cards' alone)."""

    def __init__(self) -> None:
        self.kept: dict[str, tuple | None] = {}  # None for a card checked now
        self.made: dict[str, CardText] = {}

    def __getitem__(self, slug: str) -> CardText:
        text = self.made.get(slug)
        if text is None:
            text = self.made[slug] = _from_plain(self.kept[slug])
        return text

    def __iter__(self) -> Iterator[str]:
        return iter(self.kept)

    def __len__(self) -> int:
        return len(self.kept)


def _plain(text: CardText) -> tuple:
    return [(u.keyword, u.params, u.text) for u in text.keywords], list(text.other)


def _from_plain(value: tuple) -> CardText:
    keywords, other = value
    return CardText([KeywordUse(*use) for use in keywords], list(other))


def _no_keywords(game: Game) -> str | None:
    """Why a keyword is a mistake in a game without keywords; None in a game with them."""
    if game.has_keywords:
        return None
    return f"game '{game.id}' has no keywords; its abilities are its own card fields"


def _keywords_declared(game: Game, records: GameRecords, problems: Problems) -> None:
    """Keywords are one kind of ability a game may have: one that has none (`has_keywords`)
    encodes its abilities in its own fields, and a keyword written for it is a mistake (a
    card's own: `card_check`)."""
    why = _no_keywords(game)
    if why is None:
        return
    for i, term in enumerate(records.glossary.terms):
        if term.keyword is not None:
            problems.add(records.glossary.where("terms", i, "keyword", key=True), why)


def _engine_hook(game: Game, records: GameRecords, problems: Problems) -> None:
    """Rules with examples need the game's `engine` hook to run them."""
    from charnel.engine import outcomes

    if not records.examples:
        return
    written = type(game).engine is not Game.engine
    # an engine is only made over records that are sound: it reads them as it starts
    if written and (problems or outcomes.checks(game, records) is not None):
        return
    first = records.examples[0].origin
    problems.add(
        registry.class_origin(game),
        f"game '{game.id}' has no 'engine' hook, but its rules have examples to run "
        f"({len(records.examples)}, the first at {first})",
    )
