"""What a build wrote, file by file: size and sha256 of every output of a generation.

A build records it just before its outputs become visible, and the next build checks the
visible outputs against it before it may say "up to date": a file cut short, changed or
removed since (a disk that filled, an editor, a stray copy) is found and made again, not
served. The check costs a stat() per file; a file is hashed again only when its size, time
or inode moved, and so is recording, which takes the hash of every file the parent
generation shares (the same inode, size and time) from the parent's record.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

NAME = ".record"
# the generation's own bookkeeping, written after the record or about the record
SKIP = frozenset({NAME, ".generation", ".journal"})


def read(generation: Path) -> dict[str, list] | None:
    """The record of a generation, or None when it has none that can be read."""
    try:
        data = json.loads((generation / NAME).read_text("utf-8"))
    except (OSError, ValueError):
        return None
    files = data.get("files") if isinstance(data, dict) else None
    return files if isinstance(files, dict) else None


def make(generation: Path, parent: dict[str, list] | None) -> dict:
    """The record of every file under `generation` now."""
    parent = parent or {}
    files: dict[str, list] = {}
    for rel, st in _walk(str(generation)):
        before = parent.get(rel)
        if isinstance(before, list) and len(before) == 4 and before[:3] == _stamp(st):
            files[rel] = before
        else:
            files[rel] = [*_stamp(st), _hash(os.path.join(generation, rel))]
    return {"files": dict(sorted(files.items()))}


def damaged(generation: Path) -> list[str] | None:
    """Paths (relative to `generation`) whose bytes are not the ones recorded, missing ones
    included; None when the generation has no record to check against."""
    files = read(generation)
    if files is None:
        return None
    out = []
    for rel, entry in files.items():
        path = os.path.join(generation, rel)
        if not isinstance(entry, list) or len(entry) != 4 or ".." in rel.split("/"):
            out.append(rel)
            continue
        try:
            st = os.lstat(path)
        except OSError:
            out.append(rel)
            continue
        if _stamp(st) != entry[:3] and (st.st_size != entry[0] or _differs(path, entry[3])):
            out.append(rel)
    return sorted(out)


def _walk(top: str, prefix: str = ""):
    with os.scandir(top) as entries:
        found = sorted(entries, key=lambda e: e.name)
    for entry in found:
        rel = prefix + entry.name
        if not prefix and entry.name in SKIP:
            continue
        if entry.is_dir(follow_symlinks=False):
            yield from _walk(entry.path, rel + "/")
        elif entry.is_file(follow_symlinks=False):
            yield rel, entry.stat(follow_symlinks=False)


def _stamp(st: os.stat_result) -> list[int]:
    return [st.st_size, st.st_mtime_ns, st.st_ino]


def _differs(path: str, digest: str) -> bool:
    """Whether the file's bytes are not the recorded ones (unreadable: they are not)."""
    try:
        return _hash(path) != digest
    except OSError:
        return True


def _hash(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()
