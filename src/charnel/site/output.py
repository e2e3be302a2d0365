"""Writing the site: only files whose bytes changed are written, stale ones are removed.

A manifest beside the pages remembers, for each file, a hash of its bytes and, for pages that
can be skipped, a key of everything the page is made from. A rebuild re-renders a skippable
page only when its key changed, and writes a file only when its hash changed. Everything is
rendered before anything is written, so a build that fails leaves the previous site intact.
"""

from __future__ import annotations

import hashlib
import json
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

MANIFEST = ".charnel-site-{game}.json"


class SiteWriter:
    def __init__(self, out: Path, game: str):
        self.out = out
        self.root = str(out)  # os.path on strings: a rebuild checks every page, pathlib is slow
        self.manifest_path = out / MANIFEST.format(game=game)
        try:
            old = json.loads(self.manifest_path.read_text("utf-8"))
        except (OSError, ValueError):
            old = {}
        old = old if isinstance(old, dict) else {}
        self.old: dict[str, dict] = old.get("files", {})
        self.new: dict[str, dict] = {}
        self.previous: dict = old.get("memo", {})  # what the last build asked to remember
        self.memo: dict = {}
        self.pending: dict[str, bytes] = {}
        self.written = 0
        self.skipped = 0

    def unchanged(self, path: str, key: str) -> bool:
        """True when the page at `path` was made from the same inputs and is still there."""
        entry = self.old.get(path)
        if entry and entry.get("key") == key and os.path.isfile(f"{self.root}/{path}"):
            self.new[path] = entry
            self.skipped += 1
            return True
        return False

    def add(self, path: str, content: str | bytes, key: str | None = None) -> None:
        data = content.encode("utf-8") if isinstance(content, str) else content
        self.add_hashed(path, data, hashlib.sha256(data).hexdigest(), key)

    def add_hashed(self, path: str, data: bytes, digest: str, key: str | None = None) -> None:
        """add() for bytes whose sha256 hex digest is known (hashed where they were made)."""
        self.new[path] = {"hash": digest, **({"key": key} if key else {})}
        old = self.old.get(path)
        if old and old.get("hash") == digest and os.path.isfile(f"{self.root}/{path}"):
            return
        self.pending[path] = data

    def remember(self, name: str, value) -> None:
        """Keep `value` (JSON) in the manifest for the next build, as `previous[name]`."""
        self.memo[name] = value

    def commit(self) -> None:
        """Write what changed, remove what this game no longer makes, save the manifest."""
        with ThreadPoolExecutor(4) as pool:  # file writes release the GIL
            list(pool.map(_write, [(self.out / p, d) for p, d in sorted(self.pending.items())]))
        self.written += len(self.pending)
        for path in sorted(set(self.old) - set(self.new)):
            (self.out / path).unlink(missing_ok=True)
            _prune(self.out, (self.out / path).parent)
        self.out.mkdir(parents=True, exist_ok=True)
        body = json.dumps({"files": self.new, "memo": self.memo}, sort_keys=True,
                          separators=(",", ":"))
        self.manifest_path.write_text(body, "utf-8")


def _write(item: tuple[Path, bytes]) -> None:
    path, data = item
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(data)


def _prune(root: Path, folder: Path) -> None:
    while folder != root and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent
