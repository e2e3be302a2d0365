"""A second game for the tests of several games in one build: Hecatomb's rules engine under
another id (with a hyphen), over a copy of the test project's sources. It shares Hecatomb's
shape on purpose: these tests are about URLs, folders and databases per game."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from charnel.games.hecatomb.game import Hecatomb

ID = "second-game"
FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "project"


class Second(Hecatomb):
    id = ID


game = Second()


def add_to(project: Path, title: str = "Second Game") -> None:
    """Copy the test project's game into `project` as this game."""
    shutil.copytree(FIXTURE / "rules" / "hecatomb", project / "rules" / ID)
    shutil.copytree(FIXTURE / "cards" / "hecatomb", project / "cards" / ID)
    info = project / "rules" / ID / "game.yaml"
    text = re.sub(r"^id: hecatomb$", f"id: {ID}", info.read_text(), flags=re.M)
    text = re.sub(r"^title: .*$", f"title: {title}", text, flags=re.M)
    info.write_text(text.replace("unprefixed_urls: true", "unprefixed_urls: false"))
