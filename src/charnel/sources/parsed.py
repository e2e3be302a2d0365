"""Card files kept parsed between builds: their values by the bytes they were parsed from, and
which file held which bytes, by the file's metadata.

Composing YAML is most of a load; a build after a one-card edit parses that card alone and
takes every other card's values from the last build's. `values` maps a file's content hash to
the plain value it parsed to (only files that loaded without a problem are kept), so a file is
parsed again when its bytes changed. `files` maps a card file's project path to its size,
modification time, inode and change time with its content hash, as git's index does: a file
whose metadata are the recorded ones is not read or hashed at all. A file changed within
`RACY_NS` of the moment its metadata were taken is not recorded (a second write in the same
tick of the file system's clock would leave them as they were), so the next build reads it.
`rules` maps a rules document's content hash to its Markdown parse (`rules_md.blocks`), which
the clauses are read from again each build.

A store that differs from the pool by a few entries is not written again (`worth_writing`):
those few are read and parsed by each build until it is. The whole store is dropped when
charnel's version or the parser's code changes. It is read with an unpickler that builds
nothing but plain values and dates: a store that holds anything else is ignored, not trusted.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from charnel import __version__, kept

_PARSER_CODE = ("yamltext.py", "parallel.py", "parsed.py", "rules_md.py")
# Writing the store again costs what the whole pool does (half a second at 50,000 cards);
# parsing a file again costs a millisecond. A build whose files differ from the store's by no
# more than this leaves the store as it is, and the next build parses those few again.
_FEW = 64
# The coarsest clock a file system keeps times with (FAT's, two seconds): a file changed this
# close to the moment its metadata were taken may change again with the same metadata.
RACY_NS = 2_000_000_000

Stat = tuple[int, int, int, int]  # size, mtime_ns, inode, ctime_ns


def stat_of(path: str | os.PathLike) -> Stat | None:
    """What a file's metadata say of its bytes; None when it cannot be looked at."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns)


@dataclass
class Kept:
    """The card files as the last build read them, and this build's view of the files."""

    values: dict[str, Any] = field(default_factory=dict)  # content hash -> parsed value
    files: dict[str, tuple] = field(default_factory=dict)  # project path -> (*Stat, hash)
    # a rules document's content hash -> its Markdown parse (`rules_md.blocks`)
    rules: dict[str, list] = field(default_factory=dict)
    # this build's metadata of each source file and when it began taking them (see
    # `pipeline.fingerprint`); without them every file is read
    stats: dict[str, Stat | None] = field(default_factory=dict, compare=False)
    taken_ns: int = field(default=0, compare=False)

    def unchanged(self, path: str, rel: str) -> str | None:
        """The content hash of a file whose metadata are the ones recorded with it, and whose
        value is kept; None when it must be read."""
        entry = self.files.get(rel)
        if entry is None or entry[4] not in self.values:
            return None
        return entry[4] if self.stats.get(path) == entry[:4] else None

    def record(self, path: str, rel: str, content_hash: str) -> None:
        """Note a file's metadata with its content hash, unless they were taken too soon after
        it changed to tell a later change apart."""
        stat = self.stats.get(path)
        if stat is not None and max(stat[1], stat[3]) < self.taken_ns - RACY_NS:
            self.files[rel] = (*stat, content_hash)

    def copy(self) -> Kept:
        """A store of the same entries, to be changed apart from this one."""
        return Kept(dict(self.values), dict(self.files), dict(self.rules))

    def marks(self) -> tuple[set, dict, set]:
        """What the store holds, to tell by `worth_writing` how far a load moved from it."""
        return set(self.values), dict(self.files), set(self.rules)


def _stamp() -> str:
    import markdown_it

    digest = hashlib.sha256(f"charnel {__version__} {markdown_it.__version__}\n".encode())
    for name in _PARSER_CODE:
        digest.update((Path(__file__).parent / name).read_bytes())
    return digest.hexdigest()


def read(path: Path) -> Kept:
    """The store at `path`; empty when there is none or it is of another version, damaged or
    not plain."""
    data = kept.read(path, _stamp())
    if not (isinstance(data, tuple) and len(data) == 3
            and all(isinstance(part, dict) for part in data)):
        return Kept()
    files = {rel: entry for rel, entry in data[1].items()
             if isinstance(entry, tuple) and len(entry) == 5}
    rules = {key: found for key, found in data[2].items() if isinstance(found, list)
             and all(isinstance(b, tuple) and len(b) == 8 for b in found)}
    return Kept(data[0], files, rules)


def dumps(store: Kept) -> bytes:
    """The store's bytes, in a fixed order."""
    return kept.dumps(_stamp(), (dict(sorted(store.values.items())),
                                 dict(sorted(store.files.items())),
                                 dict(sorted(store.rules.items()))))


def worth_writing(stored: tuple[set, dict, set], now: Kept) -> bool:
    """Whether the store should be written again for `now`, having held `stored` (its
    `marks`): when they differ by more than a few entries."""
    values, files, rules = stored
    if not values and now.values:
        return True  # a first build writes what it parsed
    # a file's entry is kept as the same tuple when it is unchanged: compared, not hashed
    moved = sum(now.files.get(rel) != entry for rel, entry in files.items())
    moved += len(now.files.keys() - files.keys())
    moved += len(values.symmetric_difference(now.values))
    return moved + len(rules.symmetric_difference(now.rules)) > _FEW
