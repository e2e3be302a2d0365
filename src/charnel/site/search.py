"""The search index: Pagefind (its bundled binary, from the PyPI package) over the built pages.

Pages opt in with `data-pagefind-body` and carry `data-pagefind-filter` values (kind, set,
type, the game's enums, keyword). The index is split into bundles that the browser merges
(`mergeIndex`): rules and rulings in /pagefind/, glossary terms in /pagefind-terms/, and card
pages spread over CARD_SHARDS bundles by a hash of their slug. A rebuild re-indexes only the
bundles whose pages changed, the bundles are indexed in parallel, and each is swapped in
whole, so a failed indexing run leaves the previous bundle in place.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import zlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from charnel.site.search_canonical import canonicalize

MAIN = "pagefind"
CARD_SHARDS = 16
STATE = ".charnel-search.json"
_CLAUSE_PAGE = re.compile(r"^rules/\d+(\.\d+[a-z]?)?/index\.html$")


class SearchIndexError(RuntimeError):
    pass


def bundles() -> list[str]:
    """Every bundle, main first: what the browser loads and merges."""
    return [MAIN, "pagefind-terms", *(f"pagefind-cards-{i}" for i in range(CARD_SHARDS))]


def bundle_of(path: str) -> str | None:
    """The bundle a site file is indexed in, or None for pages search does not cover."""
    parts = path.split("/")
    if parts[-1] != "index.html":
        return None
    if parts[0] == "cards" and len(parts) == 3 and not parts[1].startswith("by-"):
        return f"pagefind-cards-{zlib.crc32(parts[1].encode()) % CARD_SHARDS}"
    if parts[0] == "glossary" and len(parts) == 3:
        return "pagefind-terms"
    if parts[0] == "rulings" or _CLAUSE_PAGE.match(path):
        return MAIN
    return None


def members(files) -> dict[str, list[str]]:
    """The pages of each bundle that has any, from the site's file paths."""
    found: dict[str, list[str]] = {name: [] for name in bundles()}
    for path in sorted(files):
        bundle = bundle_of(path)
        if bundle is not None:
            found[bundle].append(path)
    return {name: paths for name, paths in found.items() if paths}


def index(site: Path, files: dict[str, str]) -> list[str]:
    """Index the pages among `files` (site path -> content hash) into their bundles under
    `site`; returns the bundles that were re-indexed."""
    members_of = members(files)
    for name in set(bundles()) - set(members_of):
        shutil.rmtree(site / name, ignore_errors=True)  # a shard that has no pages now
    state_path = site / STATE
    try:
        state = json.loads(state_path.read_text("utf-8"))
    except (OSError, ValueError):
        state = {}
    digests = {
        name: hashlib.sha256("".join(f"{p}\0{files[p]}\n" for p in paths).encode()).hexdigest()
        for name, paths in members_of.items()
    }
    stale = [
        name for name in members_of
        if state.get(name) != digests[name] or not (site / name / "pagefind.js").is_file()
    ]
    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        jobs = pool.map(lambda n: _index_bundle(site, n, members_of[n]), stale)
        errors = [e for e in jobs if e]
    if errors:
        raise SearchIndexError("; ".join(errors))
    state_path.write_text(json.dumps(digests, indent=0, sort_keys=True), "utf-8")
    return stale


def _index_bundle(site: Path, name: str, paths: list[str]) -> str | None:
    """Index `paths` into site/<name>/ through a folder of hard links; returns an error."""
    work = site.parent / f".{site.name}-{name}.{os.getpid()}"
    view, staging = work / "site", work / "out"
    shutil.rmtree(work, ignore_errors=True)
    try:
        for path in paths:
            target = view / path
            target.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(site / path, target)
            except OSError:
                shutil.copyfile(site / path, target)
        view.mkdir(parents=True, exist_ok=True)
        cmd = [
            *_pagefind(), "--site", str(view), "--output-path", str(staging),
            "--silent", "--force-language", "en", "--include-characters", ".",
        ]
        result = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if result.returncode != 0 or not (staging / "pagefind.js").is_file():
            return f"pagefind failed for {name}: {(result.stderr or result.stdout).strip()}"
        canonicalize(staging)
        old = work / "old"
        if (site / name).exists():
            os.replace(site / name, old)
        os.replace(staging, site / name)
        return None
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _pagefind() -> list[str]:
    """The Pagefind binary the PyPI package ships, run directly: `python -m pagefind` costs
    an interpreter start (about 70 ms) per bundle, a tenth of re-indexing one card shard."""
    try:
        from pagefind.service import get_executable
    except ImportError:
        return [sys.executable, "-m", "pagefind"]
    found = get_executable()
    return [str(found)] if found else [sys.executable, "-m", "pagefind"]
