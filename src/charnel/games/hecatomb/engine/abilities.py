"""What an abomination or minion can do right now: keywords (printed, granted, continual),
strength, and the rule checks that keywords and overrides change.

Main abilities apply to the abomination; a few apply to the minion alone. "Can't" beats
"can": a forbid or Guardian wins over Fanatic or an allow.
"""

from __future__ import annotations

from typing import Any

from charnel.engine.errors import ExampleError
from charnel.records import KeywordUse

from .state import Abomination, Card, InPlay, State

MINION_ONLY = {"regenerator", "martyr", "soulbound", "host", "tap", "follower"}
DEFAULT_STACKING = {
    "reaper": "sum",
    "rager": "sum",
    "survivor": "sum",
    "evader": "union",
    "nemesis": "union",
    "soulbound": "union",
}


def stacking(state: State, slug: str) -> str:
    syntax = state.book.syntaxes.get(slug) if state.book is not None else None
    if syntax is not None:
        return syntax.term.keyword.stacking
    return DEFAULT_STACKING.get(slug, "flag")


def decode_all(state: State, entries: Any, path: tuple) -> list[KeywordUse]:
    """Keyword encodings (as cards write them) -> KeywordUse, via the game's glossary."""
    if not isinstance(entries, list):
        raise ExampleError(path, "keywords are a list, e.g. [reaper: 1, fanatic]")
    out = []
    for i, entry in enumerate(entries):
        try:
            out.append(state.book.decode(entry))
        except ValueError as exc:
            raise ExampleError((*path, i), str(exc)) from None
    return out


def controls_god(state: State, player: str) -> bool:
    return state.player(player).god is not None


def minion_keywords(state: State, abom: Abomination | None, card: Card) -> list[KeywordUse]:
    """A minion's own abilities: printed, Follower abilities while its player has a god,
    and abilities granted to that minion until end of turn."""
    found: list[KeywordUse] = []
    owner = abom.owner if abom is not None else card.owner
    for use in card.keywords:
        if use.keyword == "follower":
            if controls_god(state, owner) and state.book is not None:
                inner, _ = state.book.read(str(next(iter(use.params.values()), "")))
                found.extend(inner)
            continue
        found.append(use)
    for temp in state.temporary:
        if temp.kind == "grant" and temp.target is card:
            found.extend(temp.keywords)
    return found


def continual_effects(state: State):
    """(controller, source card, holder abomination or None, effect) for every continual effect."""
    for name in state.order:
        player = state.player(name)
        held: list[InPlay] = list(player.relics) + ([player.god] if player.god else [])
        for item in held:
            for effect in item.card.effects:
                if effect.get("on") == "continual":
                    yield name, item.card, None, effect
    for abom in list(state.abominations.values()):
        for i, card in enumerate(abom.minions):
            for effect in card.effects:
                if effect.get("on") == "continual":
                    yield abom.owner, card, abom, effect
            cond = card.conditional
            if cond and i + 1 < abom.size and cond.get("doom") in abom.minions[i + 1].triggers:
                for effect in cond.get("effects", []):
                    if effect.get("on") == "continual":
                        yield abom.owner, card, abom, effect


def group_matches(state: State, controller: str, holder, target: Any, abom: Abomination) -> bool:
    """Whether a continual effect's target (`self` or a group filter) covers `abom`."""
    if target == "self":
        return holder is abom
    if not isinstance(target, dict):
        return False
    side = target.get("abominations", "all")
    if side == "yours" and abom.owner != controller:
        return False
    if side == "enemy" and abom.owner == controller:
        return False
    if "subtype" in target and abom.top.subtype != target["subtype"]:
        return False
    if "doom" in target and target["doom"] not in {m.doom for m in abom.minions}:
        return False
    return True


def _continual_on(state: State, abom: Abomination, verb: str):
    for controller, _card, holder, effect in continual_effects(state):
        args = effect.get(verb)
        if isinstance(args, dict) and group_matches(
            state, controller, holder, args.get("target"), abom
        ):
            yield args


def keywords(state: State, abom: Abomination) -> dict[str, Any]:
    """The abomination's abilities, stacked: sum -> int, union -> sorted list, flag -> True."""
    uses: list[KeywordUse] = []
    for card in abom.minions:
        uses.extend(u for u in minion_keywords(state, abom, card) if u.keyword not in MINION_ONLY)
    for temp in state.temporary:
        if temp.kind == "grant" and temp.target is abom:
            uses.extend(temp.keywords)
    for args in _continual_on(state, abom, "grant"):
        uses.extend(decode_all(state, args.get("keywords", []), ()))
    return stack(state, uses)


def stack(state: State, uses: list[KeywordUse]) -> dict[str, Any]:
    """Keywords added up by their glossary stacking rule."""
    out: dict[str, Any] = {}
    for use in uses:
        rule = stacking(state, use.keyword)
        value = next(iter(use.params.values()), True)
        if rule == "sum":
            out[use.keyword] = out.get(use.keyword, 0) + int(value)
        elif rule == "union":
            out[use.keyword] = sorted(set(out.get(use.keyword, [])) | {value})
        elif rule == "max":
            out[use.keyword] = max(out.get(use.keyword, value), value)
        elif rule == "each":
            out.setdefault(use.keyword, []).append(use.params)
        else:
            out[use.keyword] = True
    return out


def attacking(state: State, abom: Abomination) -> bool:
    combat = state.combat
    return combat is not None and abom.name in combat.attackers and abom.name not in combat.left


def strengths(state: State, abom: Abomination) -> list[int]:
    """Each minion's current strength, top first. Changes to the abomination (fates,
    continual effects, Rager while attacking) land on whichever minion is on top."""
    out = []
    for i, card in enumerate(abom.minions):
        value = card.strength + sum(
            t.amount for t in state.temporary if t.kind == "strength" and t.target is card
        )
        if i == 0:
            value += sum(
                t.amount for t in state.temporary if t.kind == "strength" and t.target is abom
            )
            value += sum(int(a.get("amount", 0)) for a in _continual_on(state, abom, "strength"))
            if attacking(state, abom):
                value += keywords(state, abom).get("rager", 0)
        out.append(max(value, 0))  # below 0 is no different from 0
    return out


def strength(state: State, abom: Abomination) -> int:
    return sum(strengths(state, abom))


def _overrides(state: State, abom: Abomination, kind: str, action: str) -> bool:
    if any(t.kind == kind and t.action == action and t.target is abom for t in state.temporary):
        return True
    return any(a.get("action") == action for a in _continual_on(state, abom, kind))


def attack_refusal(state: State, abom: Abomination) -> tuple[str, str] | None:
    """Why this abomination can't attack now, or None."""
    kw = keywords(state, abom)
    if abom.tapped:
        return "tapped", f"{abom.name} is tapped"
    if kw.get("guardian"):
        return "guardian", f"{abom.name} is a Guardian and can't attack"
    if _overrides(state, abom, "forbid", "attack"):
        return "forbidden", f"an effect says {abom.name} can't attack"
    allowed = _overrides(state, abom, "allow", "attack")
    if abom.size < 2 and not allowed:
        return "one-minion", f"{abom.name} has one minion and can't attack"
    if abom.added and not (kw.get("fanatic") or allowed):
        return "added", f"a minion was added to {abom.name} this turn, so it can't attack"
    return None


def block_refusal(
    state: State, blocker: Abomination, attacker: Abomination
) -> tuple[str, str] | None:
    """Why `blocker` can't block `attacker`, or None."""
    if blocker.tapped:
        return "tapped", f"{blocker.name} is tapped and can't block"
    if _overrides(state, blocker, "forbid", "block"):
        return "forbidden", f"an effect says {blocker.name} can't block"
    if blocker.size < 2 and not _overrides(state, blocker, "allow", "block"):
        return "one-minion", f"{blocker.name} has one minion and can't block"
    if _shuts_out(state, attacker, blocker):
        return "forbidden", f"an effect says {attacker.name} can't be blocked by {blocker.name}"
    evades = set(keywords(state, attacker).get("evader", []))
    shared = evades & {m.doom for m in blocker.minions}
    if shared:
        return "evader", (
            f"{attacker.name} is an Evader ({', '.join(sorted(shared))}) and {blocker.name} "
            "has a minion of that doom"
        )
    return None


def _shuts_out(state: State, attacker: Abomination, blocker: Abomination) -> bool:
    """Whether a "can't be blocked (by ...)" override on the attacker covers this blocker.
    A subtype is the blocker's top minion's (12.6b); a doom is any of its minions'."""
    found = [
        t.by or {}
        for t in state.temporary
        if t.kind == "forbid" and t.action == "be_blocked" and t.target is attacker
    ]
    found += [
        a.get("by") or {}
        for a in _continual_on(state, attacker, "forbid")
        if a.get("action") == "be_blocked"
    ]
    return any(
        by.get("subtype", blocker.top.subtype) == blocker.top.subtype
        and ("doom" not in by or by["doom"] in {m.doom for m in blocker.minions})
        for by in found
    )
