"""Card verification, Hecatomb's part: each keyword a card carries is checked against that
keyword's examples (found by `charnel.engine.verification` from the glossary term's `rules:`),
with the card's minion substituted for the example's subject.

An example checks a keyword when its `given` has a minion carrying the keyword. The subject
is the first such minion (abominations in written order, top first). Results depend only on
the substituted values, so identical substitutions are run once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from charnel import example_language as language
from charnel.engine.verification import covers
from charnel.records import Example, GameRecords


@dataclass(frozen=True)
class Subject:
    """The minion an example tests a keyword on: where it is written in `given`, as written,
    and its decoded parameters."""

    place: tuple  # ("abominations", A, "minions", i) or ("hand", player, i)
    minion: dict
    params: dict


def _written_minions(given: dict):
    """(place, written minion) for each minion in `given`: abominations in written order (top
    first), then the hands (a Host is tested from the hand: it can't be shown on top)."""
    aboms = given.get("abominations")
    for name, spec in (aboms if isinstance(aboms, dict) else {}).items():
        minions = spec.get("minions") if isinstance(spec, dict) else None
        for i, minion in enumerate(minions if isinstance(minions, list) else []):
            yield ("abominations", name, "minions", i), minion
    hands = given.get("hand")
    for who, cards in (hands if isinstance(hands, dict) else {}).items():
        for i, card in enumerate(cards if isinstance(cards, list) else []):
            yield ("hand", who, i), card


def find_subject(body: dict, slug: str, book: Any) -> Subject | None:
    """The first written minion that carries `slug`."""
    given = body.get("given")
    if not isinstance(given, dict):
        return None
    for place, minion in _written_minions(given):
        if not isinstance(minion, dict) or not isinstance(minion.get("keywords"), list):
            continue
        for entry in minion["keywords"]:
            try:
                use = book.decode(entry)
            except ValueError:
                continue
            if use.keyword == slug:
                return Subject(place, minion, use.params)
    return None


def keyword_of(example: Example, records: GameRecords, book: Any) -> str | None:
    """The keyword an example tests: its `ability:`, or a keyword whose clauses hold it."""
    named = example.body.get("ability")
    if isinstance(named, str):
        return named
    if example.owner_kind != "rule":
        return None
    for term in records.keywords:
        if any(covers(c, example.owner) for c in term.rules) and find_subject(
            example.body, term.slug, book
        ):
            return term.slug
    return None


def variables(minion: dict, params: dict) -> dict[str, Any]:
    values = {
        "strength": minion.get("strength", 0),
        "subtype": minion.get("subtype"),
        "minion_doom": minion.get("doom"),
    }
    values.update(params)
    return values


def bind(example: Example, records: GameRecords, book: Any) -> dict:
    """The example body with its variables set from its own subject (a normal run)."""
    body = example.body
    if not language.uses_variables(body):
        return body
    slug = keyword_of(example, records, book)
    subject = find_subject(body, slug, book) if slug else None
    if subject is None:
        raise language.LanguageError(
            ("ability",) if "ability" in body else (),
            "the example uses $variables but has no keyword subject: add 'ability: <slug>' and "
            "give a minion in 'given' that keyword",
        )
    return language.substitute(body, variables(subject.minion, subject.params))


def applies(example: Example, subject: Subject, params: dict) -> bool:
    """An example written with literal numbers speaks only for the parameters it shows; one
    written with variables speaks for every card with the keyword."""
    return language.uses_variables(example.body) or subject.params == params


def stats_read(example: Example, card: Any) -> tuple:
    """The card's values the example reads: what a cached run of it depends on."""
    used = language.variables_used(example.body)
    return tuple(
        getattr(card, attr, None) if var in used else None
        for var, attr in (("strength", "strength"), ("minion_doom", "doom"), ("subtype", "subtype"))
    )


# Keywords that carry an ability: the subject takes the card's encoded effects for it.
CARRIED_EFFECTS = {"tap": "tap"}


def substituted(example: Example, subject: Subject, card: Any, entry: Any, params: dict) -> dict:
    """The example body with the card's minion in the subject's place: the keyword with the
    card's parameters, the card's effects for an ability the keyword carries (a tap ability
    runs the card's own `on: tap` effects), and the card's strength, doom and subtype where
    the example reads them through $strength, $minion_doom and $subtype."""
    slug = next(iter(entry)) if isinstance(entry, dict) else entry
    used = language.variables_used(example.body)
    written = dict(subject.minion)
    stats = {
        "strength": ("strength", card.strength or 0),
        "minion_doom": ("doom", card.doom),
        "subtype": ("subtype", card.subtype),
    }
    for variable, (key, value) in stats.items():
        if variable in used:
            written[key] = value
    written["keywords"] = [
        entry if (next(iter(item)) if isinstance(item, dict) else item) == slug else item
        for item in written.get("keywords", [])
    ]
    timing = CARRIED_EFFECTS.get(slug)
    if timing is not None:
        kept = [e for e in written.get("effects", []) if _timing(e) != timing]
        written["effects"] = kept + [e for e in card.effects if _timing(e) == timing]
    body = dict(example.body)
    body["given"] = _replace(body["given"], subject.place, written)
    return language.substitute(body, variables(written, params))


def _timing(effect: Any) -> Any:
    if not isinstance(effect, dict):
        return None
    return effect.get("on", effect.get(True, "play"))  # YAML 1.1 may read `on` as true


def _replace(tree: Any, place: tuple, value: Any) -> Any:
    """A copy of `tree` with the item at `place` replaced; only the path is copied."""
    if not place:
        return value
    head, rest = place[0], place[1:]
    copied = dict(tree) if isinstance(tree, dict) else list(tree)
    copied[head] = _replace(tree[head], rest, value)
    return copied
