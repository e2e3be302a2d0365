"""Reading an action's arguments. The same verbs serve `when` steps, which name things
(`A`, `A.2`, `Melt`), and card effects, which describe targets the player then chooses."""

from __future__ import annotations

from typing import Any

from charnel.engine.errors import ExampleError, Illegal

from . import abilities
from .state import Abomination, Card, InPlay, State


class Args:
    """A step's arguments, naming things directly."""

    def __init__(self, state: State, raw: dict, path: tuple, actor: str):
        self.state, self.raw, self.path, self.actor = state, raw, path, actor

    def has(self, key: str) -> bool:
        return key in self.raw

    def get(self, key: str, default: Any = None) -> Any:
        return self.raw.get(key, default)

    def at(self, key: str) -> tuple:
        return (*self.path, key)

    def require(self, key: str) -> Any:
        if key not in self.raw:
            raise ExampleError(self.path, f"missing '{key}'")
        return self.raw[key]

    # --- things in play -----------------------------------------------------------------

    def lookup(self, ref: Any, path: tuple) -> Abomination | Card | InPlay:
        state = self.state
        text = str(ref)
        if text in state.abominations:
            return state.abominations[text]
        if "." in text:
            name, _, pos = text.rpartition(".")
            abom = state.abominations.get(name)
            if abom is not None and pos.isdigit() and 1 <= int(pos) <= abom.size:
                return abom.minions[int(pos) - 1]
            if abom is not None:
                raise ExampleError(path, f"{name} has no minion {pos} (it has {abom.size})")
        if text.startswith("god:"):
            who = text[4:]
            god = state.players[who].god if who in state.players else None
            if god is None:
                raise ExampleError(path, f"'{who}' has no god")
            return god
        for name in state.order:
            for relic in state.player(name).relics:
                if relic.name == text:
                    return relic
        raise ExampleError(path, f"nothing in play is named '{text}'")

    def thing(self, key: str = "target"):
        return self.lookup(self.require(key), self.at(key))

    def abomination(self, key: str = "target") -> Abomination:
        found = self.thing(key)
        if not isinstance(found, Abomination):
            raise ExampleError(self.at(key), f"'{self.raw[key]}' is not an abomination")
        return found

    def minion(self, key: str = "target") -> Card:
        found = self.thing(key)
        if not isinstance(found, Card):
            raise ExampleError(
                self.at(key), f"'{self.raw[key]}' is not a minion (write A.1 for A's top)"
            )
        return found

    def minions(self, key: str) -> list[Card]:
        refs = self.require(key)
        if not isinstance(refs, list):
            raise ExampleError(self.at(key), "a list of minions, e.g. [A.1, B.2]")
        out = []
        for i, ref in enumerate(refs):
            found = self.lookup(ref, (*self.at(key), i))
            if not isinstance(found, Card):
                raise ExampleError((*self.at(key), i), f"'{ref}' is not a minion")
            out.append(found)
        return out

    # --- numbers, players, cards in zones ---------------------------------------------

    def amount(self, key: str = "amount", default: int | None = None) -> int:
        """A number, or `{up_to: N}`: the player picks 0..N (an `up_to` choice; N without)."""
        value = self.raw.get(key, default)
        if isinstance(value, dict) and set(value) == {"up_to"}:
            return self._picked_up_to(self._number(value["up_to"], key), key)
        return self._number(value, key)

    def _number(self, value: Any, key: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ExampleError(self.at(key), f"'{key}' must be a whole number or {{up_to: N}}")
        return value

    def _picked_up_to(self, most: int, key: str) -> int:
        choice = self.state.choose("up_to")
        if choice is None:
            return max(most, 0)
        picked = choice.value
        if isinstance(picked, bool) or not isinstance(picked, int) or not 0 <= picked <= most:
            raise ExampleError(choice.path, f"up to {most}: choose a whole number from 0 to {most}")
        return picked

    def players(self, key: str = "player") -> list[str]:
        who = self.raw.get(key, self.actor)
        if who not in self.state.players:
            raise ExampleError(
                self.at(key), f"no player '{who}' (players: {', '.join(self.state.order)})"
            )
        return [who]

    def player(self, key: str = "player") -> str:
        found = self.players(key)
        if len(found) != 1:
            raise ExampleError(
                self.at(key),
                f"this acts on one player, but '{key}: {self.raw.get(key)}' "
                f"names {len(found)}; to choose one enemy, write {key}: {{player: enemy}}",
            )
        return found[0]

    def card_in(self, cards: list[Card], where: str, key: str = "card") -> Card:
        ref = self.require(key)
        for card in cards:
            if card.answers_to(ref):
                return card
        raise ExampleError(self.at(key), f"no card '{ref}' in {where}")

    def keywords(self, key: str = "keywords"):
        return abilities.decode_all(self.state, self.require(key), self.at(key))


class _AnyTargets(list):
    """`targets: any`: each targeted effect takes its first legal target."""


ANY = _AnyTargets()


def chosen_targets(written: Any, path: tuple) -> list:
    """A step's `targets:`: a list of names, or `any` for the first legal target of each."""
    if written == "any":
        return ANY
    if written is None:
        return []
    if not isinstance(written, list):
        raise ExampleError(path, "targets is a list, e.g. [C, A.2], or 'any'")
    return list(written)


class EffectArgs(Args):
    """A card effect's arguments: targets are filters the chosen targets must meet, `X` is
    what was paid, players are relative to the card's controller."""

    def __init__(
        self,
        state: State,
        raw: dict,
        path: tuple,
        actor: str,
        *,
        source_doom: str | None,
        chosen: list,
        x: int | None,
        holder: Abomination | None,
    ):
        super().__init__(state, raw, path, actor)
        self.source_doom, self.chosen, self.x, self.holder = source_doom, chosen, x, holder

    def thing(self, key: str = "target"):
        spec = self.require(key)
        if spec == "self":
            if self.holder is None:
                raise ExampleError(self.at(key), "'self' is only for abilities of minions in play")
            return self.holder
        if spec == "it":
            if self.state.last_target is None:
                raise ExampleError(self.at(key), "'it' is the target an earlier effect chose")
            return self.state.last_target
        if not isinstance(spec, dict):
            return super().thing(key)
        return self.choose(spec)

    def minions(self, key: str) -> list[Card]:
        specs = self.require(key)
        if not isinstance(specs, list) or not all(isinstance(s, dict) for s in specs):
            return super().minions(key)
        return [self.choose({"minion": "any", **spec}) for spec in specs]

    def choose(self, spec: dict):
        """The next chosen target, which must meet `spec`; with `targets: any`, the first
        legal one (abominations in play order, minions top first)."""
        if self.chosen is ANY:
            legal = candidates(self.state, spec, self.actor, self.source_doom)
            if not legal:
                raise Illegal("no-target", "the effect has no legal target")
            found = legal[0]
        elif not self.chosen:
            legal = candidates(self.state, spec, self.actor, self.source_doom)
            if not legal:
                raise Illegal("no-target", "the effect has no legal target")
            raise ExampleError(
                self.path, "the effect targets: name the target in the step's 'targets:'"
            )
        else:
            found = self.lookup(self.chosen.pop(0), self.path)
            why = target_refusal(self.state, spec, found, self.actor, self.source_doom)
            if why is not None:
                raise Illegal(*why)
        self.state.last_target = found
        return found

    def _number(self, value: Any, key: str) -> int:
        if isinstance(value, str) and "X" in value:
            if self.x is None:
                raise ExampleError(self.at(key), "the amount uses X but no X was paid")
            text = value.replace(" ", "").replace("X", str(self.x))
            try:
                return sum(int(part) for part in text.replace("-", "+-").split("+") if part)
            except ValueError:
                raise ExampleError(self.at(key), f"cannot read amount '{value}'") from None
        return super()._number(value, key)

    def players(self, key: str = "player") -> list[str]:
        who = self.raw.get(key, "self")
        if isinstance(who, dict):
            return [self.target_player(who, key)]
        if who == "self":
            return [self.actor]
        if who == "enemy":  # "each enemy", around the table from the controller's left
            return self.state.seating_from(self.actor)[1:]
        if who == "each":
            return self.state.seating_from(self.actor)
        return super().players(key)

    def target_player(self, spec: dict, key: str) -> str:
        """`player: {player: enemy}`: a player the card's controller chooses (a target)."""
        side = spec.get("player")
        if set(spec) != {"player"} or side not in ("enemy", "any"):
            raise ExampleError(
                self.at(key), "a targeted player is {player: enemy} or {player: any}"
            )
        legal = self.state.seating_from(self.actor)
        if side == "enemy":
            legal = legal[1:]
        if self.chosen is ANY:
            return legal[0]
        if not self.chosen:
            raise ExampleError(self.path, "the effect targets a player: name them in 'targets:'")
        who = str(self.chosen.pop(0))
        if who not in legal:
            raise Illegal("bad-target", f"'{who}' is not a legal target ({', '.join(legal)})")
        return who


TARGET_KINDS = ("abomination", "minion", "relic", "god")
SIDES = ("any", "enemy", "yours")


def _spec_side(spec: dict) -> tuple[str, str]:
    for kind in TARGET_KINDS:
        if kind in spec:
            return kind, spec[kind]
    return "abomination", "any"


def holder_of(state: State, item: InPlay) -> str:
    """The player whose play zone holds a relic or god."""
    return next(
        name
        for name in state.order
        if state.player(name).god is item or any(r is item for r in state.player(name).relics)
    )


def _in_play_refusal(state: State, kind: str, side: str, spec: dict, found, controller: str):
    """Why a relic or god can't be the target: wrong kind, side or doom. Nemesis protects
    abominations only, so nothing else refuses it."""
    p = state.player(holder_of(state, found)) if isinstance(found, InPlay) else None
    if p is None or (p.god is found) != (kind == "god"):
        return "bad-target", f"the effect targets a {kind}"
    owner = p.name
    if (side == "yours" and owner != controller) or (side == "enemy" and owner == controller):
        whose = "your" if side == "yours" else "an enemy"
        return "bad-target", f"the effect targets {whose} {kind}"
    if "doom" in spec and found.card.doom != spec["doom"]:
        return "bad-target", f"the target does not meet doom: {spec['doom']}"
    return None


def target_refusal(state: State, spec: dict, found, controller: str, doom: str | None):
    kind, side = _spec_side(spec)
    if kind in ("relic", "god"):
        return _in_play_refusal(state, kind, side, spec, found, controller)
    if kind == "abomination" and not isinstance(found, Abomination):
        return "bad-target", "the effect targets an abomination"
    if kind == "minion" and not isinstance(found, Card):
        return "bad-target", "the effect targets a minion"
    abom = found if isinstance(found, Abomination) else state.where_is(found)
    if abom is None:
        return "bad-target", "the target is not in play"
    if (side == "yours" and abom.owner != controller) or (
        side == "enemy" and abom.owner == controller
    ):
        return (
            "bad-target",
            f"the effect targets {'your' if side == 'yours' else 'an enemy'} abomination",
        )
    power = (
        abilities.strength(state, abom)
        if isinstance(found, Abomination)
        else abilities.strengths(state, abom)[abom.minions.index(found)]
    )
    checks = [
        ("strength_max", lambda v: power <= v),
        ("strength_min", lambda v: power >= v),
        ("size_min", lambda v: abom.size >= v),
        ("size_max", lambda v: abom.size <= v),
        ("tapped", lambda v: abom.tapped == v),
        (
            "doom",
            lambda v: (
                v in ({found.doom} if isinstance(found, Card) else {m.doom for m in abom.minions})
            ),
        ),
        (
            "subtype",
            lambda v: (found.subtype if isinstance(found, Card) else abom.top.subtype) == v,
        ),
    ]
    for key, test in checks:
        if key in spec and not test(spec[key]):
            return "bad-target", f"the target does not meet {key}: {spec[key]}"
    if doom is not None and doom in abilities.keywords(state, abom).get("nemesis", []):
        return "nemesis", f"{abom.name} is a Nemesis ({doom}): {doom} abilities can't target it"
    return None


def candidates(state: State, spec: dict, controller: str, doom: str | None) -> list:
    """Legal targets: abominations in play order, minions top first; relics and gods in
    seating order from the controller."""
    kind, _ = _spec_side(spec)
    pool: list = []
    if kind in ("relic", "god"):
        for name in state.seating_from(controller):
            p = state.player(name)
            pool.extend(p.relics if kind == "relic" else [p.god] if p.god else [])
    for abom in state.abominations.values() if kind in ("abomination", "minion") else []:
        pool.extend([abom] if kind == "abomination" else abom.minions)
    return [t for t in pool if target_refusal(state, spec, t, controller, doom) is None]


def is_targeted(effect: dict) -> bool:
    return any(
        isinstance(v, dict) and isinstance(v.get("target"), dict) and not is_group(v["target"])
        for v in effect.values()
    )


# --- groups: "each abomination", "each enemy minion of greed" ----------------------------


def is_group(spec: Any) -> bool:
    """`{abominations: enemy}` or `{minions: yours, doom: greed}`: every member, untargeted."""
    return isinstance(spec, dict) and ("abominations" in spec or "minions" in spec)


def group_members(state: State, controller: str, holder, spec: dict) -> list:
    """The members of a group when the effect begins: abominations in play order, each
    one's minions top first. Filters as continual groups have; Nemesis refuses targets only."""
    if "minions" not in spec:
        return [
            a
            for a in state.abominations.values()
            if abilities.group_matches(state, controller, holder, spec, a)
        ]
    side = spec["minions"]
    members = []
    for abom in state.abominations.values():
        if (side == "yours" and abom.owner != controller) or (
            side == "enemy" and abom.owner == controller
        ):
            continue
        members += [
            m
            for m in abom.minions
            if all(getattr(m, key) == spec[key] for key in ("doom", "subtype") if key in spec)
        ]
    return members


def in_play(state: State, thing) -> bool:
    if isinstance(thing, Abomination):
        return state.abominations.get(thing.name) is thing
    return state.where_is(thing) is not None


def name_of(state: State, thing) -> str:
    """How a step names it: `A`, or `A.2` for A's second minion from the top."""
    if isinstance(thing, Abomination):
        return thing.name
    abom = state.where_is(thing)
    return f"{abom.name}.{abom.minions.index(thing) + 1}"
