"""Deck lists: plain text files of `3 Grave Hound` lines, checked against a game's card pool
and its deck rules (`deck:` in game.yaml: the fewest cards and the most copies of one card).

The format is the one most deck builders export: a count (`3` or `3x`) and a card name per
line; `#` or `//` starts a comment; blank lines are ignored. Names match case-insensitively.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from charnel.diagnostics import Origin, Problems, excerpt

LINE = re.compile(r"(?P<count>\d+)\s*[xX]?\s+(?P<name>\S.*?)\s*")
COMMENT = re.compile(r"\s*(#|//)")
MAX_COUNT = 10_000  # more copies than any deck holds: a typo, not a deck


@dataclass(frozen=True)
class DeckRules:
    min_cards: int | None = None
    max_copies: int | None = None


@dataclass
class Entry:
    count: int
    name: str
    origin: Origin
    card: str | None = None  # the card's slug, once matched


@dataclass
class Deck:
    """A read deck list: its entries and what checking it found."""

    path: str
    entries: list[Entry] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)  # short codes, as examples state them

    @property
    def cards(self) -> int:
        return sum(e.count for e in self.entries)

    @property
    def legal(self) -> bool:
        return not self.reasons


def read(text: str, shown: str, problems: Problems) -> Deck:
    """Entries of a deck list; a line that is not `COUNT NAME` is a located problem."""
    deck = Deck(shown)
    for number, line in enumerate(text.splitlines(), start=1):
        body = line.split("#", 1)[0].split("//", 1)[0] if not COMMENT.match(line) else ""
        if not body.strip():
            continue
        col = len(line) - len(line.lstrip()) + 1
        match = LINE.fullmatch(body.strip())
        if match is None:
            message = "a deck line is a count and a card name: '3 Grave Hound'"
            problems.add(Origin(shown, number, col), message)
            continue
        # the digits are bounded before int() reads them: 5,000 of them raised ValueError
        digits = match["count"].lstrip("0") or "0"
        count = int(digits) if len(digits) <= len(str(MAX_COUNT)) else MAX_COUNT + 1
        if not 1 <= count <= MAX_COUNT:
            problems.add(Origin(shown, number, col), f"a count is between 1 and {MAX_COUNT}")
            continue
        name_col = col + body.strip().index(match["name"])
        deck.entries.append(Entry(count, match["name"], Origin(shown, number, name_col)))
    return deck


@dataclass(frozen=True)
class OtherGame:
    """Another game's card names, to tell a list of its cards from misspellings."""

    id: str
    title: str
    names: frozenset[str]  # casefolded


def check(
    deck: Deck,
    pool: Iterable[tuple[str, str]],
    rules: DeckRules,
    problems: Problems,
    others: Iterable[OtherGame] = (),
) -> None:
    """Match names against the pool ((name, slug) pairs) and hold the deck to the rules; each
    problem is located in the list, and its short code is kept in `deck.reasons`. A list whose
    unknown names are mostly another game's cards is said to be that game's, once, instead of
    each name getting an unrelated suggestion from this pool."""
    by_name = {name.casefold(): slug for name, slug in pool}
    nearest = Nearest(name for name, _ in pool)
    unknown = [e for e in deck.entries if e.name.casefold() not in by_name]
    other = _wrong_game(unknown, others)
    if other is not None:
        problems.add(
            Origin(deck.path, unknown[0].origin.line, 1),
            f"wrong game? {sum(e.name.casefold() in other.names for e in unknown)} of these "
            f"names are {other.title} cards: check the list with --game {other.id}",
        )
        _reason(deck, "wrong-game")
    copies: dict[str, list[Entry]] = {}
    for entry in deck.entries:
        entry.card = by_name.get(entry.name.casefold())
        if entry.card is None:
            near = nearest(entry.name) if other is None else None
            hint = f"; did you mean '{near}'?" if near else ""
            problems.add(entry.origin, f"no card named '{excerpt(entry.name)}'{hint}")
            _reason(deck, "unknown-card")
            continue
        copies.setdefault(entry.card, []).append(entry)
    if rules.max_copies is not None:
        for entries in copies.values():
            total = sum(e.count for e in entries)
            if total > rules.max_copies:
                problems.add(
                    entries[-1].origin,
                    f"{total} copies of '{entries[-1].name}'; a deck holds at most "
                    f"{rules.max_copies}",
                )
                _reason(deck, "too-many-copies")
    if rules.min_cards is not None and deck.cards < rules.min_cards:
        last = deck.entries[-1].origin.line if deck.entries else 1
        problems.add(
            Origin(deck.path, last, 1),
            f"the deck holds {deck.cards} cards; it needs at least {rules.min_cards}",
        )
        _reason(deck, "too-few-cards")


def _wrong_game(unknown: list[Entry], others: Iterable[OtherGame]) -> OtherGame | None:
    """The game that holds most of the unknown names, when it holds more than half of them."""
    best, most = None, 0
    for other in others:
        held = sum(e.name.casefold() in other.names for e in unknown)
        if held > most:
            best, most = other, held
    return best if unknown and most * 2 > len(unknown) else None


class Nearest:
    """The pool's name nearest an unknown one, for "did you mean". Bounded work whatever the
    list and the pool hold: each distinct name is looked up once, names longer than any
    card's are not looked up, after `MOST` lookups the rest go without a suggestion (a list
    of 20,000 unknown names took two minutes, one lookup a line), and a lookup compares the
    name with the `CANDIDATES` pool names that share the most three-letter runs with it (an
    index of the pool's runs), not with every name in the pool."""

    MOST = 200
    CANDIDATES = 50

    def __init__(self, names: Iterable[str]):
        self.names = {name.casefold(): name for name in names}
        self.keys = list(self.names)
        self.longest = max(map(len, self.keys), default=0)
        self.runs: dict[str, list[int]] = {}
        for number, key in enumerate(self.keys):
            for run in _runs(key):
                self.runs.setdefault(run, []).append(number)
        self.found: dict[str, str | None] = {}
        self.lookups = 0

    def __call__(self, name: str) -> str | None:
        key = name.casefold()
        if key in self.found:
            return self.found[key]
        near = None
        if len(key) <= 2 * self.longest and self.lookups < self.MOST:
            self.lookups += 1
            shared = Counter()
            for run in _runs(key):
                shared.update(self.runs.get(run, ()))
            candidates = [self.keys[n] for n, _ in shared.most_common(self.CANDIDATES)]
            close = difflib.get_close_matches(key, candidates, n=1, cutoff=0.6)
            near = self.names[close[0]] if close else None
        self.found[key] = near
        return near


def _runs(key: str) -> set[str]:
    padded = f"  {key} "
    return {padded[i:i + 3] for i in range(len(padded) - 2)}


def _reason(deck: Deck, code: str) -> None:
    if code not in deck.reasons:
        deck.reasons.append(code)


MAX_BYTES = 1_000_000  # a deck list is a few KB


def check_files(
    paths, root, records, problems: Problems, others: Iterable[OtherGame] = (),
    legality: bool = True,
) -> list[Deck]:
    """Read and check each deck list file against a loaded game's pool and, unless
    `legality` is off (the names alone matter), its deck rules."""
    others = list(others)
    spec = records.info.deck if legality else None
    rules = DeckRules(spec.min_cards, spec.max_copies) if spec else DeckRules()
    pool = [(card.name, card.slug) for card in records.cards]
    decks = []
    for path in paths:
        shown = _shown(path, root)
        if not path.is_file():
            problems.add(Origin(shown), "not a deck list: give a text file of 'COUNT NAME' lines")
            continue
        try:
            raw = path.read_bytes() if path.stat().st_size <= MAX_BYTES else None
        except OSError as exc:
            problems.add(Origin(shown), f"cannot read file: {exc.strerror}")
            continue
        if raw is None:
            problems.add(Origin(shown), f"a deck list is at most {MAX_BYTES:,} bytes")
            continue
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            problems.add(Origin(shown), f"not UTF-8 text (byte {exc.start + 1})")
            continue
        deck = read(text, shown, problems)
        check(deck, pool, rules, problems, others)
        decks.append(deck)
    return decks


def _shown(path, root) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()
