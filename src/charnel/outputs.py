"""A build's outputs as one transaction: all of them become visible together, or none do.

    build/
      current -> .gen/a          the complete outputs of the last build that finished
      .gen/a/  .gen/b/           two generations: the visible one and the one being built
      site -> current/site       fixed links, so build/site/, build/print/ and build/<game>.db
      print -> current/print     are always the paths readers use; they never change, only
      <game>.db -> current/<game>.db   `current` does
      .lock                      held (flock) by the build that is running

A build takes the lock, makes the other generation the same as the visible one (hard links:
the two generations share every file they have in common), builds into it as into the last
build's outputs (every stage keeps its own incremental logic: keys, manifests, stamps), and
commits by renaming a new `current` link over the old one, which is one atomic rename. A crash
at any moment leaves `current` naming one complete generation; the other is invisible, and the
next build mirrors it again from the visible one before it writes. A process that builds again
may make the other generation the same ahead of its next build, at a quiet moment (`ready`).

Making the other generation the same is cheap: it still holds the outputs the visible one
was built from, and the visible one keeps a journal of the paths its build changed, so only
those are linked again (`_catch_up`). Every writer notes what it changes (`changed`, and
`write_bytes` does it itself); a generation whose state is not known (never built, or a build
in it died) is mirrored whole instead: every file compared by inode, a link where they differ.

Every writer replaces a file by renaming a new one over it, never writing into it, since an
unchanged file is the same inode in both generations (see `write_bytes`).
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from charnel import output_record

CURRENT = "current"
GENERATIONS = ".gen"
SLOTS = ("a", "b")
LOCK = ".lock"
# what a build writes at the top of a generation, besides <game>.db and dot files
FOLDERS = ("site", "print")
FAULT_ENV = "CHARNEL_FAULT"
# {"id": n, "parent": the id of the generation this one was made from}, or {"same_as": the id
# of the visible generation this invisible one was made the same as, ahead of a build (`ready`)}
STATE = ".generation"
JOURNAL = ".journal"  # the paths under site/ the build of this generation changed
# caught up by the journal; every other top-level entry is mirrored whole (databases, stamps,
# PDFs: a few files)
BY_JOURNAL = output_record.JOURNALED

_changed: list[str] = []  # paths this process changed since the current transaction began
_trash: list[Path] = []  # while catching up: the folder what is removed is moved into
_counter = [0]  # names in the trash


def changed(*paths: str | os.PathLike) -> None:
    """Note files or folders (a folder: all of it) a build wrote, replaced or removed."""
    _changed.extend(os.path.abspath(p) for p in paths)


def fault(point: str) -> None:
    """Die at a named point when CHARNEL_FAULT names it: the fault-injection tests kill a build
    at each point of its transaction (a SIGKILL, so nothing is cleaned up, as in a crash)."""
    if os.environ.get(FAULT_ENV) == point:
        import signal

        os.kill(os.getpid(), signal.SIGKILL)


def write_bytes(path: Path, data: bytes) -> None:
    """Write a file by renaming a new one over it: the old inode may be shared with the other
    generation, which must not change."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)
    changed(path)


def visible(out: Path) -> Path | None:
    """The generation readers see now (None before the first build of this layout)."""
    link = out / CURRENT
    try:
        target = os.readlink(link)
    except OSError:
        return None
    found = out / target
    return found if found.is_dir() else None


@contextmanager
def locked(out: Path, notice: Callable[[str], None] = lambda s: None, *, wait: bool = True):
    """Hold the build lock of `out`: a second build says it waits, and waits for the first.
    Gives whether it holds the lock: `wait=False` gives False at once when another holds it."""
    out.mkdir(parents=True, exist_ok=True)
    fd = os.open(out / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if not wait:
                yield False
                return
            notice(f"waiting for another build writing into {out}/ to finish")
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield True
    finally:
        os.close(fd)  # closing releases the lock, as a crash does


def ready(out: Path) -> None:
    """Make the invisible generation the same as the visible one now, ahead of the next
    build, which then starts building at once: for a process that builds again (`charnel serve
    --watch`), at a quiet moment. The first time after a build from nothing, every file is
    linked (seconds at 10,000 cards); after that, the journal's few paths. Nothing when a
    build holds the lock."""
    with locked(out, wait=False) as held:
        shown = visible(out) if held else None
        if shown is None:
            return
        theirs = _read(shown / STATE)
        other = out / GENERATIONS / (SLOTS[1] if shown.name == SLOTS[0] else SLOTS[0])
        if "id" not in theirs or _read(other / STATE).get("same_as") == theirs["id"]:
            return
        trash = out / GENERATIONS / f"trash-{os.getpid()}-{time.time_ns()}"
        trash.mkdir()
        _trash.append(trash)
        try:
            _catch_up(shown, other)
        finally:
            _trash.clear()
        _empty_trash(out / GENERATIONS)
        _write_json(other / STATE, {"same_as": theirs["id"]})


class Transaction:
    """Stage a build's outputs in the invisible generation; `commit` shows them all at once."""

    def __init__(self, out: Path):
        self.out = out
        _migrate(out)
        shown = visible(out)
        name = SLOTS[1] if shown is not None and shown.name == SLOTS[0] else SLOTS[0]
        self.dir = out / GENERATIONS / name
        self.parent = 0
        self.record: dict | None = None  # the visible generation's
        self.same = False  # whether this generation was made the same as the visible one by
        # its journal, so that its record is the visible one's but for what this build changes
        fault("before-mirror")
        if shown is not None:
            self.parent = _read(shown / STATE).get("id", 0)
            self.record = output_record.read(shown)
            trash = out / GENERATIONS / f"trash-{os.getpid()}-{time.time_ns()}"
            trash.mkdir()
            _trash.append(trash)
            try:
                self.same = _catch_up(shown, self.dir)
            finally:
                _trash.clear()
            _empty_trash(out / GENERATIONS)
        else:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir.mkdir(parents=True)
        _changed.clear()
        fault("after-mirror")

    def discard(self, paths: Iterable[str]) -> None:
        """Remove outputs (relative paths) from this generation, so the build makes them
        again: those the visible generation holds with other bytes than it recorded."""
        for rel in paths:
            path = self.dir / rel
            if ".." not in rel.split("/") and os.path.lexists(path):
                _discard(path)
                changed(path)

    def remove_games(self, keep: Iterable[str]) -> None:
        """Drop the outputs of games no longer in the project (a whole-project build)."""
        keep = set(keep)
        for db in self.dir.glob("*.db"):
            if db.stem not in keep:
                db.unlink()
                (self.dir / f".{db.stem}.stamp").unlink(missing_ok=True)

    def commit(self, games: Iterable[str]) -> None:
        """Make this generation the visible one: the fixed links first (harmless while they
        point at what `current` names now), then one rename of the `current` link."""
        for name in [*FOLDERS, *(f"{g}.db" for g in games)]:
            _fixed_link(self.out / name, f"{CURRENT}/{name}")
        root = os.path.abspath(self.dir)
        journal = sorted({os.path.relpath(p, root) for p in _changed
                          if p.startswith(root + os.sep)})
        _write_json(self.dir / JOURNAL, journal)
        record = output_record.make(self.dir, self.record, journal if self.same else None)
        output_record.write(self.dir, record)
        _write_json(self.dir / STATE, {"id": self.parent + 1, "parent": self.parent})
        fault("before-switch")
        tmp = self.out / f".{CURRENT}.{os.getpid()}"
        tmp.unlink(missing_ok=True)
        os.symlink(f"{GENERATIONS}/{self.dir.name}", tmp)
        os.replace(tmp, self.out / CURRENT)
        fault("after-switch")
        for link in self.out.glob("*.db"):  # links to databases of games no longer built
            if link.is_symlink() and not link.exists():
                link.unlink()


@contextmanager
def transaction(out: Path, notice: Callable[[str], None] = lambda s: None) -> Iterator[Transaction]:
    """Hold the lock and stage; the block calls `commit` when everything was built, and
    anything else leaves the visible outputs as they were. See `Transaction`."""
    with locked(out, notice=notice):
        yield Transaction(out)


def _read(path: Path):
    try:
        return json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return {}


def _write_json(path: Path, data) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    # one line: json's C encoder (an indent takes its Python one, seconds for a large record)
    tmp.write_text(json.dumps(data, separators=(",", ":")) + "\n", "utf-8")
    os.replace(tmp, path)


def _catch_up(shown: Path, dst: Path) -> bool:
    """Make `dst` the same as `shown`: by `shown`'s journal when `dst` holds the outputs
    `shown` was built from (True), else by mirroring the whole tree (False)."""
    theirs, mine = _read(shown / STATE), _read(dst / STATE)
    journal = _read(shown / JOURNAL) if (shown / JOURNAL).is_file() else None
    (dst / STATE).unlink(missing_ok=True)  # its state is unknown until this build commits
    if "id" in theirs and mine.get("same_as") == theirs["id"]:
        return True  # made the same ahead of this build (`ready`)
    if not (theirs and mine and isinstance(journal, list)
            and theirs.get("parent") == mine.get("id")):
        mirror(shown, dst)
        return False
    for entry in os.scandir(dst):
        if not os.path.lexists(shown / entry.name):
            _remove(entry)
    for entry in os.scandir(shown):
        if entry.name not in BY_JOURNAL:
            _sync(shown / entry.name, dst / entry.name)
    for path in journal:
        if isinstance(path, str) and not os.path.isabs(path) and ".." not in path.split("/"):
            _sync(shown / path, dst / path, dst)
    return True


def _sync(src: Path, dst: Path, top: Path | None = None) -> None:
    """Make the path `dst` hold what `src` holds (a folder: all of it; missing: nothing)."""
    if src.is_dir() and not src.is_symlink():
        if dst.is_symlink() or dst.is_file():
            _discard(dst)
        mirror(src, dst)
        return
    if os.path.lexists(dst) and not (dst.is_dir() and not dst.is_symlink()):
        if src.exists() and not src.is_symlink() and os.stat(src).st_ino == os.lstat(dst).st_ino:
            return
        _discard(dst)
    elif dst.is_dir():
        _discard(dst)
    if os.path.lexists(src):
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_symlink():
            os.symlink(os.readlink(src), dst)
        else:
            _link(src, dst)
        return
    # gone: so are the folders it leaves empty, where the source has none either
    folder, source = dst.parent, src.parent
    while (top is not None and folder != top and not source.exists() and folder.is_dir()
           and not any(folder.iterdir())):
        folder.rmdir()
        folder, source = folder.parent, source.parent


def _link(src: Path, dst: Path) -> None:
    try:
        os.link(src, dst)
    except OSError as exc:  # a filesystem without hard links: a copy
        if exc.errno not in (errno.EPERM, errno.EXDEV, errno.EMLINK, errno.ENOTSUP):
            raise
        shutil.copy2(src, dst)


def mirror(src: Path, dst: Path) -> None:
    """Make `dst` hold what `src` holds, each file a hard link to `src`'s; a file already
    linked (the same inode) is left alone, so mirroring again after a build costs one link per
    file that build changed. Symbolic links are copied as links."""
    dst.mkdir(parents=True, exist_ok=True)
    theirs = {e.name: e for e in os.scandir(src)}
    mine = {e.name: e for e in os.scandir(dst)}
    for name, entry in mine.items():
        other = theirs.get(name)
        if other is None or _kind(other) != _kind(entry) or (
            _kind(entry) == "file" and other.inode() != entry.inode()
        ) or (_kind(entry) == "link" and os.readlink(other.path) != os.readlink(entry.path)):
            _remove(entry)
    for name, entry in theirs.items():
        kind = _kind(entry)
        target = os.path.join(dst, name)
        if kind == "dir":
            mirror(Path(entry.path), Path(target))
        elif os.path.lexists(target):
            continue  # the same inode or link: kept above
        elif kind == "link":
            os.symlink(os.readlink(entry.path), target)
        else:
            _link(Path(entry.path), Path(target))


def _kind(entry: os.DirEntry) -> str:
    if entry.is_symlink():
        return "link"
    return "dir" if entry.is_dir(follow_symlinks=False) else "file"


def _remove(entry: os.DirEntry) -> None:
    _discard(entry.path)


def _discard(path: str | Path) -> None:
    """Remove a file or folder. While catching up, it is moved into the trash instead (one
    rename), which a process of low priority empties beside the build: deleting the last link
    to a file costs the disk real work (2-4 ms a file on the build machine), which the build
    need not wait for."""
    if _trash:
        _counter[0] += 1
        os.replace(path, _trash[0] / str(_counter[0]))
    elif os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    else:
        os.unlink(path)


def _empty_trash(folder: Path) -> None:
    """Delete every trash folder (this build's, and any a killed build left) in a process of
    its own at the lowest priority; it holds no lock, and a killed one leaves the rest to the
    next build."""
    found = [str(p) for p in folder.glob("trash-*")]
    for path in list(found):
        try:
            os.rmdir(path)  # empty: nothing to hand over
            found.remove(path)
        except OSError:
            pass
    if found:
        code = "import os, shutil, sys\nos.nice(19)\nfor p in sys.argv[1:]: shutil.rmtree(p, True)"
        subprocess.Popen([sys.executable, "-c", code, *found], stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _fixed_link(path: Path, target: str) -> None:
    if os.path.islink(path) and os.readlink(path) == target:
        return
    tmp = path.with_name(f".{path.name}.{os.getpid()}.link")
    tmp.unlink(missing_ok=True)
    os.symlink(target, tmp)
    os.replace(tmp, path)  # over a stray file or a dangling link; a real folder: see _migrate


def _migrate(out: Path) -> None:
    """Outputs of the layout before generations (build/site/ a folder, build/<game>.db a file)
    become the first visible generation, so their incremental state is kept."""
    if visible(out) is not None:
        return
    old = [p for p in out.iterdir() if not p.is_symlink() and (
        (p.name in FOLDERS and p.is_dir()) or (p.suffix == ".db" and p.is_file())
        or (p.name.startswith(".") and p.name.endswith(".stamp"))
    )]
    if not old:
        return
    first = out / GENERATIONS / SLOTS[0]
    first.mkdir(parents=True, exist_ok=True)
    for path in old:
        dest = first / path.name
        if dest.is_dir():
            shutil.rmtree(dest)
        os.replace(path, dest)
    tmp = out / f".{CURRENT}.{os.getpid()}"
    tmp.unlink(missing_ok=True)
    os.symlink(f"{GENERATIONS}/{SLOTS[0]}", tmp)
    os.replace(tmp, out / CURRENT)
    for path in old:
        if not path.name.startswith("."):
            _fixed_link(out / path.name, f"{CURRENT}/{path.name}")
