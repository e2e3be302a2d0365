"""What the last load made, kept in the memory of a process that builds again and again
(`charnel serve --watch`), to be handed back when the same bytes are loaded again.

The owner (the watcher's `Rebuilder`) passes a `Memo` down the build to `loader.load`; a plain
`charnel build` passes none. Each load of a game asks it for every source file by the file's
project path and content hash (a rules document also by the number of clauses before it,
which numbers its own): a file unchanged since the last load gives back the very records that
load validated, instead of validating its kept value again. What a load makes is kept for the
next only when the file loaded without a problem (a bad file is checked again each time, to
be reported again), and only what the last load used is kept, so the memory held is one
pool's records, which the build holds anyway. The stores a build reads from disk
(`.<game>.parsed`) are kept too, by the file's identity (`stored`).

The records are shared by every build that loads the same files, so no stage may change one
after the load (none does: `tests/test_load_memo.py` checks that a build leaves them as
loaded).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from charnel import file_values

T = TypeVar("T")


class Memo:
    """Each game's records from its last load, by what they were made from; and the value of
    each store a build reads (`stored`), by the file's identity."""

    def __init__(self) -> None:
        self._games: dict[str, _Kept] = {}
        self._stores: dict[str, tuple[tuple, Any]] = {}

    def stored(self, path: str | os.PathLike, read: Callable[[Any], T]) -> T:
        """`read(path)`, or what it gave while the file is the same one (its device, inode,
        size and time: `file_values.identity`; a store is written by renaming a new file over
        it, and a generation of the outputs holds a hard link to the last one's,
        `charnel.outputs`). Shared: the caller copies what it changes."""
        now = file_values.identity(path)
        found = self._stores.get(os.path.basename(path))
        if now is not None and found is not None and found[0] == now:
            return found[1]
        value = read(path)
        if now is not None:
            self._stores[os.path.basename(path)] = (now, value)
        return value

    def wrote(self, path: str | os.PathLike, value: Any) -> None:
        """Keep `value` as what `read` gives of the store just written at `path`."""
        now = file_values.identity(path)
        if now is not None:
            self._stores[os.path.basename(path)] = (now, value)

    def load(self, game_id: str, made_by: Hashable) -> Load:
        """One load of `game_id`'s files; `made_by`: what else every record depends on (the
        game's card model): when it is not the last load's, nothing is taken from that."""
        kept = self._games.get(game_id)
        if kept is None or kept.made_by != made_by:
            kept = _Kept(made_by)
        return Load(self, game_id, kept)


    def hashes(self, game_id: str) -> set[str]:
        """The content hashes of the files the last load of `game_id` kept records of."""
        kept = self._games.get(game_id)
        return set() if kept is None else {key[1] for key in kept.entries}


class _Kept:
    __slots__ = ("made_by", "entries")

    def __init__(self, made_by: Hashable):
        self.made_by = made_by
        # what was made, by what from: a key's first item is the file's project path
        self.entries: dict[tuple, Any] = {}


class Load:
    """What one load takes from the last and makes for the next; `done` keeps the latter."""

    def __init__(self, memo: Memo, game_id: str, last: _Kept):
        self._memo, self._game_id, self._last = memo, game_id, last
        self._next = _Kept(last.made_by)

    def get(self, key: tuple) -> Any:
        """What was made from `key` (its first item the file's project path), if the last
        load made it; None otherwise."""
        found = self._last.entries.get(key)
        if found is not None:
            self._next.entries[key] = found
        return found

    def put(self, key: tuple, made: Any) -> None:
        """Keep what was made from `key` for the next load, unless its file has a problem
        (see `done`)."""
        self._next.entries[key] = made

    def done(self, troubled: set[str]) -> None:
        """Keep this load's entries for the next, but those of the files in `troubled` (the
        project paths of the files a problem was found in, which are checked again)."""
        if troubled:
            self._next.entries = {key: made for key, made in self._next.entries.items()
                                  if key[0] not in troubled}
        self._memo._games[self._game_id] = self._next
