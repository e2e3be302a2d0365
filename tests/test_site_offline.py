"""The offline copy's worker: what it keeps, and a new version whenever a kept file changes."""

from __future__ import annotations

import re

from charnel.site import offline, templates_dir

FILES = {
    "index.html": "a1", "cards/grave-hound/index.html": "b2", "cards/grave-hound/card.svg": "c3",
    "cards/grave-hound/card.json": "d4", "data/some-game.db": "e5", "assets/search.json": "f6",
}
INDEX = [("pagefind/pagefind.js", "g7"), ("pagefind/fragment/x.pf_fragment", "h8")]


def version(worker: str) -> str:
    return re.search(r'const VERSION = "([0-9a-f]+)";', worker)[1]


def test_the_worker_keeps_pages_faces_and_the_index_not_downloads():
    worker = offline.worker("/some-game/", FILES, INDEX, templates_dir())
    urls = re.search(r"const FILES = (\[.*?\]);", worker, re.S)[1]
    for kept in ("/some-game/", "/some-game/cards/grave-hound/",
                 "/some-game/cards/grave-hound/card.svg", "/some-game/assets/search.json",
                 "/some-game/pagefind/pagefind.js",
                 "/some-game/pagefind/fragment/x.pf_fragment", "/assets/site.css"):
        assert f'"{kept}"' in urls, kept
    assert "card.json" not in urls and "/data/" not in urls


def test_a_changed_file_changes_the_version_and_nothing_else_does():
    first = offline.worker("/some-game/", FILES, INDEX, templates_dir())
    assert offline.worker("/some-game/", dict(FILES), list(INDEX), templates_dir()) == first
    page = offline.worker("/some-game/", {**FILES, "index.html": "zz"}, INDEX, templates_dir())
    index = offline.worker("/some-game/", FILES, [*INDEX[:1], (INDEX[1][0], "zz")], templates_dir())
    download = offline.worker("/some-game/", {**FILES, "data/some-game.db": "zz"}, INDEX,
                              templates_dir())
    assert version(page) != version(first) and version(index) != version(first)
    assert download == first  # a download is not kept, so it does not make a new copy
