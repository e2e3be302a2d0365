"""A Cave Evil game for the odds tests, registered through CHARNEL_GAMES, and a project of the
fight fixtures to build with it: the card model, `charnel odds` and the fight calculator
page, nothing else, until the game's own package class carries them."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import yaml

from charnel import games
from charnel.games.base import Game
from charnel.games.cave_evil import calculator
from charnel.games.cave_evil.cards import CaveEvilCard, CaveEvilCardColumns, card_row
from charnel.games.cave_evil.odds_report import fight_odds

HERE = Path(__file__).parent
FIGHTERS = yaml.safe_load((HERE / "fixtures" / "cave_evil_fighters.yaml").read_text())


class OddsOnly(Game):
    id = "cave-evil"
    card_model = CaveEvilCard
    card_columns = CaveEvilCardColumns

    def card_row(self, card):
        return card_row(card)

    def fight_odds(self, records, attacker, defender, modes):
        return fight_odds(records.cards, attacker, defender, modes)

    def site_pages(self, records):
        return calculator.site_pages(records.cards)


game = OddsOnly()


def registered() -> bool:
    """Register this game unless an installed Cave Evil game already answers fight odds;
    True when it did (the caller clears the registry after)."""
    installed = games.get("cave-evil")
    if installed is not None and type(installed).fight_odds is not Game.fight_odds:
        return False
    os.environ["CHARNEL_GAMES"] = f"{os.environ.get('CHARNEL_GAMES', '')} cave_evil_game:game"
    games.available.cache_clear()
    return True


def make_project(target: Path) -> Path:
    """The fight fixtures as card files of a game.yaml that loads."""
    shutil.copytree(HERE / "fixtures" / "cave-evil-odds", target, dirs_exist_ok=True)
    folder = target / "cards" / "cave-evil" / "bribe"
    folder.mkdir(parents=True)
    for number, card in enumerate(FIGHTERS, start=1):
        # numbers and a rarity only for the core's checks, which still ask every game for them
        card = {"number": number, "rarity": "common", "copies": 1, **card}
        if card["type"] == "creature":
            card |= {"movement": 3, "carry": {"kind": "none"}}
        name = card["name"].lower().replace(" ", "-")
        (folder / f"{name}.yaml").write_text(yaml.safe_dump(card, sort_keys=False))
    return target
