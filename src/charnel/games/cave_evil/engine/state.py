"""The Cave Evil game state: cards, squads (a player's, or a Wandering Monster squad), the
cave, the decks and piles, players, the Blood Eye. Plain mutable dataclasses; the action
modules change them and `facts` reads them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from charnel.engine.errors import ExampleError, Illegal, reject_unknown

from .hexes import Hex

__all__ = ["ExampleError", "Illegal", "reject_unknown"]

ATTRIBUTES = ("st", "sp", "dd", "bt", "ar", "wp")
RESOURCES = ("metals", "gore", "shadowflame")
SIZES = {"large": 3, "medium": 2, "small": 1, "trinket": 0}
CONJURATION_DECKS = ("bribe", "construct", "summon", "abyss")
CONTROL_CARDS = ("N", "I", "II", "III", "IV", "V")
SQUAD_SPACE = 3
GORE_BY_SIZE = {"large": 3, "medium": 2, "small": 1, "trinket": 0}
# Kill Points in eighths, so sums stay exact: (enemy, wandering)
KILL_POINTS = {"large": (24, 8), "medium": (16, 4), "small": (8, 2), "trinket": (4, 1)}
ROCKS = 3
IMMEDIATE_SPEED = 4


@dataclass(eq=False)
class Card:
    """One physical card. Identity matters: two Necromonks are two cards."""

    name: str
    kind: str = "creature"  # creature | item | spell | event | necromancer | excavation | ...
    deck: str | None = None
    cost: dict[str, int] = field(default_factory=dict)
    movement: int = 0
    size: str = "small"
    carry_kind: str = "none"  # none | carry_only | carry_use
    carry: int = 0
    excavation: int = 0
    spellcaster: bool = False
    attributes: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ATTRIBUTES, 0))
    abilities: list[dict[str, Any]] = field(default_factory=list)
    species: list[str] = field(default_factory=list)
    use: str | None = None  # items: always_use | pay_to_use | discard_after_use
    large: bool = False  # a Large Item blocks line of sight
    tile: dict[str, Any] | None = None  # excavation cards
    spawn: list[dict[str, Any]] = field(default_factory=list)  # excavation and event cards
    draw: list[Any] = field(default_factory=list)  # event cards: the cards they draw
    # per turn
    spent: int = 0  # movement points used this turn
    acted: bool = False  # took part in an action this turn
    halted: bool = False  # may not move again this turn
    invoked: bool = False  # Invoked this turn

    @property
    def is_creature(self) -> bool:
        return self.kind in ("creature", "necromancer", "protector", "awakening-evil")

    @property
    def space(self) -> int:
        return SIZES[self.size]

    def ability(self, name: str) -> list[Any]:
        return [a[name] for a in self.abilities if name in a]

    def left(self) -> int:
        return 0 if self.halted else max(0, self.movement - self.spent)


@dataclass(eq=False)
class Dig:
    card: Card
    kind: str  # excavate | collapse
    rocks: int = ROCKS
    begun_turn: bool = True  # declared this turn (its next Continue is on a later turn)


@dataclass(eq=False)
class Squad:
    """The cards on one Control Card (owner set), or a Wandering Monster squad (owner None,
    label its Wandering Marker)."""

    owner: str | None
    label: str
    at: Hex | None = None
    creatures: list[Card] = field(default_factory=list)
    items: list[Card] = field(default_factory=list)  # items and spells carried
    resources: dict[str, int] = field(default_factory=lambda: dict.fromkeys(RESOURCES, 0))
    dig: Dig | None = None
    trapped: bool = False  # in a Collapse
    protector: bool = False
    home: Hex | None = None  # a Protector's Spawn Pit
    # this turn
    visited: set[Hex] = field(default_factory=set)  # hexes moved through (to pick up from)
    stopped: bool = False  # became adjacent to an enemy: moves no more
    one_step: set[Hex] | None = None  # finished digging: may step once onto these hexes

    @property
    def key(self) -> str:
        return f"{self.owner} {self.label}" if self.owner else self.label

    @property
    def wandering(self) -> bool:
        return self.owner is None

    @property
    def acted(self) -> bool:
        return any(c.acted for c in self.creatures)

    def necromancer(self) -> Card | None:
        return next((c for c in self.creatures if c.kind == "necromancer"), None)


@dataclass
class Player:
    name: str
    hand: list[Card] = field(default_factory=list)
    events: list[Card] = field(default_factory=list)  # drawn this turn, for Phase 4
    kills_enemy: list[Card] = field(default_factory=list)
    kills_wandering: list[Card] = field(default_factory=list)
    out: bool = False
    crystal: Hex | None = None
    necromancer_moved: bool = False
    invoked_into: set[str] = field(default_factory=set)  # squads that received Invoked cards
    invoked_spells: list[Card] = field(default_factory=list)  # may not be cast by N this turn
    moved_after_invoke: set[str] = field(default_factory=set)
    meditating: bool = False  # Secondary Conjuration: the N squad does not move
    n_action: str | None = None  # the N squad's action this turn (invoke, sacrifice, ...)
    once_used: bool = False  # the necromancer's once-per-game ability is spent


@dataclass
class Ground:
    resources: dict[str, int] = field(default_factory=lambda: dict.fromkeys(RESOURCES, 0))
    items: list[Card] = field(default_factory=list)
    marker: str | None = None  # the Wandering Marker pair on its items, while any lie here


@dataclass
class Cave:
    """Which hexes are open. With `all_open` every hex not listed undug is open (an example
    that does not care about the rock); otherwise only `open` hexes are."""

    all_open: bool = True
    open: set[Hex] = field(default_factory=set)
    undug: set[Hex] = field(default_factory=set)
    collapsed: set[Hex] = field(default_factory=set)
    pits: set[Hex] = field(default_factory=set)  # Spawn Pits (The Pit included)
    lair: set[Hex] = field(default_factory=set)  # Lair spaces and their steel: never dug
    the_pit: Hex | None = None
    thronerooms: set[Hex] = field(default_factory=set)  # their Spawn Pits
    pit_room: set[Hex] = field(default_factory=set)  # the spaces of The Pit's room
    tunnels: set[Hex] = field(default_factory=set)  # spaces of Tunnel tiles

    def is_open(self, h: Hex) -> bool:
        if h in self.collapsed or h in self.undug:
            return False
        return self.all_open or h in self.open or h in self.pits

    def is_undug(self, h: Hex) -> bool:
        return not self.is_open(h) and h not in self.collapsed


@dataclass
class Fight:
    """What the last Combat did, for facts."""

    attacker: list[str]
    defender: list[str]
    rounds: list[dict[str, Any]] = field(default_factory=list)
    winner: str | None = None  # attacker | defender
    killed: list[str] = field(default_factory=list)
    kind: str = "combat"  # combat | ranged | subdue | crystal
    ranged_defence: bool = False  # the defender fought with its Ranged creatures only
    ranged: bool = False  # the attacker fought at range (a Ranged Combat or Subdue)
    separate: list[Fight] = field(default_factory=list)  # rip apart: one fight per creature


@dataclass
class State:
    players: dict[str, Player]
    order: list[str]
    turn: str
    squads: dict[str, Squad] = field(default_factory=dict)  # key "owner label" or marker
    cave: Cave = field(default_factory=Cave)
    ground: dict[Hex, Ground] = field(default_factory=dict)
    decks: dict[str, list[Card]] = field(default_factory=dict)  # top first
    discards: dict[str, list[Card]] = field(default_factory=dict)  # top first
    box: list[Card] = field(default_factory=list)
    blood_eye: int = 0
    reveal_at: int | None = None
    awaken_at: int | None = None
    revealed: bool = False
    awakened: bool = False
    track_length: int | None = None
    awakening: str | None = None  # the Awakening Evil card's name
    phase: int = 3
    cycle: int = 1
    advanced: set[str] = field(default_factory=set)  # advanced rules in play
    fights: list[Fight] = field(default_factory=list)
    spawned: list[dict[str, Any]] = field(default_factory=list)  # what spawn rolls made
    winner: str | None = None
    everyone_lost: bool = False
    dice: Any = None
    choices: Any = None
    path: tuple = ()  # the step being run, for problems
    invoked_creatures_cycle: int = 0  # for the longer game
    conjured: bool = False  # Phase 2 done this turn
    second: str | None = None  # a round-two pick written in the step itself
    cards: object = None  # the example's known cards (pieces.Cards)
    obliged: set[str] = field(default_factory=set)  # squads that owe a fight this turn
    dug_by: dict = field(default_factory=dict)  # id(an Event a dig turned up): the digging squad
    used_abilities: set = field(default_factory=set)  # (cycle, turn, card id): once-a-turn uses
    marks: dict = field(default_factory=dict)  # what card effects remember (engine.effects)

    # --- lookups ------------------------------------------------------------------------

    def in_turn_order(self, first: str) -> list[str]:
        """The players still in the game, in turn order from `first`."""
        i = self.order.index(first)
        return [p for p in self.order[i:] + self.order[:i] if not self.players[p].out]

    def squads_of(self, player: str) -> list[Squad]:
        return [s for s in self.squads.values() if s.owner == player]

    def occupant(self, h: Hex) -> Squad | None:
        return next((s for s in self.squads.values() if s.at == h), None)

    def occupant_count(self, h: Hex) -> int:
        return sum(1 for s in self.squads.values() if s.at == h)

    def ground_at(self, h: Hex) -> Ground:
        if h not in self.ground:
            self.ground[h] = Ground()
        return self.ground[h]

    def free_control_card(self, player: str) -> str | None:
        used = {s.label for s in self.squads_of(player)}
        return next((c for c in CONTROL_CARDS[1:] if c not in used), None)

    def n_squad(self, player: str) -> Squad | None:
        return self.squads.get(f"{player} N")
