"""Values made from files, kept in this process by each file's identity.

A process that builds again (`charnel serve --watch`) reads some files in several places per
build, and again at every build: the site's manifests (10 MB at 10,000 cards), the output
record, the search index's state, the digests of the templates and code. Each value is kept
with its file's identity (device, inode, size, modification time) and made again only when
that changed; every writer replaces a file by renaming a new one over it
(`outputs.write_bytes`), so a file written again is another inode. A kept value is shared by
every reader: never change it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

_kept: dict[str, tuple[tuple[int, int, int, int], Any]] = {}


def identity(path: str | os.PathLike) -> tuple[int, int, int, int] | None:
    """The file's device, inode, size and modification time; None if it cannot be stat'ed."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns


def read(path: str | os.PathLike, make: Callable[[bytes], Any], *, key: str | None = None) -> Any:
    """`make` of the file's bytes, or what it made while the file is the same one; None when
    the file cannot be read or `make` refuses it (ValueError, EOFError, TypeError). `key`: the
    name it is kept by (the path unless given)."""
    now = identity(path)
    if now is None:
        return None
    key = key or os.fspath(path)
    kept = _kept.get(key)
    if kept is not None and kept[0] == now:
        return kept[1]
    try:
        with open(path, "rb") as fh:
            value = make(fh.read())
    except (OSError, ValueError, EOFError, TypeError):
        value = None
    _kept[key] = (now, value)
    return value


def wrote(path: str | os.PathLike, value: Any, *, key: str | None = None) -> None:
    """Keep `value` as what `make` would give of the file just written at `path`."""
    now = identity(path)
    if now is not None:
        _kept[key or os.fspath(path)] = (now, value)


def by_folder(path: str | os.PathLike) -> str:
    """A key of the file's folder's name and its own: one entry for the file in either
    generation of the outputs (`charnel.outputs`), so what is kept stays bounded."""
    folder, name = os.path.split(os.fspath(path))
    return f"{os.path.basename(folder)}/{name}"
