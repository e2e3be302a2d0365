"""The site's fight calculator: a page, its script, and the card pool as JSON for it.

A static site cannot run Python, so `fight.js` does the same sums as `engine/fight.py` and
`engine/odds.py`, in exact integer arithmetic; a browser test holds the two equal. The pool
file carries only what a fight reads: each fighter's attributes and fight abilities.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from charnel.game import SitePage
from charnel.games.cave_evil.engine.fight import ATTRIBUTE_NAMES, ATTRIBUTES, Creature
from charnel.games.cave_evil.fighters import Pool

PAGE = "fight/"  # the page's files sit beside it, so it links them relatively
FILES = {"pool": "pool.json", "script": "fight.js"}
FIGHT_ABILITIES = ("binding", "combat", "bonus", "ranged")


def pool_json(cards: Iterable[Any]) -> bytes:
    """The fighters, by name: creatures with their attributes, items and spells, and only the
    abilities a fight reads."""
    fighters = []
    for found in sorted(Pool(cards).by_key.values(), key=lambda f: f.name):
        entry: dict[str, Any] = {"name": found.name}
        if isinstance(found, Creature):
            entry["kind"] = "creature"
            entry["attributes"] = {a: found.attribute(a) for a in ATTRIBUTES}
        else:
            entry["kind"] = "item"
        entry["abilities"] = [
            {k: v for k, v in a.items() if k in FIGHT_ABILITIES}
            for a in found.abilities
            if any(k in FIGHT_ABILITIES for k in a)
        ]
        fighters.append(entry)
    data = {"attributes": [[a, ATTRIBUTE_NAMES[a]] for a in ATTRIBUTES], "fighters": fighters}
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()


def site_pages(cards: Iterable[Any]) -> list[SitePage]:
    script = (Path(__file__).parent / "templates" / "fight.js").read_bytes()
    return [
        SitePage(
            PAGE,
            "fight.html",
            "Fight calculator",
            {"pool_url": FILES["pool"], "script_url": FILES["script"]},
            files={PAGE + FILES["pool"]: pool_json(cards), PAGE + FILES["script"]: script},
            nav="Fights",
        )
    ]


def card_links(card: Any) -> list[tuple[str, str]]:
    """A fighter's page opens the calculator with it preselected: a creature as the attacker,
    an item or spell carried by the Necromonk."""
    if Pool([card]).by_key:
        side = card.name if card.type in ("creature", "necromancer", "protector") else (
            f"Necromonk, {card.name}")
        return [("Fight with it in the calculator", f"{PAGE}?{urlencode({'attacker': side})}")]
    return []
