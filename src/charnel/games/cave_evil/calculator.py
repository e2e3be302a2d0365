"""The site's fight calculator: a page, its script, the card pool it picks from, and the
answer `charnel serve` gives it.

The page computes nothing. Which creatures, items, spells and abilities count in a fight is
the engine's to decide (`engine.sides`), so the page sends the two sides to the server's
`fight/odds.json`, which answers with the very report `charnel odds --json` prints (given
`flip=CHANCE`, what `charnel odds --flip CHANCE --json` prints; lines of play compared are
asked one by one). A static copy of the site, with no server behind it, says that it needs
one.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from charnel.game import SitePage

from .engine.fight import ATTRIBUTE_NAMES, ATTRIBUTES, FightError
from .fighters import CREATURE_TYPES, Pool

PAGE = "fight/"  # the page's files sit beside it, so it links them relatively
FILES = {"pool": "pool.json", "script": "fight.js", "answer": "odds.json"}
SIDE_CHARACTERS = 1_000  # a side as text: six squads of a dozen long names fit
FLIP_SECONDS = 10.0  # what flips it tries up to a thousand lines; a request gets this long


def pool_json(cards: Iterable[Any]) -> bytes:
    """The fighters by name, each with the card fields the engine builds it from: the page
    lists their names, the server fights with them."""
    fighters = [
        {
            "name": body["name"],
            "kind": "creature" if body.get("type", "creature") in CREATURE_TYPES else "item",
            "card": body,
        }
        for body in sorted(Pool(cards).by_key.values(), key=lambda b: b["name"])
    ]
    data = {"attributes": [[a, ATTRIBUTE_NAMES[a]] for a in ATTRIBUTES], "fighters": fighters}
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()


def site_pages(cards: Iterable[Any]) -> list[SitePage]:
    script = (Path(__file__).parent / "templates" / "fight.js").read_bytes()
    return [
        SitePage(
            PAGE,
            "fight.html",
            "Fight calculator",
            {
                "pool_url": FILES["pool"],
                "script_url": FILES["script"],
                "answer_url": FILES["answer"],
            },
            files={PAGE + FILES["pool"]: pool_json(cards), PAGE + FILES["script"]: script},
            nav="Fights",
        )
    ]


_pools: dict[Path, tuple[int, list[dict[str, Any]]]] = {}
_lock = threading.Lock()


def _cards(folder: Path) -> list[dict[str, Any]]:
    """The card fields of the built pool file, read again only when a build changed it."""
    path = folder / PAGE / FILES["pool"]
    stamp = path.stat().st_mtime_ns
    with _lock:
        known = _pools.get(path)
        if known is None or known[0] != stamp:
            fighters = json.loads(path.read_bytes())["fighters"]
            known = (stamp, [f["card"] for f in fighters])
            _pools[path] = known
    return known[1]


def answer(folder: Path, query: Mapping[str, str]) -> tuple[int, Any]:
    """`charnel odds --json` for the page: the report's data, or {"error": the refusal}."""
    from . import odds_lines
    from .odds_report import fight_odds

    attacker, defender = query.get("attacker", ""), query.get("defender", "")
    if not attacker.strip() or not defender.strip():
        return 400, {"error": "give both sides: attacker and defender"}
    if max(len(attacker), len(defender)) > SIDE_CHARACTERS:
        return 400, {"error": f"a side is at most {SIDE_CHARACTERS} characters"}
    modes = [m for m in query.get("mode", "").split(",") if m]
    try:
        cards = _cards(folder)
    except (OSError, ValueError, KeyError):
        return 503, {"error": "the fight calculator's card pool is not built"}
    flip = query.get("flip")
    if flip is not None and len(flip) > 20:
        return 400, {"error": "a threshold is a chance such as 2/3, 0.6 or 60%"}
    try:
        if flip is not None:  # `charnel odds --flip`
            found = odds_lines.flip(cards, attacker, defender, modes, flip, FLIP_SECONDS)
            return 200, found["data"]
        return 200, fight_odds(cards, attacker, defender, modes)["data"]
    except FightError as exc:
        return 400, {"error": str(exc)}


def site_answers() -> dict[str, Any]:
    return {PAGE + FILES["answer"]: answer}


def card_links(card: Any) -> list[tuple[str, str]]:
    """A fighter's page opens the calculator with it preselected: a creature as the attacker,
    an item or spell carried by the Necromonk."""
    if Pool([card]).by_key:
        side = card.name if card.type in CREATURE_TYPES else f"Necromonk, {card.name}"
        return [("Fight with it in the calculator", f"{PAGE}?{urlencode({'attacker': side})}")]
    return []
