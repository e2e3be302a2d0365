"""What a process that builds again (`charnel serve --watch`) keeps of the last build's site and
makes again only for what changed: a one-card edit does not pass over the pool to find the
cards' neighbours or the offline copy's list of files again, and the site is the one a build
from nothing makes."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from projects import DUEL, copy_project

from charnel import pipeline
from charnel.serve import rebuild
from charnel.serve.live import Live
from charnel.site import cardfile, offline

GAME = "dice-duel"
FILES = re.compile(r"const FILES = (\[.*?\]);", re.S)
READING = re.compile(rb'<script type="application/json" id="search-reading">.*?</script>', re.S)


class Calls:
    """A function's stand-in that counts its calls and calls it."""

    def __init__(self, function):
        self.function, self.count = function, 0

    def __call__(self, *args, **kwargs):
        self.count += 1
        return self.function(*args, **kwargs)


def _site(out: Path) -> dict[str, bytes]:
    """The game's files but the search index's, what names or reads its files (a rebuild adds
    a delta bundle to the kept one), and the build's bookkeeping."""
    site = out / "site" / GAME
    return {rel: READING.sub(b"", path.read_bytes()) for path in sorted(site.rglob("*"))
            if path.is_file() and "pagefind" not in (rel := path.relative_to(site).as_posix())
            and not rel.startswith(".charnel-") and rel not in ("assets/search.json", "sw.js")}


def _listed(out: Path) -> list[str]:
    """The offline copy's addresses, but the search index's (a rebuild adds a delta bundle)."""
    worker = (out / "site" / GAME / offline.WORKER).read_text()
    return [u for u in FILES.search(worker)[1].split('"')[1::2] if "/pagefind" not in u]


def _fresh(project: Path, target: Path) -> Path:
    shutil.copytree(project, target, ignore=lambda d, names: ["build"] if d == str(project) else [])
    pipeline.build_all(target, [GAME], target / "build", whole=False, site=True)
    return target / "build"


def test_a_one_card_edit_makes_again_only_what_it_changed(tmp_path, monkeypatch):
    project = copy_project(tmp_path / "project", DUEL)
    out = project / "build"
    said: list[str] = []
    watcher = rebuild.Rebuilder(project, [GAME], out, Live(out), said.append, said.append)
    watcher.build()
    neighbours, kept = Calls(cardfile.neighbours), Calls(offline.kept)
    monkeypatch.setattr(cardfile, "neighbours", neighbours)
    monkeypatch.setattr(offline, "kept", kept)
    card = next((project / "cards").glob("*/*/cinder-knight.yaml"))

    card.write_text(card.read_text().replace("flavor: ", "flavor: Still ", 1))
    watcher.build()
    assert said[-1].startswith("rebuilt in"), said[-3:]
    assert (neighbours.count, kept.count) == (0, 0)
    fresh = _fresh(project, tmp_path / "flavor")
    assert _site(out) == _site(fresh) and _listed(out) == _listed(fresh)

    # a card renamed: its neighbours link it by its new name; one added: listed offline
    card.write_text(card.read_text().replace("name: Cinder Knight", "name: Aardvark Knight", 1))
    (card.parent / "zebra-knight.yaml").write_text(
        card.read_text().replace("name: Aardvark Knight", "name: Zebra Knight", 1))
    watcher.build()
    assert said[-1].startswith("rebuilt in"), said[-3:]
    assert neighbours.count == 1 and kept.count > 0
    fresh = _fresh(project, tmp_path / "renamed")
    assert _site(out) == _site(fresh) and _listed(out) == _listed(fresh)
    assert any(u.endswith("/zebra-knight/") for u in _listed(out))


def test_the_cards_order_is_the_last_builds_with_the_new_objects_in_their_places():
    """The loader hands a process that builds again the same records for unchanged files: the
    lists' order is taken from the last build's, reading only the cards that are new objects,
    and is always what sorting them gives."""
    from charnel.site.model import _ordered

    class Card:
        def __init__(self, key):
            self.key = key

    read = []

    def order(card):
        read.append(card)
        return card.key

    cards = [Card(k) for k in (5, 3, 9, 1, 7, 2, 8, 4, 6, 0, 11, 15, 13, 12, 14, 10, 16)]
    assert _ordered("toy", 1, cards, order) == sorted(cards, key=order)
    edited = Card(9)  # the same key: in the place of the card it replaces
    now = [edited if c.key == 9 else c for c in cards]
    read.clear()
    assert _ordered("toy", 1, now, order) == sorted(now, key=lambda c: c.key)
    assert set(map(id, read)) <= {id(edited), id(cards[2])}
    moved = [Card(-1) if c.key == 9 else c for c in now]  # another key: sorted again
    assert _ordered("toy", 1, moved, order) == sorted(moved, key=lambda c: c.key)
    assert _ordered("toy", 2, moved[::-1], order) == sorted(moved[::-1], key=lambda c: c.key)
