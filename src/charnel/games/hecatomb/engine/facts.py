"""Reading `then`: each written fact is computed from the state and compared. Only what is
written is compared; a list compares in full, a mapping only its keys."""

from __future__ import annotations

from typing import Any

from charnel.engine.errors import ExampleError

from . import abilities
from .state import Abomination, Card, State

Mismatch = tuple[str, Any, Any]
PLAYER_FACTS = (
    "souls",
    "hand",
    "deck",
    "graveyard",
    "removed",
    "mana",
    "pool",
    "relics",
    "god",
    "seen",
)
ABOMINATION_FACTS = (
    "owner",
    "minions",
    "size",
    "strength",
    "tapped",
    "added",
    "keywords",
    "dooms",
    "subtype",
    "blocked",
    "attacking",
)
CARD_KEYS = ("name", "strength", "doom", "subtype", "keywords", "abilities", "type")
FACTS = (*PLAYER_FACTS, "players", "winner", "turn", "combat", "abominations")


def compare(state: State, then: dict) -> list[Mismatch]:
    out: list[Mismatch] = []
    for key, expected in then.items():
        if key in PLAYER_FACTS:
            for who, value in _by_player(state, key, expected, ("then", key)):
                _player_fact(state, who, key, value, f"{key}.{who}", ("then", key, who), out)
        elif key == "players":
            for who, facts in _by_player(state, key, expected, ("then", key)):
                if not isinstance(facts, dict):
                    raise ExampleError(("then", key, who), "a mapping of player facts")
                for fact, value in facts.items():
                    if fact not in PLAYER_FACTS:
                        raise ExampleError(("then", key, who, fact), _unknown(fact, PLAYER_FACTS))
                    _player_fact(
                        state,
                        who,
                        fact,
                        value,
                        f"players.{who}.{fact}",
                        ("then", key, who, fact),
                        out,
                    )
        elif key == "winner":
            _check(out, "winner", _none(expected), state.winner)
        elif key == "turn":
            _check(out, "turn", expected, state.turn)
        elif key == "combat":
            _check(out, "combat", expected, state.combat is not None)
        elif key == "abominations":
            if not isinstance(expected, dict):
                raise ExampleError(("then", key), "abominations is a mapping: name -> facts")
            for name, facts in expected.items():
                _abomination(state, str(name), facts, ("then", key, name), out)
        else:
            raise ExampleError(("then", key), _unknown(key, FACTS))
    return out


def _unknown(key: str, known) -> str:
    return f"unknown fact '{key}' (known: {', '.join(known)})"


def _none(value: Any) -> Any:
    return None if value in ("none", None) else value


def _check(out: list[Mismatch], where: str, expected: Any, actual: Any) -> None:
    if expected != actual:
        out.append((where, expected, actual))


def _by_player(state: State, key: str, expected: Any, path: tuple):
    if not isinstance(expected, dict):
        raise ExampleError(path, f"{key} is a mapping by player, e.g. {{you: ...}}")
    for who, value in expected.items():
        if who not in state.players:
            raise ExampleError((*path, who), f"no player '{who}'")
        yield who, value


def _player_fact(
    state: State, who: str, key: str, expected: Any, where: str, path: tuple, out: list[Mismatch]
) -> None:
    p = state.player(who)
    if key == "souls":
        _check(out, where, expected, p.souls)
    elif key == "pool":
        _check(out, where, expected, len(p.pool))
    elif key == "god":
        actual = p.god.card.name if p.god else None
        if _none(expected) is None or actual is None:
            _check(out, where, _none(expected), actual)
        elif not p.god.card.answers_to(expected):
            out.append((where, expected, actual))
    elif key == "relics":
        _cards(state, [r.card for r in p.relics], expected, where, path, out)
    elif key == "mana":
        if isinstance(expected, dict):
            actual = {
                "count": len(p.mana),
                "tapped": sum(c.tapped for c in p.mana),
                "untapped": sum(not c.tapped for c in p.mana),
                "dooms": [c.doom for c in p.mana],
            }
            for k, v in expected.items():
                if k not in actual:
                    raise ExampleError((*path, k), _unknown(k, actual))
                _check(out, f"{where}.{k}", v, actual[k])
        else:
            _cards(state, p.mana, expected, where, path, out)
    elif key == "deck" and p.shuffled and isinstance(expected, list):
        _cards(state, _in_written_order(state, p.deck, expected, path), expected, where, path, out)
    else:
        _cards(state, getattr(p, key), expected, where, path, out)


def _in_written_order(state: State, cards: list[Card], expected: list, path: tuple) -> list[Card]:
    """A shuffled deck has no known order: line its cards up with the written ones where
    they match, so only which cards it holds is compared."""
    rest = list(cards)
    lined: list[Card] = []
    for i, want in enumerate(expected):
        hit = next((c for c in rest if _card_matches(state, c, c.strength, want, (*path, i))), None)
        if hit is not None:
            rest.remove(hit)
            lined.append(hit)
    return lined + rest


def _cards(
    state: State,
    cards: list[Card],
    expected: Any,
    where: str,
    path: tuple,
    out: list[Mismatch],
    powers: list[int] | None = None,
) -> None:
    """A count, or the cards in order, each a strength, a name or a partial mapping."""
    if isinstance(expected, int) and not isinstance(expected, bool):
        _check(out, where, expected, len(cards))
        return
    if not isinstance(expected, list):
        raise ExampleError(path, "write a count or a list of cards")
    powers = powers if powers is not None else [c.strength for c in cards]
    shown = [
        _shown(
            state,
            c,
            powers[i],
            expected[i] if i < len(expected) else expected[-1] if expected else 0,
        )
        for i, c in enumerate(cards)
    ]
    same = len(cards) == len(expected) and all(
        _card_matches(state, c, powers[i], e, (*path, i))
        for i, (c, e) in enumerate(zip(cards, expected, strict=False))
    )
    if not same:
        out.append((where, expected, shown))


def _card_facts(state: State, card: Card, power: int) -> dict[str, Any]:
    return {
        "name": card.name,
        "strength": power,
        "doom": card.doom,
        "subtype": card.subtype,
        "type": card.type,
        "keywords": sorted(k.text for k in card.keywords),
        "abilities": sorted(
            u.text for u in abilities.minion_keywords(state, state.where_is(card), card)
        ),
    }


def _abilities(state: State, written: Any, path: tuple) -> list[str]:
    """Abilities written as encoded keywords or as printed text ("Survivor +2")."""
    if not isinstance(written, list):
        raise ExampleError(path, 'abilities are a list, e.g. [rager: 2] or ["Rager +2"]')
    out = []
    for i, entry in enumerate(written):
        if isinstance(entry, str) and entry not in state.book.syntaxes:
            found, rest = state.book.read(entry)
            if rest or len(found) != 1:
                raise ExampleError((*path, i), f"'{entry}' is not one keyword ability")
            out.append(found[0].text)
        else:
            out.extend(u.text for u in abilities.decode_all(state, [entry], (*path, i)))
    return sorted(out)


def _card_matches(state: State, card: Card, power: int, expected: Any, path: tuple) -> bool:
    if isinstance(expected, bool):
        raise ExampleError(path, "a card is a strength, a name or a mapping")
    if isinstance(expected, int):
        return power == expected
    if isinstance(expected, str):
        return card.answers_to(expected)
    if not isinstance(expected, dict):
        raise ExampleError(path, "a card is a strength, a name or a mapping")
    facts = _card_facts(state, card, power)
    for k, v in expected.items():
        if k not in facts:
            raise ExampleError((*path, k), _unknown(k, CARD_KEYS))
        if k == "keywords":
            v = sorted(u.text for u in abilities.decode_all(state, v, (*path, k)))
        if k == "abilities":
            v = _abilities(state, v, (*path, k))
        if k == "name" and card.answers_to(v):
            continue
        if facts[k] != v:
            return False
    return True


def _shown(state: State, card: Card, power: int, like: Any) -> Any:
    """The actual card written in the form the example used, so the diff reads alike."""
    if isinstance(like, dict):
        facts = _card_facts(state, card, power)
        return {k: facts.get(k) for k in like}
    if isinstance(like, str):
        return card.name
    return power


def _abomination(state: State, name: str, expected: Any, path: tuple, out: list[Mismatch]) -> None:
    abom = state.abominations.get(name)
    where = f"abominations.{name}"
    if expected == "gone":
        if abom is not None:
            out.append((where, "gone", f"in play with {abom.size} minions"))
        return
    if not isinstance(expected, dict):
        raise ExampleError(path, "write the abomination's facts as a mapping, or 'gone'")
    if abom is None:
        for key in expected:
            if key not in ABOMINATION_FACTS:
                raise ExampleError((*path, key), _unknown(key, ABOMINATION_FACTS))
        out.append((where, expected, "gone"))
        return
    for key, value in expected.items():
        here, at = f"{where}.{key}", (*path, key)
        if key == "minions":
            _cards(
                state, abom.minions, value, here, at, out, powers=abilities.strengths(state, abom)
            )
        elif key in ("keywords",):
            _check(out, here, _stacked(state, value, at), _encoded(abilities.keywords(state, abom)))
        elif key in ABOMINATION_FACTS:
            _check(out, here, value, _abomination_fact(state, abom, key))
        else:
            raise ExampleError(at, _unknown(key, ABOMINATION_FACTS))


def _abomination_fact(state: State, abom: Abomination, key: str) -> Any:
    combat = state.combat
    return {
        "owner": lambda: abom.owner,
        "size": lambda: abom.size,
        "strength": lambda: abilities.strength(state, abom),
        "tapped": lambda: abom.tapped,
        "added": lambda: abom.added,
        "dooms": lambda: sorted({m.doom for m in abom.minions if m.doom}),
        "subtype": lambda: abom.top.subtype,
        "blocked": lambda: combat is not None and abom.name in combat.blocked,
        "attacking": lambda: abilities.attacking(state, abom),
    }[key]()


def _stacked(state: State, written: Any, path: tuple) -> list:
    return _encoded(abilities.stack(state, abilities.decode_all(state, written, path)))


def _encoded(stacked: dict[str, Any]) -> list:
    out: list = []
    for slug in sorted(stacked):
        value = stacked[slug]
        if value is True:
            out.append(slug)
        elif isinstance(value, list):
            out.extend({slug: v} for v in value)
        else:
            out.append({slug: value})
    return out
