"""A Cave Evil game for the fight tests, registered through CHARNEL_GAMES, and a project of the
fight fixtures to build with it: the card model, `charnel odds` and the fight calculator
page, nothing else. The installed game's own wiring of the same hooks is tested on the
bundled cards (test_cave_evil_odds_cli.py)."""

from __future__ import annotations

import os
import shutil
from contextlib import contextmanager
from pathlib import Path

import yaml

from charnel import registry
from charnel.game import Game
from charnel.games.cave_evil import calculator
from charnel.games.cave_evil.cards import FIELDS, CaveEvilCard
from charnel.games.cave_evil.odds_report import fight_odds

HERE = Path(__file__).parent
FIGHTERS = yaml.safe_load((HERE / "fixtures" / "cave_evil_fighters.yaml").read_text())


class OddsOnly(Game):
    id = "cave-evil"
    fields = FIELDS
    card_model = CaveEvilCard
    # the calculator page is Cave Evil's own: its template is in that game's folder
    templates_dir = Path(calculator.__file__).parent / "templates"

    def fight_odds(self, records, attacker, defender, modes):
        return fight_odds(records.cards, attacker, defender, modes)

    def site_pages(self, records):
        return calculator.site_pages(records.cards)

    def site_answers(self):
        return calculator.site_answers()


game = OddsOnly()


@contextmanager
def registered():
    """This game as 'cave-evil' while the block runs, whatever game is installed under that
    id: the fixture cards are no legal deck, and only the fight hooks are under test."""
    saved = os.environ.get("CHARNEL_GAMES")
    os.environ["CHARNEL_GAMES"] = f"{saved or ''} cave_evil_game:game"
    registry.forget()
    try:
        yield game
    finally:
        if saved is None:
            os.environ.pop("CHARNEL_GAMES", None)
        else:
            os.environ["CHARNEL_GAMES"] = saved
        registry.forget()


def make_project(target: Path) -> Path:
    """The fight fixtures as card files of a game.yaml that loads."""
    shutil.copytree(HERE / "fixtures" / "cave-evil-odds", target, dirs_exist_ok=True)
    folder = target / "cards" / "cave-evil" / "bribe"
    folder.mkdir(parents=True)
    for card in FIGHTERS:
        card = {"copies": 1, **card}
        if card["type"] == "creature":
            card = {"movement": 3, "carry": {"kind": "none", "count": 0}, **card}
        name = card["name"].lower().replace(" ", "-")
        (folder / f"{name}.yaml").write_text(yaml.safe_dump(card, sort_keys=False))
    return target
