"""Cave Evil card faces: every card of the pool draws as well-formed SVG through the game's
hook, with its authored text escaped, the same bytes every time."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from test_cave_evil_cards import POOL, read

from charnel import registry
from charnel.diagnostics import Problems

GAME = registry.get("cave-evil")
SVG = "{http://www.w3.org/2000/svg}"
CARDS = sorted(POOL.glob("*/*.yaml"))


def card_of(path: Path):
    problems = Problems()
    card = read(path, problems)
    assert card is not None and not problems
    return card


@pytest.mark.parametrize("path", CARDS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_card_draws_valid_svg(path: Path):
    card = card_of(path)
    face = GAME.draw_card(card)
    root = ET.fromstring(face)  # well-formed, or this raises
    assert root.tag == f"{SVG}svg"
    assert card.name in "".join(root.itertext())
    assert face == GAME.draw_card(card)


def test_layouts_follow_the_kind():
    ghoul = card_of(POOL / "construct" / "ghoul.yaml")
    face = ET.fromstring(GAME.draw_card(ghoul))
    words = "".join(face.itertext())
    for mark in ("ST", "SP", "DD", "BT", "AR", "WP", "11"):
        assert mark in words
    event = next(card_of(p) for p in CARDS if card_of(p).type == "event")
    wide = ET.fromstring(GAME.draw_card(event))
    width, height = (float(v) for v in wide.get("viewBox").split()[2:])
    assert width > height  # events are printed sideways


def test_authored_text_is_escaped():
    card = card_of(POOL / "construct" / "ghoul.yaml").model_copy(
        update={"name": 'Gh<script>alert(1)</script>"&', "text": "<b>bold</b> & </svg>",
                "species": ["<i>x</i>"]}
    )
    card._slug, card._set_code = "ghoul", "construct"
    face = GAME.draw_card(card)
    root = ET.fromstring(face)
    assert "<script" not in face and "<b>" not in face and "<i>" not in face
    assert 'Gh<script>alert(1)</script>"&' in "".join(root.itertext())
