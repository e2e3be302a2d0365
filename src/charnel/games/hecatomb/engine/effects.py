"""Running a card's encoded effects (fates, summons, gods, relics, tap abilities) through
the shared verbs, with the targets the player chose and the X they paid."""

from __future__ import annotations

from charnel.engine.errors import ExampleError, Illegal, reject_unknown

from . import damage, refs
from .refs import EffectArgs
from .state import Abomination, Card, State
from .verbs import VERBS

TIMINGS = {"play", "continual", "tap", "end_of_turn", "end_of_your_turn", "ready", "played"}
# `on: played` is set off by another card being played; `played:` says which cards do.
PLAYED_FILTERS = {"by", "type", "doom", "subtype"}
SIDES = ("any", "enemy", "yours")
# A moment that belongs to one player: it happens only on that player's own turn.
OWN_TIMINGS = {"end_of_turn": "end_of_your_turn"}


def verb_of(effect: dict, path: tuple) -> str:
    if not isinstance(effect, dict):
        raise ExampleError(
            path, "an effect is a mapping such as {damage: {target: ..., amount: 2}}"
        )
    if effect.get("on", "play") not in TIMINGS:
        raise ExampleError((*path, "on"), f"'on' is one of {', '.join(sorted(TIMINGS))}")
    verbs = [k for k in effect if k not in ("on", "played")]
    if len(verbs) != 1 or verbs[0] not in VERBS:
        raise ExampleError(path, f"unknown effect {verbs} (known: {', '.join(sorted(VERBS))})")
    if "played" in effect:
        _played_filter(effect, (*path, "played"))
    return verbs[0]


def _played_filter(effect: dict, path: tuple) -> dict:
    wanted = effect.get("played", {})
    if effect.get("on") != "played" or not isinstance(wanted, dict):
        raise ExampleError(path, "'played: {by, type, doom, subtype}' goes with 'on: played'")
    reject_unknown(wanted, PLAYED_FILTERS, path, "played filter")
    if wanted.get("by", "any") not in SIDES:
        raise ExampleError((*path, "by"), f"by is one of {', '.join(SIDES)}")
    return wanted


def sets_off(effect: dict, card: Card, player: str, controller: str) -> bool:
    """Whether `card`, played by `player`, sets off this `on: played` effect."""
    wanted = _played_filter(effect, ())
    by = wanted.get("by", "any")
    if (by == "yours" and player != controller) or (by == "enemy" and player == controller):
        return False
    return all(getattr(card, k) == wanted[k] for k in ("type", "doom", "subtype") if k in wanted)


def timed(effects: list, when: str | set[str]) -> list[tuple[int, dict]]:
    moments = {when} if isinstance(when, str) else when
    return [
        (i, e)
        for i, e in enumerate(effects)
        if isinstance(e, dict) and e.get("on", "play") in moments
    ]


def check_targets(
    state: State,
    card: Card,
    effects: list[tuple[int, dict]],
    controller: str,
    doom: str | None,
    path: tuple,
) -> None:
    """A fate (or tap ability) with a targeted effect needs a legal target to be played."""
    for i, effect in effects:
        verb = verb_of(effect, (*path, i))
        for spec in target_specs(effect[verb]):
            if not refs.candidates(state, spec, controller, doom):
                raise Illegal("no-target", f"{card.name} has no legal target")


def target_specs(args) -> list[dict]:
    """The targets an effect's arguments describe: `target`, `onto`, and each of `minions`."""
    if not isinstance(args, dict):
        return []
    specs = [t for t in (args.get("target"), args.get("onto")) if not refs.is_group(t)]
    minions = args.get("minions")
    if isinstance(minions, list):
        specs += [{"minion": "any", **m} if isinstance(m, dict) else m for m in minions]
    return [s for s in specs if isinstance(s, dict)]


def run(
    state: State,
    card: Card,
    effects: list[tuple[int, dict]],
    controller: str,
    *,
    doom: str | None,
    chosen: list,
    x: int | None = None,
    holder: Abomination | None = None,
    path: tuple = (),
    skip_untargetable: bool = False,
) -> None:
    """Run effects in order; each targeted effect takes the next chosen target."""
    state.last_target = None
    for i, effect in effects:
        verb = verb_of(effect, (*path, i))
        args = effect[verb]
        if not isinstance(args, dict):
            args = {"amount": args} if isinstance(args, (int, str)) else {}
        apply, fields = VERBS[verb]
        reject_unknown(args, fields, (*path, i, verb), "field", f" for {verb}")
        if skip_untargetable and any(
            not refs.candidates(state, spec, controller, doom) for spec in target_specs(args)
        ):
            continue  # a summon without a legal target just doesn't happen
        group = args.get("target") if refs.is_group(args.get("target")) else None
        members = [None] if group is None else refs.group_members(state, controller, holder, group)
        with damage.group_at_once(state):  # every member at the same moment (ruling 12.7a)
            for member in members:  # a group is each of its members, untargeted
                if member is not None and not refs.in_play(state, member):
                    continue  # gone since the effect began (an earlier member's move, say)
                raw = args if member is None else {**args, "target": refs.name_of(state, member)}
                apply(
                    state,
                    EffectArgs(
                        state,
                        raw,
                        path,
                        controller,
                        source_doom=doom,
                        chosen=chosen,
                        x=x,
                        holder=holder,
                    ),
                )


def after_play(state: State, card: Card, player: str) -> None:
    """Abilities another card's play sets off, once that card's own abilities are done
    (12.3b); among themselves they are ordered as any simultaneous abilities (12.3c, 12.3d)."""
    timed_abilities(state, "played", played=(card, player))


def timed_abilities(
    state: State, when: str, player: str | None = None, played: tuple | None = None
) -> None:
    """Abilities that happen at a moment (end of turn, ready phase, a card played): the active
    player's first, then around the table; one player's own in the order they choose (`order`
    choice)."""
    for name in state.seating_from(state.turn):
        if player is not None and name != player:
            continue
        moments = {when}
        if when in OWN_TIMINGS and name == state.turn:
            moments.add(OWN_TIMINGS[when])
        sources: list[tuple[Card, Abomination | None]] = []
        p = state.player(name)
        sources += [(r.card, None) for r in p.relics]
        if p.god is not None:
            sources.append((p.god.card, None))
        for abom in state.abominations.values():
            if abom.owner == name:
                sources += [(m, abom) for m in abom.minions]
        sources = [(c, h) for c, h in sources if _firing(c, moments, played, name)]
        if len(sources) > 1:
            choice = state.choose("order")
            if choice is not None and isinstance(choice.value, list):
                rank = {str(v): i for i, v in enumerate(choice.value)}
                sources.sort(key=lambda s: rank.get(s[0].name, len(rank)))
        for card, holder in sources:
            run(
                state,
                card,
                _firing(card, moments, played, name),
                name,
                doom=card.doom,
                chosen=[],
                holder=holder,
                skip_untargetable=True,
            )


def _firing(card: Card, moments: set[str], played: tuple | None, controller: str) -> list:
    """The card's effects that happen now; for a card played, those it sets off."""
    found = timed(card.effects, moments)
    if played is None:
        return found
    if card is played[0]:
        return []  # a card's own play is not "another card being played"
    return [(i, e) for i, e in found if sets_off(e, played[0], played[1], controller)]
