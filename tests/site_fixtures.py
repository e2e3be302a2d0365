"""A built site over a copy of the bundled sources plus a card that tries to inject HTML."""

from __future__ import annotations

import shutil
from pathlib import Path

from charnel import pipeline

REPO = Path(__file__).resolve().parent.parent
GAME = "hecatomb"

HOSTILE_CARD = """\
name: "Mischief <script>alert(1)</script>"
number: 900
rarity: common
type: fate
cost: '1'
doom: greed
subtype: Curse
text: "Each enemy loses 1 soul. <script>alert('text')</script> <b>bold</b>"
effects:
- lose_souls: {amount: 1, player: enemy}
flavor: "<img src=x onerror=alert(2)>"
rulings:
- date: '2099-01-01'
  source: "<i>nobody</i>"
  text: "A ruling with <script>alert(3)</script> in it; see 9.7e."
  rules: [9.7e]
"""


def make_project(target: Path) -> Path:
    for part in ("cards", "rules", "releases"):
        shutil.copytree(REPO / part, target / part)
    (target / "cards" / GAME / "base" / "mischief.yaml").write_text(HOSTILE_CARD, "utf-8")
    return target


def build(project: Path, out: Path) -> Path:
    pipeline.build(project, GAME, out, force=True, site=True)
    return out / "site"
