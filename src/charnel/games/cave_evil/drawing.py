"""Pictures of Cave Evil example states as SVG: the patch of the cave an example uses, each
hex open, undug or collapsed, Spawn Pits ringed, squads and Wandering Monsters named on their
spaces, goods on the ground marked. Fixed sizes and sorted input, so the same state always
gives the same bytes."""

from __future__ import annotations

import math
from html import escape

SIZE = 22  # hex radius
COLORS = ["#b8322a", "#2f6fb5", "#3f8f3a", "#c58a1a"]  # players in turn order
MONSTER = "#6b6259"
FILL = {"open": "#d9d2c5", "undug": "#2b2623", "collapsed": "#7a5a3a"}
FONT = "Georgia,'DejaVu Serif',serif"


def _centre(q: int, r: int) -> tuple[float, float]:
    return SIZE * math.sqrt(3) * (q + r / 2), SIZE * 1.5 * r


def _corners(x: float, y: float) -> str:
    points = []
    for i in range(6):
        a = math.radians(60 * i - 30)
        points.append(f"{x + SIZE * math.cos(a):.1f},{y + SIZE * math.sin(a):.1f}")
    return " ".join(points)


def draw_state(state: dict) -> str:
    cells = state.get("hexes") or []
    if not cells:
        return ""
    centres = {(c["q"], c["r"]): _centre(c["q"], c["r"]) for c in cells}
    xs = [x for x, _ in centres.values()]
    ys = [y for _, y in centres.values()]
    left, top = min(xs) - SIZE - 4, min(ys) - SIZE - 4
    width, height = max(xs) - left + SIZE + 4, max(ys) - top + SIZE + 4
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{left:.1f} {top:.1f} {width:.1f} '
        f'{height:.1f}" width="{width:.0f}" height="{height:.0f}" font-family="{FONT}" '
        'font-size="9" role="img">'
    ]
    for c in cells:
        x, y = centres[(c["q"], c["r"])]
        out.append(
            f'<polygon points="{_corners(x, y)}" fill="{FILL[c["kind"]]}" stroke="#5a524b" '
            'stroke-width="1"/>'
        )
        if c.get("pit"):
            out.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{SIZE * 0.7:.1f}" fill="none" '
                'stroke="#8b0000" stroke-width="2"/>'
            )
        if c.get("ground"):
            out.append(f'<circle cx="{x + 9:.1f}" cy="{y + 9:.1f}" r="3" fill="#c58a1a"/>')
    players = state.get("players") or []
    for s in state.get("squads") or []:
        if tuple(s["at"]) not in centres:
            continue
        x, y = centres[tuple(s["at"])]
        color = COLORS[players.index(s["owner"]) % len(COLORS)] if s["owner"] else MONSTER
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{SIZE * 0.55:.1f}" fill="{color}"/>')
        out.append(
            f'<text x="{x:.1f}" y="{y + 3:.1f}" text-anchor="middle" fill="#fff">'
            f"{escape(s['label'])}</text>"
        )
        out.append(f"<title>{escape(s['key'])}: {escape(', '.join(s['creatures']))}</title>")
    out.append("</svg>")
    return "\n".join(out)


def draw_ring(attributes: list[tuple[str, str]]) -> str:
    """The six combat attributes round a hexagon in ring order, Strength at the top going
    clockwise, each joined to its two neighbours: the second round's choice is one of the
    first round's neighbours, the third round's the other."""
    radius, cx, cy = 70, 110, 95
    points = []
    for i in range(len(attributes)):
        a = math.radians(-90 + 60 * i)
        points.append((cx + radius * math.cos(a), cy + radius * math.sin(a)))
    ring = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    out = [
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 220 190" width="220" '
        f'height="190" font-family="{FONT}" role="img">',
        f'<polygon points="{ring}" fill="none" stroke="#5a1414" stroke-width="2"/>',
    ]
    for (x, y), (short, name) in zip(points, attributes, strict=True):
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="17" fill="#f4ecd8" stroke="#5a1414"/>')
        out.append(
            f'<text x="{x:.1f}" y="{y + 4:.1f}" text-anchor="middle" font-size="12" '
            f'font-weight="bold">{escape(short.upper())}</text>'
        )
        dy = -21 if y < cy - 1 else (30 if y > cy + 1 else 0)
        dx = 0 if dy else (-1 if x < cx else 1) * 0
        out.append(
            f'<text x="{x + dx:.1f}" y="{y + dy:.1f}" text-anchor="middle" font-size="9">'
            f"{escape(name)}</text>"
        )
    out.append(
        f'<text x="{cx}" y="{cy + 4}" text-anchor="middle" font-size="9">round 2: a neighbour'
        "</text>"
    )
    out.append("</svg>")
    return "\n".join(out)
