"""Whether a Pagefind bundle on disk is whole: every file complete, every file named there.

Pagefind carries on when a write fails (a full disk) and exits 0, leaving a short file — a
truncated WebAssembly module broke site search after a "successful" build. So the build does
not trust its exit status: each file it wrote is checked before the bundle is swapped in.

- gzip files (the metadata, word index, filters, fragments, WebAssembly) are decompressed
  whole: gzip's trailer holds the length and CRC of the data, so a short file fails.
- the entry file is parsed (`search_canonical` rewrote it, from Python, whose writes fail
  loudly) and names the metadata and WebAssembly of each language, which must be there.
- each page in the metadata names its fragment, which must be there.
- the JavaScript is the same in every bundle of one Pagefind binary: it must equal, byte for
  byte, what the binary gives for a one-record index built in memory (`reference`).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import threading
import zlib
from pathlib import Path

from charnel.site import parallel
from charnel.site.search_canonical import ENTRY, PAGES, SIGNATURE, decode

SCRIPTS = ("pagefind.js", "pagefind-worker.js")


def problems(bundle: Path, scripts: dict[str, bytes], *, fork: bool = False) -> list[str]:
    """What is missing or incomplete in `bundle`; `scripts` are the reference JavaScript.
    fork=True spreads the files over the cores (from a process with no other threads)."""
    return checked(bundle, scripts, fork=fork)[0]


def checked(bundle: Path, scripts: dict[str, bytes], *,
            fork: bool = False) -> tuple[list[str], dict[str, str]]:
    """`problems`, and the SHA-256 of every file of `bundle` by its path there: each file is
    read once for both (the build records the hashes of what it swaps in)."""
    found: list[str] = []
    try:
        entry = json.loads((bundle / ENTRY).read_text("utf-8"))
        languages = entry["languages"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return [f"{ENTRY}: {exc}"], {}
    named: set[str] = set()
    for info in languages.values():
        meta = f"pagefind.{info['hash']}.pf_meta"
        named.add(meta)
        if info.get("wasm"):
            named.add(f"wasm.{info['wasm']}.pagefind")
        try:
            value = decode(_unzipped(bundle / meta)[len(SIGNATURE):])
            pages = value[PAGES]
        except (OSError, ValueError, EOFError, zlib.error, IndexError, TypeError) as exc:
            found.append(f"{meta}: {exc}")
            continue
        named.update(f"fragment/{page[0]}.pf_fragment" for page in pages)
    for name in sorted(named):
        if not (bundle / name).is_file():
            found.append(f"{name}: missing")
    for name in SCRIPTS:
        try:
            data = (bundle / name).read_bytes()
        except OSError as exc:
            found.append(f"{name}: {exc.strerror or exc}")
            continue
        if data != scripts.get(name):
            found.append(f"{name}: {len(data)} bytes, not the {len(scripts.get(name, b''))} "
                         "Pagefind writes")
    paths = [path for path in sorted(bundle.rglob("*")) if path.is_file()]
    hashes = {}
    for path, (error, digest) in zip(
        paths, parallel.render_all(_file_checked, paths, fork=fork, batch=1000), strict=True
    ):
        name = path.relative_to(bundle).as_posix()
        if error and name not in (ENTRY, *SCRIPTS):  # not gzip: checked above
            found.append(f"{name}: incomplete ({error})")
        hashes[name] = digest
    return found, hashes


def _file_checked(path: Path) -> tuple[str | None, str]:
    """(why the gzip file at `path` is incomplete, or None; the SHA-256 of its bytes)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        return str(exc), ""
    try:
        gzip.decompress(data)
    except (EOFError, zlib.error, gzip.BadGzipFile) as exc:
        return str(exc), hashlib.sha256(data).hexdigest()
    return None, hashlib.sha256(data).hexdigest()


def _unzipped(path: Path) -> bytes:
    return gzip.decompress(path.read_bytes())


_lock = threading.Lock()


def prefetch() -> None:
    """`reference`, in a thread of its own: a failure is reported by the call that needs it."""
    try:
        reference()
    except Exception:
        pass


_known: dict[str, bytes] = {}  # the reference scripts, once made or handed back by `keep`


def reference() -> dict[str, bytes]:
    """The JavaScript this Pagefind binary writes into every bundle, from an index built in
    memory by its service (nothing is written to disk, so a full disk cannot cut it short).
    Made once a process; the indexer starts it in a thread beside the indexing."""
    with _lock:
        if not _known:
            _known.update(_reference())
        return dict(_known)


def keep(scripts: dict[str, bytes]) -> None:
    """Keep the scripts another process made with `reference`, for the next build here."""
    with _lock:
        _known.update(scripts)


def _reference() -> dict[str, bytes]:
    import asyncio

    from pagefind.index import PagefindIndex

    class Done(Exception):  # leaving the block by an exception: Pagefind writes nothing
        pass

    async def files() -> list:
        try:
            async with PagefindIndex({"force_language": "en"}) as index:
                await index.add_custom_record(url="/", content="charnel", language="en")
                raise Done(await index.get_files())
        except Done as done:
            return done.args[0]

    return {f["path"]: f["content"] for f in asyncio.run(files()) if f["path"] in SCRIPTS}
