"""What a build wrote, file by file: size and sha256 of every output of a generation.

A build records it just before its outputs become visible, and the next build checks the
visible outputs against it before it may say "up to date": a file cut short, changed or
removed since (a disk that filled, an editor, a stray copy) is found and made again, not
served. The check costs a stat() per file; a file is hashed again only when its size, time
or inode moved, and so is recording, which takes the hash of every file the parent
generation shares (the same inode, size and time) from the parent's record. When the build
knows which paths it changed (`charnel.outputs`' journal) and started from a generation the
same as the parent, recording visits only those paths and the few files at the top (`TOP`):
every other entry is the parent's, as the file is the parent's (one inode in both).
"""

from __future__ import annotations

import bisect
import hashlib
import marshal
import os
from collections.abc import Iterable
from pathlib import Path

from charnel import file_values, forked

NAME = ".record"
RECORD_FORMAT = 2  # marshal's version; bookkeeping only this package reads
# the generation's own bookkeeping, written after the record or about the record
SKIP = frozenset({NAME, ".generation", ".journal"})
# the folders whose changes the journal lists; everything else at the top is walked each time
JOURNALED = ("site",)


def read(generation: Path) -> dict[str, list] | None:
    """The record of a generation, or None when it has none that can be read. Kept in memory
    by the file's identity (`charnel.file_values`): a process that builds again (`charnel serve
    --watch`) reads a record in several places per build (the check, the transaction, the live
    pages) and decodes it once, or not at all when it wrote it. Never change it."""
    path = generation / NAME
    return file_values.read(path, _files, key=file_values.by_folder(path))


def _files(data: bytes) -> dict[str, list] | None:
    found = marshal.loads(data)  # a record of another format or cut short: ValueError, EOFError
    files = found.get("files") if isinstance(found, dict) else None
    return files if isinstance(files, dict) else None


def write(generation: Path, record: dict) -> None:
    """Write the record `make` returned into `generation`, by a rename (see `read`)."""
    path = os.path.abspath(generation / NAME)
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "wb") as fh:
        # marshal: a third of json's time to write, two thirds to read, for the 57,000 entries
        # of a 10,000-card site; version 2 shares no object by reference: equal records, equal bytes
        fh.write(marshal.dumps(record, RECORD_FORMAT))
    os.replace(tmp, path)
    file_values.wrote(path, record["files"], key=file_values.by_folder(path))


def make(generation: Path, parent: dict[str, list] | None,
         changed: Iterable[str] | None = None) -> dict:
    """The record of every file under `generation` now. `changed`: the paths (relative; a
    folder stands for all under it) written, replaced or removed since `generation` was the
    same as the generation `parent` records; None when that is not known (every file is
    visited). Without a parent record the journal cannot stand for the files it leaves out:
    every file is visited."""
    if changed is None or not parent:
        parent = parent or {}
        found = _walk(str(generation))
        files: dict[str, list] = {}
    else:
        files, found = _unchanged(generation, parent, changed)
    for rel, st in found:
        before = parent.get(rel)
        if isinstance(before, list) and len(before) == 4 and before[:3] == _stamp(st):
            files[rel] = before
        else:
            files[rel] = [*_stamp(st), _hash(os.path.join(generation, rel))]
    return {"files": {path: files[path] for path in sorted(files)}}  # keys alone: sooner


def _unchanged(generation: Path, parent: dict[str, list], changed: Iterable[str]):
    """The parent's entries under the journaled folders that no changed path covers, and the
    files to visit: those under the changed paths and those outside the journaled folders."""
    top = str(generation)
    journaled = tuple(f"{name}/" for name in JOURNALED)
    keys = sorted(rel for rel in parent if rel.startswith(journaled))
    gone: set[str] = set()
    visit: list = []
    for rel in sorted(set(changed)):
        if not (rel in JOURNALED or rel.startswith(journaled)) or ".." in rel.split("/"):
            continue
        at = bisect.bisect_left(keys, rel)
        if at < len(keys) and keys[at] == rel:
            gone.add(rel)
            at += 1
        end = bisect.bisect_left(keys, rel + "0")  # "0" follows "/": the folder's entries
        gone.update(keys[bisect.bisect_left(keys, rel + "/", at):end])
        path = os.path.join(top, rel)
        if os.path.isdir(path) and not os.path.islink(path):
            visit.append(_walk(path, rel + "/"))
        elif os.path.isfile(path) and not os.path.islink(path):
            visit.append([(rel, os.lstat(path))])
    files = {rel: parent[rel] for rel in keys if rel not in gone}
    with os.scandir(top) as entries:
        for entry in sorted(entries, key=lambda e: e.name):
            if entry.name in SKIP or entry.name in JOURNALED:
                continue
            if entry.is_dir(follow_symlinks=False):
                visit.append(_walk(entry.path, entry.name + "/"))
            elif entry.is_file(follow_symlinks=False):
                visit.append([(entry.name, entry.stat(follow_symlinks=False))])
    return files, (item for found in visit for item in found)


def damaged(generation: Path) -> list[str] | None:
    """Paths (relative to `generation`) whose bytes are not the ones recorded, missing ones
    included; None when the generation has no record to check against."""
    files = read(generation)
    if files is None:
        return None
    out = []
    top, lstat = f"{generation}/", os.lstat  # a stat per file: the loop kept lean
    for rel, entry in files.items():
        if type(entry) is not list or len(entry) != 4 or "/../" in f"/{rel}/":
            out.append(rel)
            continue
        path = top + rel
        try:
            st = lstat(path)
        except OSError:
            out.append(rel)
            continue
        size, mtime, inode, digest = entry
        if (st.st_mtime_ns != mtime or st.st_ino != inode or st.st_size != size) and (
            st.st_size != size or _differs(path, digest)
        ):
            out.append(rel)
    return sorted(out)


class Check:
    """`damaged(generation)` in a process of its own (`forked.Aside`), which the build goes on
    beside: `result()` waits for it. A thread would take the interpreter's lock back after
    every stat, a few milliseconds each while the build holds it. None for no generation."""

    def __init__(self, generation: Path | None):
        self._found: list[str] | None = None
        self._aside = None
        if generation is not None:
            read(generation)  # decoded here, once: the process inherits it
            self._aside = forked.Aside(damaged, generation, nice=0)

    def result(self) -> list[str] | None:
        if self._aside is not None:
            try:
                self._found = self._aside.result()
            finally:
                self._aside.close()
                self._aside = None
        return self._found


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
