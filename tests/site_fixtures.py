"""A built site over a copy of the bundled sources plus a card that tries to inject HTML."""

from __future__ import annotations

from pathlib import Path

from projects import BUNDLED, DUEL, SMALL, WITH_RELEASES, copy_project, only_game

from charnel import pipeline

GAME = only_game(SMALL)  # the game the hostile card is written for

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
    copy_project(target, BUNDLED, WITH_RELEASES)
    (target / "cards" / GAME / "base" / "mischief.yaml").write_text(HOSTILE_CARD, "utf-8")
    return target


def build(project: Path, out: Path) -> Path:
    """The game's folder of the built site (the site itself is its parent)."""
    pipeline.build_all(project, [GAME], out, force=True, site=True)
    return out / "site" / GAME


def build_duel(target: Path) -> Path:
    """Dice Duel's folder of the built site, built from a copy of its project."""
    copy_project(target, DUEL)
    pipeline.build_all(target, ["dice-duel"], target / "build", force=True, site=True)
    return target / "build" / "site" / "dice-duel"
