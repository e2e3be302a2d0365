"""The game state the engine acts on: cards, abominations, players, the attack in progress.

Plain mutable dataclasses; the actions modules change them and the facts module reads them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from charnel.engine.script import Choice, Script
from charnel.records import KeywordUse

MAX_SIZE = 5  # minions in one abomination
WINNING_SOULS = 20


@dataclass(eq=False)
class Card:
    """One physical card, wherever it is. Identity matters: two 3s are different cards."""

    name: str
    owner: str
    type: str = "minion"
    doom: str | None = None
    cost: str = "0"
    strength: int = 0
    subtype: str | None = None
    combat: bool = False
    keywords: list[KeywordUse] = field(default_factory=list)
    effects: list[dict[str, Any]] = field(default_factory=list)
    triggers: list[str] = field(default_factory=list)
    conditional: dict[str, Any] | None = None
    slug: str | None = None
    tapped: bool = False  # as a mana card
    controller: str | None = None  # a player who gained control of it (None: as its abomination)

    def has(self, slug: str) -> bool:
        return any(k.keyword == slug for k in self.keywords)

    def params(self, slug: str) -> list[dict[str, Any]]:
        return [k.params for k in self.keywords if k.keyword == slug]

    def cost_parts(self) -> tuple[int, bool]:
        """(fixed part, has X): 'X+2' -> (2, True), '3' -> (3, False)."""
        text = self.cost.replace(" ", "")
        digits = re.findall(r"\d+", text)
        fixed = int(digits[0]) if digits else 0
        return (-fixed if "X-" in text else fixed), "X" in text

    def answers_to(self, ref: Any) -> bool:
        """Whether an example's name for a card (name, slug, strength or doom) means this card."""
        if isinstance(ref, bool) or not isinstance(ref, (int, str)):
            return False
        if isinstance(ref, int):
            return self.type == "minion" and self.strength == ref
        return str(ref).lower() in (self.name.lower(), (self.slug or "").lower())


@dataclass(eq=False)
class Abomination:
    name: str
    owner: str
    minions: list[Card]  # top first
    tapped: bool = False
    added: bool = False  # a minion was played or stitched onto it this turn

    @property
    def size(self) -> int:
        return len(self.minions)

    @property
    def top(self) -> Card:
        return self.minions[0]


@dataclass(eq=False)
class InPlay:
    """A relic or god in the play zone."""

    name: str
    card: Card


@dataclass
class Player:
    name: str
    souls: int = 5
    hand: list[Card] = field(default_factory=list)
    deck: list[Card] = field(default_factory=list)  # top first
    mana: list[Card] = field(default_factory=list)
    pool: list[str | None] = field(default_factory=list)  # dooms of generated mana
    graveyard: list[Card] = field(default_factory=list)
    removed: list[Card] = field(default_factory=list)
    relics: list[InPlay] = field(default_factory=list)
    god: InPlay | None = None
    mana_added: bool = False
    seen: list[Card] = field(default_factory=list)  # others' hidden cards this player saw
    shuffled: bool = False  # the deck's order is no longer known


@dataclass
class Combat:
    """One attack: who attacks whom, blocks, and which abominations are still in it."""

    aggressor: str
    defender: str
    attackers: list[str]  # names still in combat
    blocks: dict[str, str] = field(default_factory=dict)  # attacker -> blocker
    blocked: set[str] = field(default_factory=set)  # stays blocked even if the blocker leaves
    hunted: dict[str, str] = field(default_factory=dict)  # hunter -> forced blocker
    blockers_declared: bool = False
    left: set[str] = field(default_factory=set)  # abominations removed from combat
    # In each window for combat cards (before blocks, after blocks) the aggressor plays first;
    # once the defender has played, the aggressor's turn in that window is over (10.3b, 10.5a).
    defender_played: bool = False

    def in_combat(self, name: str) -> bool:
        if name in self.left:
            return False
        return name in self.attackers or name in self.blocks.values()


@dataclass
class Temporary:
    """A one-time effect that changes stats or overrides rules until end of turn."""

    kind: str  # strength | grant | forbid | allow
    target: Abomination | Card
    amount: int = 0
    keywords: list[KeywordUse] = field(default_factory=list)
    action: str = ""
    by: dict[str, Any] | None = None  # forbid be_blocked: which blockers (subtype, doom)


@dataclass
class State:
    players: dict[str, Player]
    order: list[str]  # seating, which is turn order
    turn: str
    abominations: dict[str, Abomination] = field(default_factory=dict)
    first_turn: bool = False
    combat: Combat | None = None
    winner: str | None = None
    temporary: list[Temporary] = field(default_factory=list)
    script: Script = field(default_factory=Script)  # the example's choices and dice
    new_names: int = 0
    book: Any = None  # the game's KeywordBook, for reading Follower abilities
    last_target: Any = None  # what the running card's last targeted effect chose ("it")
    at_once: list | None = None  # damage of a group effect, destroyed together when it ends

    def player(self, name: str) -> Player:
        return self.players[name]

    def enemies(self, name: str) -> list[str]:
        return [p for p in self.order if p != name]

    def next_player(self, name: str) -> str:
        return self.order[(self.order.index(name) + 1) % len(self.order)]

    def seating_from(self, name: str) -> list[str]:
        i = self.order.index(name)
        return self.order[i:] + self.order[:i]

    def fresh_name(self) -> str:
        while True:
            self.new_names += 1
            name = f"new{self.new_names}"
            if name not in self.abominations:
                return name

    def where_is(self, card: Card) -> Abomination | None:
        for abom in self.abominations.values():
            if any(m is card for m in abom.minions):
                return abom
        return None

    def choose(self, kind: str, match=None) -> Choice | None:
        """The first unused scripted choice of this kind (and matching, when given)."""
        return self.script.choose(kind, match)
