"""The search index: Pagefind (its bundled binary, from the PyPI package) over the built pages.

Pages opt in with `data-pagefind-body` and carry `data-pagefind-filter` values (kind, set,
type, the game's enums, keyword). The index is written beside the site and swapped in whole,
so a failed indexing run leaves the previous index in place.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

BUNDLE = "pagefind"
GLOB = "{cards,rules,glossary,rulings}/*/index.html"


class SearchIndexError(RuntimeError):
    pass


def index(site: Path) -> Path:
    """Index `site` into `site/pagefind/`; returns the bundle folder."""
    target = site / BUNDLE
    staging = site.parent / f".{site.name}-{BUNDLE}.{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    cmd = [
        sys.executable, "-m", "pagefind", "--site", str(site), "--output-path", str(staging),
        "--silent", "--force-language", "en", "--include-characters", ".",
        # only pages that can hold a data-pagefind-body: lists and sections are never parsed
        "--glob", GLOB,
    ]
    result = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if result.returncode != 0 or not (staging / "pagefind.js").is_file():
        shutil.rmtree(staging, ignore_errors=True)
        raise SearchIndexError(f"pagefind failed: {result.stderr.strip() or result.stdout.strip()}")
    old = site.parent / f".{site.name}-{BUNDLE}.old.{os.getpid()}"
    if target.exists():
        os.replace(target, old)
    os.replace(staging, target)
    shutil.rmtree(old, ignore_errors=True)
    return target
