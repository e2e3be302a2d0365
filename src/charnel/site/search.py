"""The search index: Pagefind (its bundled binary, from the PyPI package) over the built pages.

Pages opt in with `data-pagefind-body` and carry `data-pagefind-filter` values (kind, set,
type, the game's enums, keyword). Rules, rulings, glossary terms and cards are one Pagefind
bundle, /<game>/pagefind/: a reader's first query then costs one entry file, one metadata
file, the WebAssembly and a word index chunk, where each further bundle merged in the browser
costs an entry file, a metadata file and a chunk more, one after another (sixteen card shards
made a first query 70 requests and 529 KB at 10,000 cards). Page URLs in a bundle are relative
to the game's folder, which Pagefind puts before them (the folder its bundle is in), so the
bundles of several games merge. A rebuild re-indexes the bundle only when a page in it
changed, and swaps it in whole, so a failed indexing run leaves the previous bundle in place.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from pathlib import Path

from charnel.outputs import changed, write_bytes
from charnel.site import search_whole
from charnel.site.parallel import LargestFirst
from charnel.site.search_canonical import SearchIndexError, canonicalize

MAIN = "pagefind"
STATE = ".charnel-search.json"
# Pagefind's ready-made interfaces, written into every bundle: the site has its own search
# page over pagefind.js, so these are 420 KB per bundle that nothing loads.
UNUSED = (
    "pagefind-ui.js", "pagefind-ui.css", "pagefind-component-ui.js", "pagefind-component-ui.css",
    "pagefind-modular-ui.js", "pagefind-modular-ui.css", "pagefind-highlight.js",
)
_CLAUSE_PAGE = re.compile(r"^rules/\d+(\.\d+[a-z]?)?/index\.html$")


def bundles() -> list[str]:
    """Every bundle, main first: what the browser loads and merges."""
    return [MAIN]


def bundle_of(path: str) -> str | None:
    """The bundle a site file is indexed in, or None for pages search does not cover."""
    parts = path.split("/")
    if parts[-1] != "index.html":
        return None
    if (
        (parts[0] == "cards" and len(parts) == 3 and not parts[1].startswith("by-"))
        or (parts[0] == "glossary" and len(parts) == 3)
        or parts[0] == "rulings"
        or _CLAUSE_PAGE.match(path)
    ):
        return MAIN
    return None


def members(files) -> dict[str, list[str]]:
    """The pages of each bundle that has any, from the site's file paths."""
    found: dict[str, list[str]] = {name: [] for name in bundles()}
    for path in sorted(files):
        bundle = bundle_of(path)
        if bundle is not None:
            found[bundle].append(path)
    return {name: paths for name, paths in found.items() if paths}


class Indexer:
    """Indexes bundles in background threads (one Pagefind process each, as many at a time as
    there are cores) while the rest of the site renders.

    `start` may be called as soon as a bundle's pages are all staged. `source(path)` says
    where a page's bytes are (staged or in the site). `finish` waits and raises
    SearchIndexError if any bundle failed, before anything is committed; `swap` moves the new
    bundles into the site after the pages are in place. Each bundle is replaced whole, so a
    failed run leaves the previous bundle.
    """

    def __init__(self, site: Path, source: Callable[[str], str]):
        self.site = site
        self.source = source
        self.work = site.parent / f".{site.name}.search"
        shutil.rmtree(self.work, ignore_errors=True)
        try:
            self.state = json.loads((site / STATE).read_text("utf-8"))
        except (OSError, ValueError):
            self.state = {}
        self.digests: dict[str, str] = {}
        self.jobs: dict[str, Future[str | None]] = {}
        # the largest bundle first, should there be several
        self.pool = LargestFirst(os.cpu_count() or 1)
        self.pagefind = _pagefind()  # found once, not once per bundle
        self._scripts: list[threading.Thread] = []

    def start(self, files: dict[str, str], names: Iterable[str] | None = None) -> None:
        """Begin indexing the bundles among `names` (default: every bundle) whose pages, found
        among `files` (site path -> content hash), changed since the last build."""
        members_of = members(files)
        for name in members_of if names is None else names:
            if name not in members_of or name in self.digests:
                continue
            paths = members_of[name]
            self.digests[name] = hashlib.sha256(
                "".join(f"{p}\0{files[p]}\n" for p in paths).encode()
            ).hexdigest()
            if not self._kept(name):
                # the view is made here: in a thread, each link would wait for the GIL
                self.jobs[name] = self.pool.submit(
                    len(paths), self._index, name, self._view(name, paths)
                )
                if not self._scripts:  # needed to check the bundle, made beside it
                    self._scripts.append(threading.Thread(target=search_whole.prefetch))
                    self._scripts[0].start()

    def finish(self) -> None:
        """Wait for every bundle; raise SearchIndexError if one failed or is not whole (see
        `search_whole`: Pagefind exits 0 after a write that failed)."""
        errors = [e for e in (job.result() for job in self.jobs.values()) if e]
        if not errors and self.jobs:
            try:
                scripts = search_whole.reference()
            except Exception as exc:  # the service failed to start: the check cannot be made
                raise SearchIndexError(f"pagefind's service: {exc}") from exc
            for name in self.jobs:
                found = search_whole.problems(self.work / name / "out", scripts)
                if found:
                    errors.append(f"the search index {name}/ that Pagefind wrote is "
                                  "incomplete (a full disk?): " + "; ".join(found[:5]))
        if errors:
            raise SearchIndexError("; ".join(errors))

    def files(self) -> list[tuple[str, str]]:
        """Each file of the bundles as the next `swap` leaves them (site path, hash of its
        bytes); call it after `finish`."""
        found = []
        for name in self.digests:
            folder = self.work / name / "out" if name in self.jobs else self.site / name
            for path in sorted(p for p in folder.rglob("*") if p.is_file()):
                digest = hashlib.sha256(path.read_bytes()).hexdigest()
                found.append((f"{name}/{path.relative_to(folder).as_posix()}", digest))
        return found

    def swap(self) -> list[str]:
        """Put the new bundles in the site, remove those without pages now; returns the
        bundles that were indexed."""
        for name in set(bundles()) - set(self.digests):
            shutil.rmtree(self.site / name, ignore_errors=True)
            changed(self.site / name)
        for name in self.jobs:
            if (self.site / name).exists():
                os.replace(self.site / name, self.work / name / "old")
            os.replace(self.work / name / "out", self.site / name)
            changed(self.site / name)
        state = {name: {"pages": digest, "files": self._files(name)}
                 for name, digest in self.digests.items()}
        write_bytes(self.site / STATE, json.dumps(state, indent=0, sort_keys=True).encode())
        return sorted(self.jobs, key=bundles().index)

    def _kept(self, name: str) -> bool:
        """Whether the bundle in the site is of the same pages and has every file it had
        (a later build removes an output whose bytes are not those recorded)."""
        last = self.state.get(name)
        if not isinstance(last, dict) or last.get("pages") != self.digests[name]:
            return False
        files = last.get("files")
        folder = self.site / name
        return isinstance(files, list) and bool(files) and all(
            isinstance(f, str) and ".." not in f.split("/") and (folder / f).is_file()
            for f in files
        )

    def _files(self, name: str) -> list[str]:
        if name not in self.jobs:
            return self.state[name]["files"]
        folder = self.site / name
        return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())

    def close(self) -> None:
        self.pool.shutdown()
        shutil.rmtree(self.work, ignore_errors=True)

    def _view(self, name: str, paths: list[str]) -> Path:
        """A folder of hard links to the pages of one bundle, for Pagefind to index."""
        view = f"{self.work}/{name}/site"
        os.makedirs(view)
        for path in paths:
            target = f"{view}/{path}"
            os.makedirs(os.path.dirname(target), exist_ok=True)
            try:
                os.link(self.source(path), target)
            except OSError:
                shutil.copyfile(self.source(path), target)
        return Path(view)

    def _index(self, name: str, view: Path) -> str | None:
        """Index the pages in `view` into work/<name>/out; returns an error."""
        out = self.work / name / "out"
        cmd = [
            *self.pagefind, "--site", str(view), "--output-path", str(out),
            "--silent", "--force-language", "en", "--include-characters", ".",
        ]
        # Pagefind on every core when it is the only bundle; one thread each when several
        # index at once, so that the build's main line keeps a core.
        threads = (os.cpu_count() or 1) if len(self.digests) == 1 else 1
        env = {**os.environ, "RAYON_NUM_THREADS": str(threads)}
        result = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
        shutil.rmtree(view, ignore_errors=True)  # here, while the build goes on, not after it
        if result.returncode != 0 or not (out / "pagefind.js").is_file():
            return f"pagefind failed for {name}: {(result.stderr or result.stdout).strip()}"
        canonicalize(out)
        for name in UNUSED:
            (out / name).unlink(missing_ok=True)
        return None


def _pagefind() -> list[str]:
    """The Pagefind binary the PyPI package ships, run directly: `python -m pagefind` costs
    an interpreter start (about 70 ms) per bundle."""
    try:
        from pagefind.service import get_executable
    except ImportError:
        return [sys.executable, "-m", "pagefind"]
    found = get_executable()
    return [str(found)] if found else [sys.executable, "-m", "pagefind"]
