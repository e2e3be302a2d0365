"""Pictures of Hecatomb things as SVG: a card face, and a game state (abominations and zones).

A minion is drawn the way the rulebook lays it out: the main text box above the name, four
corner triggers around the name and art, the conditional-ability text box below the art in
its doom's colour. Fates, relics and gods have one text box. The outline is the pentagon of
Hecatomb cards. Sizes are fixed, so the same card always gives the same bytes.
"""

from __future__ import annotations

import functools

from charnel.svgtext import wrap as _wrap
from charnel.svgtext import x as _x

from .cards import HecatombCard

DOOM_COLORS = {  # as in rules/hecatomb/game.yaml
    "corruption": "#8b8b8b",
    "deceit": "#2f6fb5",
    "destruction": "#b8322a",
    "greed": "#3f8f3a",
}
NO_DOOM = "#6b6259"
RARITY_SYMBOLS = {"common": "●", "uncommon": "◆", "rare": "★"}
W, H = 250, 350
OUTLINE = f"M6 6H{W - 6}V{H - 78}L{W // 2} {H - 6}L6 {H - 78}Z"
FONT = "Georgia,'DejaVu Serif',serif"


def _color(doom: str | None) -> str:
    return DOOM_COLORS.get(doom or "", NO_DOOM)




@functools.lru_cache(maxsize=4096)  # texts repeat across cards; wrapping one is half a face
def _text_box(text: str, x: float, y: float, w: float, h: float, fill: str, ink: str) -> str:
    size = 11.0
    lines = _wrap(text, w - 12, size)
    while len(lines) * size * 1.2 > h - 8 and size > 6.5:
        size -= 0.5
        lines = _wrap(text, w - 12, size)
    top = y + (h - len(lines) * size * 1.2) / 2 + size
    spans = "".join(
        f'<tspan x="{x + w / 2:g}" y="{top + i * size * 1.2:.1f}">{_x(line)}</tspan>'
        for i, line in enumerate(lines)
    )
    return (
        f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="5" fill="{fill}"/>'
        f'<text font-size="{size:g}" fill="{ink}" text-anchor="middle">{spans}</text>'
    )


def _medallion(cx: float, cy: float, value: object, fill: str, label: str) -> str:
    return (
        f'<g aria-label="{_x(label)}"><circle cx="{cx:g}" cy="{cy:g}" r="15" fill="{fill}" '
        f'stroke="#f4ecd8" stroke-width="2"/><text x="{cx:g}" y="{cy + 5:g}" font-size="15" '
        f'font-weight="bold" fill="#fff" text-anchor="middle">{_x(value)}</text></g>'
    )


def _art(y: float, h: float, color: str) -> str:
    cx, cy = W / 2, y + h / 2
    return (
        f'<rect x="22" y="{y:g}" width="{W - 44}" height="{h:g}" fill="{color}" opacity=".35"/>'
        f'<circle cx="{cx:g}" cy="{cy:g}" r="{h / 2 - 8:g}" fill="none" stroke="{color}" '
        f'stroke-width="3"/><path d="M{cx:g} {cy - h / 2 + 14:g}L{cx + 14:g} {cy + 10:g}'
        f'H{cx - 14:g}Z" fill="{color}"/>'
    )


def _triggers(triggers: list[str], top: float, bottom: float) -> str:
    """Triangles at the four corners of the name and art, clockwise from the top left."""
    s, left, right = 26, 14, W - 14
    corners = [
        (left, top, left + s, top, left, top + s),
        (right, top, right - s, top, right, top + s),
        (right, bottom, right - s, bottom, right, bottom - s),
        (left, bottom, left + s, bottom, left, bottom - s),
    ]
    return "".join(
        f'<path class="trigger" data-doom="{_x(doom)}" d="M{a:g} {b:g}L{c:g} {d:g}L{e:g} {f:g}Z" '
        f'fill="{_color(doom)}" stroke="#f4ecd8" stroke-width="1"/>'
        for doom, (a, b, c, d, e, f) in zip(triggers, corners, strict=False)
    )


def _footer(card: HecatombCard) -> str:
    rarity = RARITY_SYMBOLS.get(card.rarity, "")
    return (
        f'<text x="{W / 2:g}" y="{H - 44}" font-size="10" fill="#d8cfbd" text-anchor="middle">'
        f"{_x(card.set_code.upper())} · {card.number} · {_x(rarity)}</text>"
    )


def draw_card(card: HecatombCard) -> str:
    color = _color(card.doom)
    kind = card.type.capitalize() + (" (combat)" if card.combat else "")
    subtype = f"{kind} — {card.subtype}" if card.subtype else kind
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" '
        f'height="{H}" role="img" font-family="{FONT}">',
        f"<title>{_x(card.name)}</title>",
        f'<path d="{OUTLINE}" fill="#1d1a19" stroke="{color}" stroke-width="8" '
        f'stroke-linejoin="round"/>',
    ]
    if card.type == "minion":
        parts.append(_text_box(card.text or " ", 22, 40, W - 44, 70, "#f4ecd8", "#1d1a19"))
        parts.append(
            f'<text x="{W / 2:g}" y="124" font-size="10" font-style="italic" fill="#d8cfbd" '
            f'text-anchor="middle">{_x(subtype)}</text>'
        )
        parts.append(
            f'<text x="{W / 2:g}" y="148" font-size="16" font-weight="bold" fill="#fff" '
            f'text-anchor="middle">{_x(card.name)}</text>'
        )
        parts.append(_art(156, 64, color))
        parts.append(_triggers(card.triggers or [], 132, 224))
        if card.conditional:
            cond = _color(card.conditional.doom)
            parts.append(_text_box(card.conditional.text, 30, 230, W - 60, 44, cond, "#fff"))
        if card.strength is not None:
            label = f"strength {card.strength}"
            parts.append(_medallion(W - 26, 24, card.strength, "#3a302b", label))
    else:
        parts.append(
            f'<text x="{W / 2:g}" y="32" font-size="16" font-weight="bold" fill="#fff" '
            f'text-anchor="middle">{_x(card.name)}</text>'
            f'<text x="{W / 2:g}" y="48" font-size="10" font-style="italic" fill="#d8cfbd" '
            f'text-anchor="middle">{_x(subtype)}</text>'
        )
        parts.append(_art(58, 96, color))
        parts.append(_text_box(card.text or " ", 22, 164, W - 44, 104, "#f4ecd8", "#1d1a19"))
    if card.cost is not None:
        parts.append(_medallion(26, 24, card.cost, color, f"cost {card.cost}"))
    parts.append(_footer(card))
    parts.append("</svg>")
    return "".join(parts)


# --- states ----------------------------------------------------------------------------------

MINION_W, MINION_H, GAP = 118, 30, 14


def _minion(x: float, y: float, minion: dict) -> str:
    color = _color(minion.get("doom"))
    name = minion.get("name") or ""
    if name == str(minion.get("strength")):
        name = "minion"  # a blank card is named by its strength, which is drawn anyway
    keywords = ", ".join(minion.get("keywords") or [])
    whole = label = name if not keywords else f"{name} · {keywords}"
    # the label ends before the strength: room left of it, at a generous glyph width (0.6 of
    # the 10-unit type; the strength's bold digits 8 units each)
    strength = str(minion.get("strength", ""))
    room = int((MINION_W - 11 - 6 - 6 - 8 * len(strength)) / 6)
    if len(label) > room:
        label = label[: room - 1].rstrip() + "…"
    return (
        f'<g class="minion"><title>{_x(whole)}</title>'
        f'<rect x="{x:g}" y="{y:g}" width="{MINION_W}" height="{MINION_H - 3}" '
        f'rx="3" fill="#f4ecd8" stroke="{color}" stroke-width="2"/>'
        f'<rect x="{x:g}" y="{y:g}" width="6" height="{MINION_H - 3}" fill="{color}"/>'
        f'<text x="{x + 11:g}" y="{y + 17:g}" font-size="10" fill="#1d1a19">{_x(label)}</text>'
        f'<text x="{x + MINION_W - 6:g}" y="{y + 18:g}" font-size="13" font-weight="bold" '
        f'fill="#1d1a19" text-anchor="end">{_x(strength)}</text></g>'
    )


def _zones(player: dict) -> str:
    def count(value) -> int:
        return value if isinstance(value, int) else len(value or [])

    mana = player.get("mana") or []
    untapped = sum(1 for m in mana if isinstance(m, dict) and not m.get("tapped"))
    parts = [
        f"souls {player.get('souls', 0)}",
        f"hand {count(player.get('hand'))}",
        f"deck {count(player.get('deck'))}",
        f"mana {untapped}/{len(mana)}",
        f"graveyard {count(player.get('graveyard'))}",
    ]
    if player.get("removed"):
        parts.append(f"removed {count(player.get('removed'))}")
    if player.get("relics"):
        parts.append("relics: " + ", ".join(r.get("name", "?") for r in player["relics"]))
    if player.get("god"):
        parts.append(f"god: {player['god'].get('name', '?')}")
    return " · ".join(parts)


def draw_state(state: dict) -> str:
    """Each player's row: their zones as counts, then their abominations as stacks, top first."""
    players = state.get("players") or {}
    abominations = state.get("abominations") or {}
    owners = list(players)
    owners += sorted({a.get("owner", "?") for a in abominations.values()} - set(owners))
    rows = []
    y = 8
    width = 320
    for owner in owners:
        mine = [(n, a) for n, a in abominations.items() if a.get("owner") == owner]
        tallest = max((len(a.get("minions") or []) for _, a in mine), default=0)
        zones = _zones(players.get(owner, {}))
        zones_x = 8 + 9 * len(owner) + 12
        width = max(width, int(zones_x + 5.6 * len(zones)) + 8)
        row = [
            f'<text x="8" y="{y + 13}" font-size="12" font-weight="bold" fill="#1d1a19">'
            f"{_x(owner)}</text>",
            f'<text x="{zones_x}" y="{y + 13}" font-size="10.5" fill="#4a403a">{_x(zones)}</text>',
        ]
        top = y + 24
        for i, (name, abom) in enumerate(mine):
            x = 8 + i * (MINION_W + GAP)
            flags = [w for w, key in (("tapped", "tapped"), ("new", "added")) if abom.get(key)]
            caption = name + (f" ({', '.join(flags)})" if flags else "")
            row.append(
                f'<g class="abomination" data-name="{_x(name)}"'
                + (' opacity=".72"' if abom.get("tapped") else "")
                + f'><text x="{x:g}" y="{top + 10}" font-size="10.5" font-weight="bold" '
                f'fill="#4a403a">{_x(caption)}</text>'
                + "".join(
                    _minion(x, top + 15 + j * MINION_H, m)
                    for j, m in enumerate(abom.get("minions") or [])
                )
                + "</g>"
            )
            width = max(width, x + MINION_W + 8)
        rows.append("".join(row))
        y = top + (15 + tallest * MINION_H if mine else 0) + 12
    height = max(y, 40)
    winner = state.get("winner")
    if winner:
        rows.append(
            f'<text x="8" y="{height + 4}" font-size="12" font-weight="bold" fill="#b8322a">'
            f"{_x(winner)} wins</text>"
        )
        height += 16
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" font-family="{FONT}" role="img">'
        + "".join(rows)
        + "</svg>"
    )
