"""Cave Evil card faces as SVG, drawn from the card's data.

A creature (and a necromancer or protector) is drawn as the rulebook lays one out: movement
at the upper left, the six combat attributes round a barbed hex in their ring order
(Strength at the top, then clockwise Special, Dodge, Bloodthirst, Armor, Weapon), size, the
carry/use, excavation and spellcaster marks, its abilities, and the resource cost at the
bottom with the deck it comes from. Items and spells have one text box and their use mode;
events are printed sideways, so they are drawn wide; awakening evils show their three texts;
excavation cards the tile they lay and the spawn rolls they call for.

Every colour is fixed here; authored values only ever become escaped text. Sizes are fixed,
so the same card always gives the same bytes.
"""

from __future__ import annotations

import math
from typing import Any

from charnel.svgtext import wrap
from charnel.svgtext import x as _x

ATTRIBUTES = (("st", "ST"), ("sp", "SP"), ("dd", "DD"), ("bt", "BT"), ("ar", "AR"), ("wp", "WP"))
RESOURCES = (("metals", "Metals", "#9aa3ab"), ("gore", "Gore", "#9c2a24"),
             ("shadowflame", "Shadowflame", "#6a3fa0"))
DECK_COLORS = {
    "bribe": "#b08d3c",
    "construct": "#8e2a2a",
    "summon": "#5b3d8f",
    "abyss": "#2d4a5e",
    "necromonk": "#5d5147",
    "necromancer": "#3d2e4f",
    "awakening-evil": "#1f1f1f",
    "protector": "#37563c",
    "excavation": "#6b5a45",
}
NO_DECK = "#5d5147"
SIZE_MARKS = {"large": "L", "medium": "M", "small": "S", "trinket": "T"}
CARRY_WORDS = {"carry_only": "Carries", "carry_use": "Uses and carries"}
USE_WORDS = {"always_use": "Always in use", "pay_to_use": "Pay to use",
             "discard_after_use": "Discard after use"}
FIGHTERS = ("creature", "necromancer", "protector")
W, H = 250, 350
FONT = "Georgia,'DejaVu Serif',serif"
INK, PAPER, DARK = "#1d1a19", "#f4ecd8", "#211c1a"


def _wrap(text: str, width: float, size: float) -> list[str]:
    return wrap(text, width, size, glyph=0.54)  # the card's text box is set a little wider


def _text_box(text: str, x: float, y: float, w: float, h: float, *, label: str = "",
              fill: str = PAPER, ink: str = INK) -> str:
    size = 10.5
    lines = _wrap(text, w - 12, size)
    while len(lines) * size * 1.2 > h - (18 if label else 8) and size > 5.5:
        size -= 0.5
        lines = _wrap(text, w - 12, size)
    top = y + (12 if label else 0) + (h - (12 if label else 0) - len(lines) * size * 1.2) / 2 + size
    spans = "".join(
        f'<tspan x="{x + w / 2:g}" y="{top + i * size * 1.2:.1f}">{_x(line)}</tspan>'
        for i, line in enumerate(lines)
    )
    head = (
        f'<text x="{x + 6:g}" y="{y + 11:g}" font-size="8" font-weight="bold" '
        f'letter-spacing=".06em" fill="{ink}">{_x(label.upper())}</text>'
        if label else ""
    )
    return (
        f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="4" fill="{fill}"/>{head}'
        f'<text font-size="{size:g}" fill="{ink}" text-anchor="middle">{spans}</text>'
    )


def _body(card: Any, x: float, y: float, w: float, h: float) -> str:
    """The card's text; a card with none shows its flavor instead, in italics."""
    if card.text:
        return _text_box(card.text, x, y, w, h)
    box = _text_box(card.flavor or " ", x, y, w, h)
    return box.replace('<text font-size', '<text font-style="italic" font-size', 1)


def _frame(card: Any, width: int, height: int) -> list[str]:
    color = DECK_COLORS.get(card.set_code, NO_DECK)
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" font-family="{FONT}">',
        f"<title>{_x(card.name)}</title>",
        f'<rect x="4" y="4" width="{width - 8}" height="{height - 8}" rx="12" fill="{DARK}" '
        f'stroke="{color}" stroke-width="6"/>',
    ]


def _name(card: Any, y: float, width: int = W) -> str:
    size = 16 if len(card.name) <= 20 else 13
    return (
        f'<text x="{width / 2:g}" y="{y:g}" font-size="{size}" font-weight="bold" fill="#fff" '
        f'text-anchor="middle">{_x(card.name)}</text>'
    )


def _kind_line(text: str, y: float, width: int = W) -> str:
    return (
        f'<text x="{width / 2:g}" y="{y:g}" font-size="9.5" font-style="italic" fill="#d8cfbd" '
        f'text-anchor="middle">{_x(text)}</text>'
    )


def _medallion(cx: float, cy: float, value: object, label: str, fill: str = "#3a302b",
               r: float = 14) -> str:
    return (
        f'<g aria-label="{_x(label)}"><circle cx="{cx:g}" cy="{cy:g}" r="{r:g}" fill="{fill}" '
        f'stroke="{PAPER}" stroke-width="1.5"/><text x="{cx:g}" y="{cy + 5:g}" font-size="14" '
        f'font-weight="bold" fill="#fff" text-anchor="middle">{_x(value)}</text></g>'
    )


def _barbed_hex(attributes: Any, cx: float, cy: float, r: float) -> str:
    """The six attributes at the corners of a hexagon with a barb at each corner, Strength at
    the top and the rest clockwise in ring order: neighbours on the card are neighbours in a
    fight (rule 11.2d)."""
    corners = [
        (cx + r * math.sin(math.radians(60 * i)), cy - r * math.cos(math.radians(60 * i)))
        for i in range(6)
    ]
    hexagon = "M" + "L".join(f"{x:.1f} {y:.1f}" for x, y in corners) + "Z"
    barbs = []
    for i, (x1, y1) in enumerate(corners):  # a spike out of the middle of each side
        x2, y2 = corners[(i + 1) % 6]
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        tx, ty = cx + (mx - cx) * 1.45, cy + (my - cy) * 1.45
        px, py = (x2 - x1) * 0.14, (y2 - y1) * 0.14  # half the spike's base, along the side
        barbs.append(
            f'<path d="M{mx - px:.1f} {my - py:.1f}L{tx:.1f} {ty:.1f}L{mx + px:.1f} '
            f'{my + py:.1f}Z" fill="#8a7f70"/>'
        )
    marks = []
    for (attr, short), (x, y) in zip(ATTRIBUTES, corners, strict=True):
        value = getattr(attributes, attr, None) if attributes is not None else None
        shown = "–" if value is None else value
        marks.append(
            f'<g class="attribute" data-attribute="{attr}">'
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="15" fill="{PAPER}" stroke="{INK}" '
            f'stroke-width="1.5"/><text x="{x:.1f}" y="{y + 1:.1f}" font-size="13" '
            f'font-weight="bold" fill="{INK}" text-anchor="middle">{_x(shown)}</text>'
            f'<text x="{x:.1f}" y="{y + 10:.1f}" font-size="6" fill="{INK}" '
            f'text-anchor="middle">{short}</text></g>'
        )
    return (
        f'<g aria-label="combat attributes">{"".join(barbs)}<path d="{hexagon}" fill="#2e2724" '
        f'stroke="#8a7f70" stroke-width="2"/>{"".join(marks)}</g>'
    )


def _cost(card: Any, y: float, width: int = W) -> str:
    cost = getattr(card, "cost", None)
    if cost is None:
        return ""
    pips = [(label, getattr(cost, key, 0), fill) for key, label, fill in RESOURCES
            if getattr(cost, key, 0)]
    if not pips:
        pips = [("Free", 0, "#3a302b")]
    step = 34
    start = width / 2 - step * (len(pips) - 1) / 2
    return "".join(
        _medallion(start + i * step, y, amount, f"{amount} {label.lower()}", fill, r=12)
        for i, (label, amount, fill) in enumerate(pips)
    )


def _footer(card: Any, y: float, width: int = W) -> str:
    parts = [card.set_code.replace("-", " ").title()]
    copies = getattr(card, "copies", None)
    if copies and copies > 1:
        parts.append(f"×{copies}")
    if getattr(card, "black_diamond", False):
        parts.append("◆ black diamond")
    return (
        f'<text x="{width / 2:g}" y="{y:g}" font-size="8.5" fill="#d8cfbd" '
        f'text-anchor="middle">{_x(" · ".join(parts))}</text>'
    )


def _fighter_marks(card: Any) -> list[str]:
    marks = []
    carry = getattr(card, "carry", None)
    if carry is not None and carry.kind in CARRY_WORDS:
        marks.append(f"{CARRY_WORDS[carry.kind]} {carry.count}")
    if getattr(card, "excavation", 0):
        marks.append(f"Pick axe {card.excavation}")
    if getattr(card, "spellcaster", False):
        marks.append("Spellcaster")
    return marks


def _fighter(card: Any) -> list[str]:
    size = getattr(card, "size", None)
    kind = card.type.replace("-", " ").capitalize()
    species = ", ".join(getattr(card, "species", []) or [])
    parts = [
        _name(card, 30),
        _kind_line(f"{kind} — {species}" if species else kind, 44),
        _medallion(26, 26, getattr(card, "movement", None) or 0,
                   f"movement {getattr(card, 'movement', 0)}"),
    ]
    if size:
        parts.append(
            f'<g aria-label="size {_x(size)}"><rect x="{W - 40}" y="12" width="28" height="28" '
            f'rx="3" fill="#3a302b" stroke="{PAPER}" stroke-width="1.5"/><text x="{W - 26}" '
            f'y="31" font-size="15" font-weight="bold" fill="#fff" text-anchor="middle">'
            f"{SIZE_MARKS.get(size, '?')}</text></g>"
        )
    parts.append(_barbed_hex(getattr(card, "attributes", None), W / 2, 118, 48))
    marks = _fighter_marks(card)
    if marks:
        parts.append(_kind_line(" · ".join(marks), 192))
    parts.append(_body(card, 18, 200, W - 36, 96))
    parts.append(_cost(card, 312))
    parts.append(_footer(card, 338))
    return parts


def _carried(card: Any) -> list[str]:
    kind = card.type.capitalize()
    use = USE_WORDS.get(getattr(card, "use", None) or "", "")
    line = " — ".join(p for p in (kind, use) if p)
    if getattr(card, "trinket", False):
        line += " · any creature can use it"
    return [
        _name(card, 34),
        _kind_line(line, 50),
        _body(card, 18, 64, W - 36, 220),
        _cost(card, 308),
        _footer(card, 338),
    ]


def _evil(card: Any) -> list[str]:
    parts = [_name(card, 32), _kind_line("Awakening Evil", 48)]
    boxes = [(label, getattr(card, attr, None)) for label, attr in
             (("When revealed", "revealed"), ("Once awakened", "awakened"), ("To win", "to_win"))]
    boxes = [(label, text) for label, text in boxes if text]
    if card.text:
        boxes.insert(0, ("", card.text))
    height = (270 / max(len(boxes), 1)) - 6
    for i, (label, text) in enumerate(boxes):
        parts.append(_text_box(text, 18, 58 + i * (height + 6), W - 36, height, label=label))
    parts.append(_footer(card, 338))
    return parts


def _excavation(card: Any) -> list[str]:
    tiles = [a["tile"] for a in card.abilities if isinstance(a, dict) and "tile" in a]
    rolls = [r for a in card.abilities if isinstance(a, dict) and "spawn" in a
             for r in (a["spawn"] if isinstance(a["spawn"], list) else [a["spawn"]])]
    tile = str(tiles[0]).replace("-", " ").title() if tiles else "Excavation"
    parts = [_name(card, 34), _kind_line(f"Excavation — lays a {tile}", 50)]
    parts.append(
        f'<g aria-label="tile"><polygon points="{W / 2:g},70 {W / 2 + 48:g},96 {W / 2 + 48:g},148 '
        f'{W / 2:g},174 {W / 2 - 48:g},148 {W / 2 - 48:g},96" fill="#4a3f33" stroke="#8a7f70" '
        f'stroke-width="2"/><text x="{W / 2:g}" y="126" font-size="11" fill="#fff" '
        f'text-anchor="middle">{_x(tile)}</text></g>'
    )
    if rolls:
        parts.append(_kind_line("Spawn: " + ", ".join(str(r) for r in rolls), 194))
    parts.append(_body(card, 18, 204, W - 36, 112))
    parts.append(_footer(card, 338))
    return parts


def _event(card: Any) -> list[str]:
    width, height = H, W  # printed sideways
    parts = _frame(card, width, height)
    parts += [
        _name(card, 36, width),
        _kind_line("Event", 52, width),
        _body(card, 20, 66, width - 40, height - 110),
        _footer(card, height - 20, width),
        "</svg>",
    ]
    return parts


def draw_card(card: Any) -> str:
    if card.type == "event":
        return "".join(_event(card))
    parts = _frame(card, W, H)
    if card.type in FIGHTERS:
        parts += _fighter(card)
    elif card.type == "awakening-evil":
        parts += _evil(card)
    elif card.type == "excavation":
        parts += _excavation(card)
    else:
        parts += _carried(card)
    parts.append("</svg>")
    return "".join(parts)
