"""Writing the site: only files whose bytes changed are written, stale ones are removed.

A manifest beside the pages remembers, for each file, a hash of its bytes and, for pages that
can be skipped, a key of everything the page is made from. A rebuild re-renders a skippable
page only when its key changed, and writes a file only when its hash changed.

Changed files are written into a staging tree beside the site (by the render workers, so the
writing is spread over the cores) and moved into place by `commit`, one rename each, after
everything has rendered and been indexed: a build that fails leaves the previous site intact.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import shutil
from concurrent.futures import ThreadPoolExecutor
from functools import cached_property
from pathlib import Path

from charnel import file_values
from charnel.outputs import changed, write_bytes

# The manifest is a cache of the last build, read and written by every build: marshal, which
# reads and writes it several times faster than JSON (10 MB at 10,000 cards). One this Python
# cannot read is no manifest: everything is rendered again.
MANIFEST = ".charnel-site-{game}.marshal"
# The manifest of each game (and of the site's home) and the search index's state are kept in
# memory by the file's identity (`charnel.file_values`): a process that builds again (`charnel
# serve --watch`) or reads one manifest in several places (the site's home) does not decode
# 10 MB again. A generation's unchanged manifest is a hard link to the one written
# (`charnel.outputs`), so it is found there.


def read_manifest(path: Path) -> dict:
    """The manifest at `path` as a dict; {} when there is none that can be read."""
    return read_kept(path, marshal.loads)


def read_kept(path: Path, decode) -> dict:
    """The dict `decode` makes of the file's bytes, kept in memory (see above); {} when there
    is none that can be read. Never change it."""
    found = file_values.read(path, decode, key=file_values.by_folder(path))
    return found if isinstance(found, dict) else {}


def write_kept(path: Path, value: dict, data: bytes) -> None:
    """Write `data`, the encoding of `value`, and keep `value` for `read_kept`."""
    write_bytes(path, data)
    file_values.wrote(path, value, key=file_values.by_folder(path))


def _write_manifest(path: Path, value: dict) -> None:
    # version 0: no references between equal objects, so the bytes depend only on values
    write_kept(path, value, marshal.dumps(value, 0))


class SiteWriter:
    def __init__(self, out: Path, game: str):
        self.out = out
        self.root = str(out)  # os.path on strings: a rebuild checks every page, pathlib is slow
        self.staging = out.parent / f".{out.name}.staging"
        self.staging_root = str(self.staging)
        self.manifest_path = out / MANIFEST.format(game=game)
        old = read_manifest(self.manifest_path)
        self.old: dict[str, dict] = old.get("files", {})
        self.new: dict[str, dict] = {}
        self.previous: dict = old.get("memo", {})  # what the last build asked to remember
        self.memo: dict = {}
        self.staged: set[str] = set()
        self._folders: set[str] = set()  # staging folders made (by this process)
        shutil.rmtree(self.staging, ignore_errors=True)  # left by a build that was killed
        self._checking: ThreadPoolExecutor | None = None

    def start_checking(self) -> None:
        """Find which of the last build's files are still there, in a thread: stat() releases
        the GIL, so it runs while this one works out which pages changed. Call it after any
        fork that uses this writer (a forked process gets no threads)."""
        self._checking = ThreadPoolExecutor(1)
        self._present = self._checking.submit(self._still_there, list(self.old))

    def _still_there(self, paths: list[str]) -> frozenset[str]:
        # access(): one system call and no Python wrapper, so the thread rarely holds the GIL
        access, root, ok = os.access, self.root, os.F_OK
        return frozenset(p for p in paths if access(f"{root}/{p}", ok))

    @cached_property
    def present(self) -> frozenset[str]:
        if self._checking is None:
            self.start_checking()
        found = self._present.result()
        self._checking.shutdown()
        return found

    def _there(self, path: str) -> bool:
        present = self.__dict__.get("present")  # resolved here; a forked process asks the disk
        return path in present if present is not None else os.path.isfile(f"{self.root}/{path}")

    @property
    def written(self) -> int:
        return len(self.staged)

    def unchanged(self, path: str, key: str) -> bool:
        """True when the page at `path` was made from the same inputs and is still there."""
        entry = self.old.get(path)
        if entry and entry.get("key") == key and path in self.present:
            self.new[path] = entry
            return True
        return False

    def stage(self, path: str, data: bytes) -> tuple[str, bool]:
        """Hash `data` and stage it unless the site already holds those bytes at `path`;
        returns (hash, staged). Safe to call in a render worker: it changes no state here."""
        digest = hashlib.sha256(data).hexdigest()
        old = self.old.get(path)
        if old and old.get("hash") == digest and self._there(path):
            return digest, False
        target = f"{self.staging_root}/{path}"
        folder = os.path.dirname(target)
        if folder not in self._folders:  # a card's page and face share a folder
            os.makedirs(folder, exist_ok=True)
            self._folders.add(folder)
        with open(target, "wb") as fh:
            fh.write(data)
        return digest, True

    def record(self, path: str, staged: tuple[str, bool], key: str | None = None) -> None:
        """Note a file `stage` handled, with the key of what it was made from."""
        digest, written = staged
        self.new[path] = {"hash": digest, **({"key": key} if key else {})}
        if written:
            self.staged.add(path)

    def add(self, path: str, content: str | bytes, key: str | None = None) -> None:
        data = content.encode("utf-8") if isinstance(content, str) else content
        self.record(path, self.stage(path, data), key)

    def last(self, path: str) -> Path | None:
        """The last build's file at `path`, while it is still there."""
        return self.out / path if path in self.old and self._there(path) else None

    def keep(self, path: str) -> tuple[str, bool]:
        """What `stage` returns for a file of the last build kept as it is."""
        return self.old[path]["hash"], False

    def source(self, path: str) -> str:
        """Where the bytes of `path` are now: staged, or in the site (for the search index)."""
        return f"{self.staging_root if path in self.staged else self.root}/{path}"

    def remember(self, name: str, value) -> None:
        """Keep `value` (dicts, lists, strings) in the manifest for the next build, as
        `previous[name]`."""
        self.memo[name] = value

    def commit(self) -> None:
        """Move the staged files into place, remove what this game no longer makes, save the
        manifest."""
        whole = _empty(self.out)
        if whole:
            # nothing there yet (a first or clean build): the staging tree becomes the site
            self.staging.mkdir(parents=True, exist_ok=True)
            if self.out.exists():
                self.out.rmdir()
            os.replace(self.staging, self.out)
            changed(self.out)
        made: set[str] = set()
        for path in () if whole else sorted(self.staged):
            folder = os.path.dirname(f"{self.root}/{path}")
            if folder not in made:
                os.makedirs(folder, exist_ok=True)
                made.add(folder)
            os.replace(f"{self.staging_root}/{path}", f"{self.root}/{path}")
        changed(*(f"{self.root}/{path}" for path in (() if whole else self.staged)))
        for path in sorted(set(self.old) - set(self.new)):
            (self.out / path).unlink(missing_ok=True)
            _prune(self.out, (self.out / path).parent)
            changed(self.out / path)
        self.out.mkdir(parents=True, exist_ok=True)
        # sorted by path at the top only (each entry's keys are made in one order): the same
        # bytes whichever pages this build rendered
        files = by_key(self.new)
        _write_manifest(self.manifest_path, {"files": files, "memo": self.memo})
        self.discard()

    def discard(self) -> None:
        """Forget the staged files (after commit, or when the build failed)."""
        self._folders.clear()
        if self._checking is not None:
            self._checking.shutdown()
        shutil.rmtree(self.staging, ignore_errors=True)


def by_key(value: dict) -> dict:
    """The dict in its keys' order: sorting the keys alone is three times sooner than sorting
    the items (32,000 files at 10,000 cards)."""
    return {key: value[key] for key in sorted(value)}


def _empty(folder: Path) -> bool:
    try:
        return not any(folder.iterdir())
    except FileNotFoundError:
        return True


def _prune(root: Path, folder: Path) -> None:
    while folder != root and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent
