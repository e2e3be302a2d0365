"""The hex grid in axial coordinates (q, r): adjacency, distance, straight lines for line of
sight, and tile shapes compared up to rotation and reflection.

Only what the rules need: a Cave Evil map is a patch of hexes, each undug, open or collapsed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

Hex = tuple[int, int]

DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def neighbours(h: Hex) -> list[Hex]:
    return [(h[0] + dq, h[1] + dr) for dq, dr in DIRECTIONS]


def adjacent(a: Hex, b: Hex) -> bool:
    return distance(a, b) == 1


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def _round(x: float, z: float) -> Hex:
    y = -x - z
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy <= dz:
        rz = -rx - ry
    return (int(rx), int(rz))


def line_cells(a: Hex, b: Hex) -> list[set[Hex]]:
    """The hexes a straight line from a's centre to b's centre crosses, between them: one set
    per step, holding two hexes where the line runs exactly along their shared edge."""
    n = distance(a, b)
    out = []
    for i in range(1, n):
        t = i / n
        q = a[0] + (b[0] - a[0]) * t
        r = a[1] + (b[1] - a[1]) * t
        # nudge both ways: a point on an edge rounds to the hexes on either side of it
        cells = {_round(q + e, r + e * -2) for e in (1e-6, -1e-6)}
        out.append(cells)
    return out


def line_of_sight(a: Hex, b: Hex, blocks: Callable[[Hex], bool]) -> bool:
    """True when no step of the line is blocked; a step along an edge is blocked only when
    both hexes beside it block (ruling on line of sight along an edge)."""
    return not any(all(blocks(h) for h in cells) for cells in line_cells(a, b))


# --- tile shapes -----------------------------------------------------------------------


def _rotate(h: Hex) -> Hex:
    q, r = h
    s = -q - r
    return (-r, -s)  # cube (x, y, z) -> (-z, -x, -y), 60 degrees


def _reflect(h: Hex) -> Hex:
    q, r = h
    return (q, -q - r)


def normalise(cells: Iterable[Hex]) -> tuple[Hex, ...]:
    cells = sorted(cells)
    q0, r0 = cells[0]
    return tuple(sorted((q - q0, r - r0) for q, r in cells))


def orientations(shape: Iterable[Hex]) -> set[tuple[Hex, ...]]:
    """Every placement-independent form of a shape: 6 rotations, each also mirrored."""
    out = set()
    cells = list(shape)
    for mirrored in (False, True):
        cur = [_reflect(h) for h in cells] if mirrored else cells
        for _ in range(6):
            out.add(normalise(cur))
            cur = [_rotate(h) for h in cur]
    return out


def fit(shape: list[Hex], cells: Iterable[Hex]) -> Callable[[Hex], Hex] | None:
    """The turn, flip and shift that lays `shape` exactly on `cells`, or None."""
    target = set(cells)
    for mirrored in (False, True):
        cur = [_reflect(h) for h in shape] if mirrored else list(shape)
        for turns in range(6):
            anchor = min(cur)
            low = min(target)
            dq, dr = low[0] - anchor[0], low[1] - anchor[1]
            if {(q + dq, r + dr) for q, r in cur} == target:

                def place(h: Hex, mirrored=mirrored, turns=turns, dq=dq, dr=dr) -> Hex:
                    h = _reflect(h) if mirrored else h
                    for _ in range(turns):
                        h = _rotate(h)
                    return (h[0] + dq, h[1] + dr)

                return place
            cur = [_rotate(h) for h in cur]
    return None


def connected(cells: Iterable[Hex]) -> bool:
    cells = set(cells)
    if not cells:
        return False
    seen, todo = set(), [next(iter(cells))]
    while todo:
        h = todo.pop()
        if h in seen:
            continue
        seen.add(h)
        todo.extend(n for n in neighbours(h) if n in cells and n not in seen)
    return seen == cells


def parse(value) -> Hex:
    """A hex as written in an example: [q, r] or 'q,r'."""
    if isinstance(value, str):
        parts = value.replace(" ", "").split(",")
        if len(parts) == 2:
            return (int(parts[0]), int(parts[1]))
    if isinstance(value, (list, tuple)) and len(value) == 2:
        if all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            return (value[0], value[1])
    raise ValueError(f"a hex is [q, r] (two integers), not {value!r}")


def show(h: Hex) -> str:
    return f"{h[0]},{h[1]}"
