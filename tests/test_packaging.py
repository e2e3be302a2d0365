"""What an installed charnel carries: a built package has every template in it, the games' own
too."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from charnel import registry, templates

REPO = Path(__file__).resolve().parent.parent


def _files(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


def test_a_built_package_carries_every_template(tmp_path):
    subprocess.run(
        [sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(tmp_path)],
        cwd=REPO, check=True, capture_output=True,
    )
    built = tmp_path / "charnel" / templates.NAME
    assert _files(built) == _files(REPO / templates.NAME)
    assert (built / "site" / "card.html").read_bytes() == (
        REPO / templates.NAME / "site" / "card.html"
    ).read_bytes()
    # the language's part of every game's search language page is made from this document
    doc = tmp_path / "charnel" / "docs" / "search.md"
    assert doc.read_bytes() == (REPO / "docs" / "search.md").read_bytes()
    # the script `charnel serve --watch` gives every page
    live = REPO / "src" / "charnel" / "serve" / "live.js"
    assert (tmp_path / "charnel" / "serve" / "live.js").read_bytes() == live.read_bytes()
    # a bundled game's own templates and documents travel in its package
    for game in registry.available().values():
        if not game.folder.is_relative_to(REPO / "src"):
            continue
        where = tmp_path / game.folder.relative_to(REPO / "src")
        for own in (game.templates_dir, game.docs_dir):
            if own.is_dir():
                assert _files(where / own.name) == _files(own), own


def test_a_checkout_uses_its_own_templates():
    assert templates.root() == REPO / templates.NAME
