"""What a build keeps for the next one, as plain values in one file per store.

A store is a stamp and a value. It is read with an unpickler that builds nothing but plain
values and dates, so a store that holds anything else is ignored, not trusted; a store of
another stamp (another version of charnel's code) is ignored too.
"""

from __future__ import annotations

import datetime
import gc
import hashlib
import pickle
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import charnel
from charnel import __version__, file_values

_DATES = {("datetime", n): getattr(datetime, n) for n in ("date", "datetime", "timedelta",
                                                          "timezone", "time")}


class _PlainUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        found = _DATES.get((module, name))
        if found is None:
            raise pickle.UnpicklingError(f"not a plain value: {module}.{name}")
        return found


def read(path: Path, stamp: str) -> Any:
    """The value kept at `path` under `stamp`; None when there is none, or it is of another
    stamp, damaged or not plain."""
    # unpickling makes a container per value and frees none: the cycle collector would scan
    # them again and again for nothing (two thirds of the read at 50,000 cards)
    collecting = gc.isenabled()
    gc.disable()
    try:
        with path.open("rb") as stream:  # read as it is unpickled, not copied whole first
            data = _PlainUnpickler(stream).load()
    except (OSError, pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError,
            IndexError, KeyError, RecursionError):
        return None
    finally:
        if collecting:
            gc.enable()
    if not (isinstance(data, tuple) and len(data) == 2 and data[0] == stamp):
        return None
    return data[1]


def dumps(stamp: str, value: Any) -> bytes:
    """The store for `value`; dicts in it should be made in a fixed order by the caller."""
    return pickle.dumps((stamp, value), protocol=5)


@cache
def code_version(*packages: str) -> str:
    """A hash of the bytes of charnel's own code and of the given packages' (a game's, where
    it lives outside charnel): what a kept result was computed by."""
    import importlib.util

    digest = hashlib.sha256(f"charnel {__version__}\n".encode())
    folders = [Path(charnel.__file__).parent]
    for name in packages:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations:
            folders += [Path(p) for p in spec.submodule_search_locations]
    for folder in dict.fromkeys(folders):
        for path in sorted(folder.rglob("*.py")):
            digest.update(f"{path.relative_to(folder)}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


_MISSING = object()


class Layered:
    """A store of sections of named values (`{section: {name: value}}`) kept as a base, written
    whole now and then, and the changes since (`<name>.delta`), written in its place: an edit
    changes a few entries of dicts that hold one per card, and writing the whole store again
    cost what the pool does. The changes name the base they apply to by the file's identity
    (`file_values.identity`, which the generations of the outputs share); changes that do
    not apply are ignored, and the base alone is what the last build kept but a few entries
    (every entry is kept by what it was made from, so an older one is never a wrong one).
    When the changes reach 1/`_FOLD` of the store's entries, the base is written whole again."""

    _FOLD = 32

    def __init__(self, path: Path, stamp: str, *, fresh: bool = False):
        self.path, self.stamp = path, stamp
        self.changes_path = path.with_name(path.name + ".delta")
        self.base: dict = {}  # the base file's value, each section's dict copied
        self.base_id: tuple | None = None
        # (section, name, "entries", (changed entries, dropped keys)) for a dict of many
        # entries, (section, name, "whole", value) or (section, name, "drop", None)
        self._changes: list = []
        if fresh:
            return
        found = read(path, stamp)
        if not isinstance(found, dict) or not all(isinstance(s, dict) for s in found.values()):
            return
        self.base = {s: dict(names) for s, names in found.items()}
        self.base_id = file_values.identity(path)
        changes = read(self.changes_path, stamp)
        if (isinstance(changes, tuple) and len(changes) == 2 and changes[0] == self.base_id
                and isinstance(changes[1], list) and all(map(_sound, changes[1]))):
            self._changes = changes[1]

    def value(self) -> dict:
        """The store: the base with the changes applied, in new dicts."""
        merged = {section: dict(names) for section, names in self.base.items()}
        for section, name, kind, payload in self._changes:
            names = merged.setdefault(section, {})
            if kind == "entries":
                put, gone = payload
                whole = names[name] = {**names.get(name, {}), **put}
                for key in gone:
                    whole.pop(key, None)
            elif kind == "whole":
                names[name] = payload
            else:
                names.pop(name, None)
        return merged

    def save(self, value: dict, write: Callable[[Path, bytes], None]) -> None:
        """Keep `value` (written by `write`, which replaces a file by renaming over it)."""
        changes, moved = self._diff(value)
        entries = sum(len(v) if isinstance(v, dict) else 1
                      for names in value.values() for v in names.values())
        if self.base_id is not None and moved * self._FOLD <= entries:
            write(self.changes_path, dumps(self.stamp, (self.base_id, changes)))
            return
        write(self.path, dumps(self.stamp, {s: _sorted(names) for s, names in value.items()}))
        self.changes_path.unlink(missing_ok=True)

    def _diff(self, value: dict) -> tuple[list, int]:
        """The changes from the base to `value`, and how many entries they hold."""
        changes, moved = [], 0
        for section in self.base.keys() - value.keys():
            changes += [(section, name, "drop", None) for name in self.base[section]]
        for section, names in value.items():
            old = self.base.get(section, {})
            changes += [(section, name, "drop", None) for name in old.keys() - names.keys()]
            for name, new in names.items():
                was = old.get(name, _MISSING)
                if isinstance(new, dict) and isinstance(was, dict):
                    # an entry kept as it was read is the same object: no comparison needed
                    put = {k: v for k, v in new.items()
                           if (w := was.get(k, _MISSING)) is not v and w != v}
                    gone = sorted(was.keys() - new.keys())
                    if len(put) + len(gone) < len(new):  # else the dict is smaller whole
                        if put or gone:
                            changes.append((section, name, "entries",
                                            (dict(sorted(put.items())), gone)))
                            moved += len(put) + len(gone)
                        continue
                    new = dict(sorted(new.items()))
                if was is _MISSING or was != new:
                    changes.append((section, name, "whole", new))
                    moved += len(new) if isinstance(new, dict) else 1
        return sorted(changes, key=lambda c: (c[0], c[1])), moved + len(changes)


def _sound(change: object) -> bool:
    """Whether a kept change has the shape `Layered` writes."""
    if not (isinstance(change, tuple) and len(change) == 4):
        return False
    kind, payload = change[2], change[3]
    if kind == "entries":
        return (isinstance(payload, tuple) and len(payload) == 2
                and isinstance(payload[0], dict) and isinstance(payload[1], list))
    return kind in ("whole", "drop")


def _sorted(names: dict) -> dict:
    return {name: dict(sorted(v.items())) if isinstance(v, dict) else v
            for name, v in sorted(names.items())}

