"""What each encoded ability says, in the words a card prints for it.

An ability encodes a printed sentence only when the sentence says exactly what the engine runs:
`wording` gives the sentences an ability may be printed as, from its own values. A sentence
that says more (a payment, a place the engine does not choose, a Protector drawn) matches none
and stays text only, so `charnel check --coverage` counts it honestly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import ATTRIBUTE_NAMES, ATTRIBUTES

if TYPE_CHECKING:
    from charnel.records import TextPart
    from charnel.verify.keyword_text import CardText

    from .cards import CaveEvilCard

NAMES = dict(zip(ATTRIBUTES, ATTRIBUTE_NAMES, strict=True))
EVERY_PIT = "The current player makes a regular Spawn Roll at every Spawn Pit, The Pit included"
COUNTS = {1: "a", 2: "two", 3: "three", 4: "four"}
TILE_NAMES = {
    "tunnel": "Tunnel",
    "alcove": "Alcove",
    "crook": "Crook",
    "antechamber": "Antechamber",
    "great-hall": "Great Hall",
    "throneroom": "Throneroom",
    "shrine": "Shrine",
    "temple": "Temple",
    "single-tile": "single-space tile",
}


def _changes(value: dict) -> str:
    """'+2 Strength and +3 Weapon', in the order written."""
    return " and ".join(
        f"{'+' if n > 0 else ''}{n} {NAMES[a]}" for a, n in value.items() if a in NAMES
    )


def _an(word: str) -> str:
    return f"{'an' if word[0].lower() in 'aeiou' else 'a'} {word}"


def _rolls(kind: str, n: int) -> str:
    """'an Excavation Spawn Roll', 'two regular Spawn Rolls'."""
    label = {"excavation": "Excavation", "resource": "Resource", "card": "Card"}.get(kind, kind)
    if n == 1:
        return f"{_an(label)} Spawn Roll"
    return f"{COUNTS.get(n, n)} {label} Spawn Rolls"


def _runs(rolls: list[str]) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for kind in rolls:
        if out and out[-1][0] == kind:
            out[-1] = (kind, out[-1][1] + 1)
        else:
            out.append((kind, 1))
    return out


def _excavation_spawn(rolls: list[str]) -> list[str]:
    """An excavation card's spawn sentence: where each roll lands, as the engine places it
    (regular rolls on the tile's Spawn Pit, resources on the diggers' Control Card, a card on
    the farthest space)."""
    if rolls and rolls[-1] == "protector" and set(rolls[:-1]) == {"regular"}:
        n = len(rolls) - 1
        return [f"Make {COUNTS.get(n, n)} Spawn Rolls onto its Spawn Pit, then draw a Protector "
                "and put its marker on the Spawn Pit"]
    if "protector" in rolls:
        return []
    where = {
        "regular": " on its Spawn Pit",
        "resource": "; the resources go on the excavating Squad's Control Card",
        "card": "; the card goes on the farthest space of the new tile",
        "excavation": "",
    }
    parts = [_rolls(kind, n) + where[kind] for kind, n in _runs(rolls)]
    return ["Make " + ", then ".join(parts)]


def wording(name: str, value: Any, kind: str) -> list[str]:
    """The sentences (no final stop) a card of `kind` may print for the ability; the first is
    how the ability is shown. One wording may hold several sentences, said together."""
    from .engine.effects.all import EFFECTS

    if name in EFFECTS:
        return EFFECTS[name].wording(value)
    if name == "combat":
        when = {"attacking": " as an Attacker", "defending": " when Defending"}.get(
            value.get("when"), ""
        )
        return [f"Combat: {_changes(value)}{when}"]
    if name == "binding":
        if value.get("against") == "necromancer":
            return [f"Binding: each creature of an enemy N Squad has {_changes(value)}"]
        return [f"Binding: each creature of the enemy Squad has {_changes(value)}"]
    if name == "mind":
        return [
            "Mind: when its Squad Defends, its player, not the Attacker, chooses the first "
            "Fight Round's attribute"
        ]
    if name == "forbids":
        return [f"Immune: no Items, Spells or Mind abilities work against {who}" for who in (
            "it", "her")]
    if name == "cancels":
        return [f"In a Combat against {_an(value)}, neither card has any effect"]
    if name == "enemy_total":
        return [
            "Cast during a Combat the caster's Squad is in, before any Fight Round: the enemy "
            f"Squad has {_changes(value)} in that Combat"
        ]
    if name == "ranged":
        reach = f"Ranged {value['range']}: may Combat at range {value['range']} with line of sight"
        first = value.get("first")
        if first:
            return [f"{reach}; the first Fight Round must be {NAMES[first]}"]
        return [f"{reach}, with any first attribute", reach]
    if name == "bonus":
        said = _changes(value)
        if kind == "spell":
            return [f"{said} to the caster's Squad for one Combat"]
        return [said, f"{said} for one Combat", f"{said} for one Combat, then discard it"]
    if name == "paid_bonus":
        price = " and ".join(f"{n} {r.capitalize()}" for r, n in value["pay"].items())
        return [f"Pay {price}: {_changes(value)} for one Combat"]
    if name == "through_rock":
        return [
            "Mind: it moves through undug areas as if they were excavated, but may not stop in "
            "them"
        ]
    if name == "through_wandering":
        return [
            "Ability: may move through spaces holding Wandering Monsters, but may not stop on "
            "them"
        ]
    if name == "any_user":
        return ["Any creature may use it"]
    if name == "pick_axe":
        return [f"Pick Axe {value}: adds {value} to its Squad's Excavation speed"]
    if name == "rip_apart":
        return ["Combat: when attacking, can rip apart Squads and fight each creature separately"]
    if name == "tile":
        return [f"Place {_an(TILE_NAMES.get(value, str(value)))}"]
    if name == "spawn" and kind == "excavation":
        return _excavation_spawn(list(value))
    if name == "spawn" and kind == "event" and list(value) == ["regular"]:
        return [EVERY_PIT]
    return []


def shown(name: str, value: Any, kind: str) -> str:
    """How the ability is named where its runs are listed."""
    said = wording(name, value, kind)
    if said:
        return said[0]
    if name == "spawn":
        return "Spawn: " + ", ".join(str(v) for v in value)
    return name.replace("_", " ").capitalize()


def _plain(sentence: str) -> str:
    return " ".join(sentence.split()).rstrip(".").casefold()


def encoded(sentences: list[str], abilities: list[dict], kind: str) -> tuple[list, list[str]]:
    """(the abilities matched to a sentence, the sentences no ability says). A card with no
    `tile` spawn may say so in its tile sentence."""
    left = list(sentences)
    matched = []
    has_spawn = any("spawn" in a for a in abilities if isinstance(a, dict))
    for ability in abilities:
        if not isinstance(ability, dict) or len(ability) != 1:
            continue
        ((name, value),) = ability.items()
        said = {_plain(s) for s in wording(name, value, kind)}
        if name == "tile" and not has_spawn:
            said |= {s + "; the digging finds nothing, and no spawn roll is made" for s in said}
        hit = next((s for s in left if _plain(s) in said), None)
        if hit is not None:
            left.remove(hit)
            matched.append(ability)
            continue
        for run in _runs_said(left, said):  # a wording of several sentences, printed in a row
            for s in run:
                left.remove(s)
                matched.append(ability)
            break
    return matched, left


def _runs_said(left: list[str], said: set[str]):
    """The runs of consecutive sentences of `left` that together say one of `said`."""
    for start in range(len(left)):
        for end in range(start + 2, len(left) + 1):
            if _plain(". ".join(s.rstrip(".") for s in left[start:end])) in said:
                yield left[start:end]


# --- what of the printed text runs -----------------------------------------------------------


def text_parts(card: CaveEvilCard, text: CardText) -> list[TextPart]:
    """The card's text against its encoded abilities: a sentence is encoded when an ability
    says exactly it (`ability_text`), and the rest is text only; an awakening evil's revealed,
    awakened and to-win texts are parts of their own, read the same way."""
    from charnel.coverage import sentences
    from charnel.records import TextPart

    parts = []
    if text.other:
        matched, left = encoded(text.other, card.abilities, card.type)
        said = [s for s in text.other if s not in left]
        if said:
            parts.append(TextPart("text", said, matched))
        if left:
            parts.append(TextPart("text", left, []))
    for field in ("revealed", "awakened", "to_win"):
        printed = getattr(card, field)
        if printed:
            label = field.replace("_", " ")
            matched, left = encoded(sentences(printed), card.abilities, card.type)
            said = [s for s in sentences(printed) if s not in left]
            if said:
                parts.append(TextPart(label, said, matched))
            if left:
                parts.append(TextPart(label, left, []))
    return parts
