"""The offline copy's worker: what it keeps, and a new version whenever a kept file changes."""

from __future__ import annotations

import re

from charnel.site import offline, templates_dir

FILES = {
    "index.html": "a1", "cards/grave-hound/index.html": "b2", "cards/grave-hound/card.svg": "c3",
    "cards/grave-hound/card.json": "d4", "data/hecatomb.db": "e5", "assets/search.json": "f6",
}
INDEX = [("pagefind/pagefind.js", "g7"), ("pagefind/fragment/x.pf_fragment", "h8")]


def version(worker: str) -> str:
    return re.search(r'const VERSION = "([0-9a-f]+)";', worker)[1]


def test_the_worker_keeps_pages_faces_and_the_index_not_downloads():
    worker = offline.worker("/hecatomb/", FILES, INDEX, templates_dir())
    urls = re.search(r"const FILES = (\[.*?\]);", worker, re.S)[1]
    for kept in ("/hecatomb/", "/hecatomb/cards/grave-hound/",
                 "/hecatomb/cards/grave-hound/card.svg", "/hecatomb/assets/search.json",
                 "/hecatomb/pagefind/pagefind.js",
                 "/hecatomb/pagefind/fragment/x.pf_fragment", "/assets/site.css"):
        assert f'"{kept}"' in urls, kept
    assert "card.json" not in urls and "/data/" not in urls


def test_a_changed_file_changes_the_version_and_nothing_else_does():
    first = offline.worker("/hecatomb/", FILES, INDEX, templates_dir())
    assert offline.worker("/hecatomb/", dict(FILES), list(INDEX), templates_dir()) == first
    page = offline.worker("/hecatomb/", {**FILES, "index.html": "zz"}, INDEX, templates_dir())
    index = offline.worker("/hecatomb/", FILES, [*INDEX[:1], (INDEX[1][0], "zz")], templates_dir())
    download = offline.worker("/hecatomb/", {**FILES, "data/hecatomb.db": "zz"}, INDEX,
                              templates_dir())
    assert version(page) != version(first) and version(index) != version(first)
    assert download == first  # a download is not kept, so it does not make a new copy
