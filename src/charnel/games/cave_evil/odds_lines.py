"""Odds that answer a decision: several lines of play side by side, and the cheapest card
that lifts the attacker's chance past a threshold. Each line is one `fight_odds` report, so
a line here says exactly what `charnel odds` says of it alone."""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

from .engine.fight import FightError
from .engine.odds import SCORES, four_places
from .fighters import Pool
from .odds_report import fight_odds

LINES_LIMIT = 6  # lines of play compared at once
FLIP_KINDS = ("creature", "item", "spell")  # what a squad can hire, invoke or carry (7.3a)


def compare(
    cards: Iterable[Any], lines: Sequence[tuple[str, str]], modes: Sequence[str] = ()
) -> dict[str, Any]:
    """Each line's answer in a row: the first attribute taken, the attacker's chance, the
    final scores and whether it dies; the data holds each line's whole report."""
    if not 2 <= len(lines) <= LINES_LIMIT:
        raise FightError(f"compare 2 to {LINES_LIMIT} lines of play, not {len(lines)}")
    cards = list(cards)
    reports = []
    for n, (attacker, defender) in enumerate(lines, 1):
        try:
            reports.append(fight_odds(cards, attacker, defender, modes)["data"])
        except FightError as exc:
            raise FightError(f"line {n}: {exc}") from None
    return {
        "title": f"{len(lines)} lines of play compared:\n"
        + "\n".join(f"{n}: {a.strip()} vs {d.strip()}" for n, (a, d) in enumerate(lines, 1)),
        "columns": ["line", "first", "attacker", *SCORES, "dies"],
        "rows": [_line_row(n, data) for n, data in enumerate(reports, 1)],
        "data": {"lines": reports},
    }


def _line_row(n: int, data: dict[str, Any]) -> list[str]:
    result = data["result"]
    first = result["first"]
    scores = result.get("scores") or {}
    return [
        str(n),
        ", ".join(first) if isinstance(first, list) else first,
        four_places(Fraction(result["attacker"])),
        *(four_places(Fraction(scores[s])) if s in scores else "-" for s in SCORES),
        four_places(Fraction(result["attacker_dies"])),
    ]


def threshold_of(text: str) -> Fraction:
    """A chance as a reader writes it: '2/3', '0.6' or '60%'; above 0, at most 1."""
    raw = text.strip()
    try:
        value = Fraction(raw[:-1]) / 100 if raw.endswith("%") else Fraction(raw)
    except (ValueError, ZeroDivisionError):
        raise FightError(f"a threshold is a chance such as 2/3, 0.6 or 60%, not '{raw}'") from None
    if not 0 < value <= 1:
        raise FightError(f"a threshold is above 0 and at most 1, not '{raw}'")
    return value


def cost_of(body: dict[str, Any]) -> int:
    """A card's resource cost, its three amounts added up."""
    return sum(int(v) for v in (body.get("cost") or {}).values())


def flip(
    cards: Iterable[Any],
    attacker: str,
    defender: str,
    modes: Sequence[str] = (),
    threshold: str = "1/2",
    seconds: float | None = None,
) -> dict[str, Any]:
    """The cheapest card of the pool that, added to one of the attacker's squads where the
    rules allow it, gives the attacker at least `threshold` to win; of equal costs the one
    with the better chance, then by name. Every try is a line `charnel odds` would answer.
    `seconds` bounds the search (a server's answer): past it, it stops with an error."""
    started = time.monotonic()
    cards = list(cards)
    wanted = threshold_of(threshold)
    before = fight_odds(cards, attacker, defender, modes)["data"]
    now = Fraction(before["result"]["attacker"])
    squads = attacker.split("/")
    if now >= wanted:
        return {
            "title": f"{attacker.strip()} attacking {defender.strip()}: {four_places(now)} "
            f"already reaches {four_places(wanted)}",
            "columns": ["card", "cost", "line", "attacker"],
            "rows": [],
            "data": {"threshold": str(wanted), "before": before, "card": None},
        }
    found: list[tuple[int, Fraction, str, str, dict]] = []
    for body in sorted(Pool(cards).by_key.values(), key=lambda b: (cost_of(b), b["name"])):
        if body.get("type", "creature") not in FLIP_KINDS:
            continue
        if found and cost_of(body) > found[0][0]:
            break  # only the cheapest cost that reaches the threshold is wanted
        if seconds is not None and time.monotonic() - started > seconds:
            raise FightError(f"what flips it took longer than {seconds:g} s; try fewer squads")
        for at in range(len(squads)):
            added = [*squads[:at], f"{squads[at].strip()}, {body['name']}", *squads[at + 1 :]]
            line = " / ".join(s.strip() for s in added)
            try:
                data = fight_odds(cards, line, defender, modes)["data"]
            except FightError:
                continue  # the squad cannot take that card
            chance = Fraction(data["result"]["attacker"])
            if chance >= wanted:
                found.append((cost_of(body), chance, body["name"], line, data))
    found.sort(key=lambda f: (f[0], -f[1], f[2]))
    best = found[0] if found else None
    head = f"{attacker.strip()} attacking {defender.strip()}: {four_places(now)} now"
    if best is None:
        return {
            "title": f"{head}; no one card of the pool reaches {four_places(wanted)}",
            "columns": ["card", "cost", "line", "attacker"],
            "rows": [],
            "data": {"threshold": str(wanted), "before": before, "card": None},
        }
    cost, chance, name, line, data = best
    return {
        "title": f"{head}; the cheapest card that reaches {four_places(wanted)}: {name}",
        "columns": ["card", "cost", "line", "attacker"],
        "rows": [[name, str(cost), line, four_places(chance)]],
        "data": {
            "threshold": str(wanted),
            "before": before,
            "card": {"name": name, "cost": cost, "line": line, "odds": data},
        },
    }
