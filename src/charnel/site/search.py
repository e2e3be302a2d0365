"""The search index: Pagefind (its bundled binary, from the PyPI package) over the built pages.

Pages opt in with `data-pagefind-body` and carry `data-pagefind-filter` values (kind, set,
type, the game's enums, keyword). Rules, rulings, glossary terms and cards are one main
Pagefind bundle, /<game>/pagefind/: a reader's first query then costs one entry file, one
metadata file, the WebAssembly and a word index chunk (sixteen card shards made a first query
70 requests and 529 KB at 10,000 cards). Page URLs in a bundle are relative to the game's
folder, which Pagefind puts before them (the folder its bundle is in), so bundles merge.

Indexing every page again after each edit took most of a rebuild, so the main bundle is
kept while few pages changed since it was made (as an LSM tree keeps its large run): the
pages changed since then are indexed into a small delta bundle, /<game>/pagefind-delta/,
which the browser merges with the main one (`pagefind.mergeIndex`), and the main bundle's
results for pages changed or removed since are hidden by their ids, listed in the game's
search.json beside the bundles. Once the pages changed since the main bundle are more than a
FOLD-th of all pages, the main bundle is made again from every page and the delta goes.
Each bundle is swapped in whole, so a failed indexing run leaves the previous one in place.
"""

from __future__ import annotations

import functools
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

from charnel.forked import Aside
from charnel.outputs import changed
from charnel.site import search_whole
from charnel.site.output import by_key, read_kept, write_kept
from charnel.site.search_canonical import SIGNATURE, SearchIndexError, canonicalize
from charnel.site.search_cut import cut

MAIN = "pagefind"
DELTA = "pagefind-delta"
FOLD = 16  # the delta is folded into the main bundle once it holds over 1/FOLD of the pages
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
    return [MAIN, DELTA]


@functools.lru_cache(maxsize=1 << 17)  # asked of every file in every build
def bundle_of(path: str) -> str | None:
    """The main bundle for a site file search covers, None for pages it does not."""
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


# each bundle's files last checked by `_folders`, with what it found: the state is kept in
# memory by its file's identity (`read_kept`), so a process that builds again is given the
# same dict
_checked: dict[str, tuple[dict, set[str] | None]] = {}


def _folders(name: str, files: dict) -> set[str] | None:
    """The folders of a bundle's files (paths within it); None when one is not such a path."""
    last = _checked.get(name)
    if last is not None and last[0] is files:
        return last[1]
    found = None
    if all(isinstance(f, str) and ".." not in f.split("/") and f[:1] != "/" for f in files):
        found = {f.rpartition("/")[0] for f in files}
    _checked[name] = (files, found)
    return found


def _files_under(root: Path, folders: set[str]) -> set[str]:
    """The files of each of `folders` (relative to `root`), as paths relative to `root`: one
    listing a folder, where the bundle's twelve thousand files at 10,000 cards were a stat each."""
    found = set()
    for folder in folders:
        prefix = f"{folder}/" if folder else ""
        try:
            with os.scandir(root / folder) as entries:
                found.update(prefix + e.name for e in entries if e.is_file())
        except OSError:  # gone, or not a folder: its files are not there
            continue
    return found


def page_url(path: str) -> str:
    """The URL Pagefind records for a page of the game's folder."""
    return "/" + path[: -len("index.html")]


class Indexer:
    """Indexes the search bundles in a process of their own while the build goes on.

    `stage(path, html)`, in a render worker, writes a searched page's cut (`search_cut`) for
    the index. `start(files)` (site path -> content hash of every file) decides what to index:
    nothing, the delta, or the main bundle again. `source(path)` says where a page's bytes are
    (staged or in the site): a page not rendered by this build is cut from there. `finish`
    waits and raises SearchIndexError if a bundle failed, before anything is committed;
    `reading()` is then what the browser needs (search.json); `swap` moves the new
    bundles into the site after the pages are in place.
    """

    def __init__(self, site: Path, source: Callable[[str], str]):
        self.site = site
        self.source = source
        self.work = site.parent / f".{site.name}.search"
        shutil.rmtree(self.work, ignore_errors=True)
        self.cuts = f"{self.work}/pages"  # the searched pages this build rendered, cut
        # kept in memory by the file's identity, as the manifests are (`site/output.py`)
        self.state: dict = read_kept(site / STATE, json.loads)
        self.pages: dict[str, dict[str, str]] = {}  # bundle -> the pages it holds (path: hash)
        self.hidden: list[str] = []  # the main bundle's ids of pages changed or removed since
        self.main_ids: dict[str, str] | None = None  # page path -> id in the main bundle
        self.jobs: dict[str, Aside] = {}
        self._hashes: dict[str, dict[str, str]] = {}  # bundle -> its files' hashes
        self.pagefind = _pagefind()  # found once, not once per bundle

    def stage(self, path: str, html: str) -> None:
        """Write the cut of the page at `path` if search covers it. Safe in a render worker."""
        if bundle_of(path):
            _write(f"{self.cuts}/{path}", cut(html))

    def start(self, files: dict[str, str]) -> None:
        """Begin indexing what changed among the searched pages of `files`."""
        pages = {p: files[p] for p in sorted(files) if bundle_of(p)}
        if not pages:
            return
        main = self._last(MAIN)
        if main is not None:
            changed_pages = {p: h for p, h in pages.items() if main["pages"].get(p) != h}
            removed = [p for p in main["pages"] if p not in pages]
            if (len(changed_pages) + len(removed)) * FOLD <= len(pages):
                self.pages[MAIN] = main["pages"]
                self._hashes[MAIN] = main["files"]
                ids = main.get("ids")  # carried while the main bundle lives, needed or not
                self.main_ids = ids if isinstance(ids, dict) else None
                if changed_pages:
                    self.pages[DELTA] = changed_pages
                    delta = self._last(DELTA)
                    if delta is not None and delta["pages"] == changed_pages:
                        self._hashes[DELTA] = delta["files"]
                    else:
                        self._submit(DELTA, changed_pages)
                superseded = sorted({*changed_pages, *removed})
                if superseded:
                    if self.main_ids is None:
                        self.main_ids = _ids(self.site / MAIN)
                    self.hidden = sorted({self.main_ids[p] for p in superseded
                                          if p in self.main_ids})
                return
        self.pages[MAIN] = pages
        self._submit(MAIN, pages)

    def _submit(self, name: str, pages: dict[str, str]) -> None:
        # A process, not a thread: the renumbering and the checks are Python, which a thread
        # would run under this process's lock while the pages render; and render workers
        # forked beside a thread could inherit a lock it holds.
        self.jobs[name] = Aside(self._made, name, pages, nice=0)

    def finish(self) -> None:
        """Wait for every bundle; raise SearchIndexError if one failed or is not whole (see
        `search_whole`: Pagefind exits 0 after a write that failed)."""
        errors = []
        for name, job in self.jobs.items():
            error, hashes, scripts = job.result()
            search_whole.keep(scripts)  # made in the indexing process: the next build's too
            if error:
                errors.append(error)
            self._hashes[name] = hashes
        if errors:
            raise SearchIndexError("; ".join(errors))
        if self.hidden and DELTA in self.pages:
            # a page whose indexed text is unchanged has the same id in both: keep it shown
            fresh = {n.removeprefix("fragment/").removesuffix(".pf_fragment")
                     for n in self._hashes[DELTA] if n.startswith("fragment/")}
            self.hidden = [i for i in self.hidden if i not in fresh]

    def reading(self, urls) -> dict:
        """What the browser merges (the game's search.json): the bundles' folders, main
        first, and the ids of the main bundle's results to leave out; after `finish`."""
        return {"bundles": [urls.bundle(name) for name in bundles() if name in self.pages],
                "hidden": self.hidden}

    def files(self) -> list[tuple[str, str]]:
        """Each file of the bundles as the next `swap` leaves them (site path, hash of its
        bytes); call it after `finish`."""
        return [(f"{name}/{path}", digest) for name in bundles() if name in self.pages
                for path, digest in by_key(self._hashes[name]).items()]

    def swap(self) -> list[str]:
        """Put the new bundles in the site, remove those without pages now; returns the
        bundles that were indexed."""
        for name in set(bundles()) - set(self.pages):
            if (self.site / name).exists():
                shutil.rmtree(self.site / name, ignore_errors=True)
                changed(self.site / name)
        for name in self.jobs:
            if (self.site / name).exists():
                os.replace(self.site / name, self.work / name / "old")
            os.replace(self.work / name / "out", self.site / name)
            changed(self.site / name)
        state = {name: {"pages": self.pages[name], "files": self._hashes[name]}
                 for name in self.pages}
        if MAIN in state and MAIN not in self.jobs and self.main_ids is not None:
            state[MAIN]["ids"] = self.main_ids  # found once for the main bundle's life
        # one line: json's C encoder, not the Python one an indent takes (every page's hash)
        data = json.dumps(state, separators=(",", ":"), sort_keys=True)
        write_kept(self.site / STATE, state, data.encode())
        return [name for name in bundles() if name in self.jobs]

    def _last(self, name: str) -> dict | None:
        """The last build's record of the bundle, while the site has every file it had (a
        later build removes an output whose bytes are not those recorded)."""
        last = self.state.get(name)
        if not isinstance(last, dict):
            return None
        pages, files = last.get("pages"), last.get("files")
        if not (isinstance(pages, dict) and isinstance(files, dict) and files):
            return None
        folders = _folders(name, files)
        if folders is not None and _files_under(self.site / name, folders).issuperset(files):
            return last
        return None

    def close(self) -> None:
        for job in self.jobs.values():
            job.close()
        shutil.rmtree(self.work, ignore_errors=True)

    def _view(self, name: str, paths) -> Path:
        """A folder of the cut pages of one bundle, for Pagefind to index: hard links to the
        cuts the render workers wrote, the other pages cut from their files here."""
        view = f"{self.work}/{name}/site"
        os.makedirs(view)
        for path in paths:
            made, target = f"{self.cuts}/{path}", f"{view}/{path}"
            if not os.path.isfile(made):
                with open(self.source(path), encoding="utf-8") as page:
                    _write(made, cut(page.read()))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            try:
                os.link(made, target)
            except OSError:
                shutil.copyfile(made, target)
        return Path(view)

    def _made(self, name: str, pages) -> tuple[str | None, dict[str, str], dict]:
        """Index the bundle's `pages` into work/<name>/out and check the bundle is whole: (an
        error, or None and each of its files' hash; and the reference scripts the check
        used)."""
        scripts = threading.Thread(target=search_whole.prefetch)  # needed for the check
        scripts.start()
        error = self._index(name, self._view(name, pages))
        scripts.join()  # before the renumbering forks workers
        if error:
            return error, {}, {}
        folder = self.work / name / "out"
        canonicalize(folder)
        for unused in UNUSED:
            (folder / unused).unlink(missing_ok=True)
        try:
            reference = search_whole.reference()
        except Exception as exc:  # the service failed to start: the check cannot be made
            return f"pagefind's service: {exc}", {}, {}
        found, hashes = search_whole.checked(folder, reference, fork=True)
        if found:
            return (f"the search index {name}/ that Pagefind wrote is incomplete (a full "
                    "disk?): " + "; ".join(found[:5])), {}, reference
        return None, hashes, reference

    def _index(self, name: str, view: Path) -> str | None:
        """Run Pagefind over the pages in `view` into work/<name>/out; returns an error."""
        out = self.work / name / "out"
        # every searched page's indexed part is its <main> (base.html), which is all a cut
        # page holds: Pagefind told so finds it without looking further
        cmd = [
            *self.pagefind, "--site", str(view), "--output-path", str(out),
            "--silent", "--force-language", "en", "--include-characters", ".",
            "--root-selector", "main",
        ]
        threads = os.cpu_count() or 1
        env = {**os.environ, "RAYON_NUM_THREADS": str(threads)}
        result = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
        shutil.rmtree(view, ignore_errors=True)  # here, while the build goes on, not after it
        if result.returncode != 0 or not (out / "pagefind.js").is_file():
            return f"pagefind failed for {name}: {(result.stderr or result.stdout).strip()}"
        return None


def _write(path: str, data: bytes) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(data)


def _ids(bundle: Path) -> dict[str, str]:
    """Each page's id in a bundle (its fragment's name), by site path, from the fragments."""
    found = {}
    for fragment in (bundle / "fragment").glob("*.pf_fragment"):
        data = gzip.decompress(fragment.read_bytes())
        url = json.loads(data[len(SIGNATURE):])["url"]
        path = url.lstrip("/") + "index.html" if url.endswith("/") else url.lstrip("/")
        found[path] = fragment.name.removesuffix(".pf_fragment")
    return found


def _pagefind() -> list[str]:
    """The Pagefind binary the PyPI package ships, run directly: `python -m pagefind` costs
    an interpreter start (about 70 ms) per bundle."""
    try:
        from pagefind.service import get_executable
    except ImportError:
        return [sys.executable, "-m", "pagefind"]
    found = get_executable()
    return [str(found)] if found else [sys.executable, "-m", "pagefind"]
