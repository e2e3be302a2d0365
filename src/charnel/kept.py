"""What a build keeps for the next one, as plain values in one file per store.

A store is a stamp and a value. It is read with an unpickler that builds nothing but plain
values and dates, so a store that holds anything else is ignored, not trusted; a store of
another stamp (another version of charnel's code) is ignored too.
"""

from __future__ import annotations

import datetime
import gc
import hashlib
import io
import pickle
from functools import cache
from pathlib import Path
from typing import Any

import charnel
from charnel import __version__

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
        data = _PlainUnpickler(io.BytesIO(path.read_bytes())).load()
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
