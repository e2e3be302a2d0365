"""The sources watched under `charnel serve --watch`, and the site rebuilt when one is saved.

watchfiles reports the changes under cards/, rules/ and releases/ in batches; each batch is
one `charnel build` of the databases and the site (`pipeline.build_all`: one transaction,
so a build that fails leaves the previous outputs served); the few pages it renders first
(the saved card's, say) are shown before it commits (`Live.preview`). One build runs at a time, in a
thread of its own: what is saved while it runs waits, gathered with every other change, for
the one build after it. Each build's outcome goes to the open pages (`charnel.serve.live`).
What the last build loaded is kept in this process (`charnel.memo`) and given back for the
files a save left as they were.

The PDFs are not laid out here: they take minutes, and the next save would wait for them.
"""

from __future__ import annotations

import gc
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path

import watchfiles

from charnel import outputs, pipeline
from charnel.diagnostics import InputError, Problems
from charnel.memo import Memo
from charnel.serve.live import Live
from charnel.sources import files

WATCHED = ("cards", "rules", "releases")
STEP_MS = 50  # quiet after a change before the build starts: an editor's save is one batch
DEBOUNCE_MS = 1600  # longest a stream of changes is gathered before a build starts anyway
# quiet this long after a build before its garbage is collected: the collection holds the
# interpreter's lock (a third of a second at 10,000 cards), which the open pages' reloads
# would otherwise wait for
IDLE_MS = 1000


class Rebuilder:
    """Builds `root`'s games into `out_dir` whenever their sources change, until `stop`."""

    def __init__(
        self,
        root: Path,
        game_ids: list[str] | None,
        out_dir: Path,
        live: Live,
        echo: Callable[[str], None],
        report: Callable[[Problems], None],
    ):
        self.root, self.game_ids, self.out_dir = root, game_ids, out_dir
        self.live, self.echo, self.report = live, echo, report
        self.folders = [root / name for name in WATCHED if (root / name).is_dir()]
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._watch, name="charnel-watch", daemon=True)
        self.garbage = False  # a build's objects are left for the collector
        # what the last build loaded, reused by content: a save validates only what it changed
        self.memo = Memo()

    def start(self) -> None:
        self.echo("watching " + ", ".join(f"{p.name}/" for p in self.folders)
                  + ": a saved file rebuilds the databases and the site")
        self.thread.start()

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(timeout=5)  # a build under way dies with the process, as a kill

    def _watch(self) -> None:
        for changes in watchfiles.watch(
            *self.folders, stop_event=self.stopping, step=STEP_MS, debounce=DEBOUNCE_MS,
            raise_interrupt=False, rust_timeout=IDLE_MS, yield_on_timeout=True,
        ):
            if not changes:  # nothing saved for IDLE_MS
                if self.garbage:
                    self.garbage = False
                    gc.collect()
                    # the next build's generation made the same as the visible one now, not
                    # after the next save (`outputs.ready`)
                    outputs.ready(self.out_dir)
                continue
            # an editor's temporary files come and go within the batch: named only if there
            names = sorted({Path(path).name for _, path in changes if Path(path).exists()})
            if names:
                self.echo(f"saved: {', '.join(names[:3])}" + (" …" if len(names) > 3 else ""))
            self.build()

    def build(self, stages: pipeline.Stages | None = None) -> None:
        """Build once and tell the pages; never raises (the watching goes on). `stages`:
        progress shown per game (the first build's)."""
        start = time.perf_counter()
        problems: list[str] = []
        summary = ""
        try:
            results = pipeline.build_all(
                self.root, self.game_ids or files.game_ids(self.root), self.out_dir,
                whole=not self.game_ids, site=True, stages=stages, notice=self.echo,
                memo=self.memo, preview=self.live.preview,
            )
        except InputError as exc:
            self.report(exc.problems)
            problems = [p.render(self.root) for p in exc.problems]
            summary = exc.problems.summary()
        except pipeline.BuildFailed as exc:
            self.echo(f"error: {exc}")
            problems, summary = [str(exc)], "the outputs could not be written"
        except Exception as exc:  # a fault of charnel's, not of the sources: said, not fatal
            traceback.print_exc()
            problems, summary = [f"{type(exc).__name__}: {exc}"], "charnel stopped with an error"
        changed = self.live.publish(problems, summary)
        took = time.perf_counter() - start
        if problems:
            self.echo(f"build failed in {took:.2f} s; the pages show the problems")
        elif all(r.up_to_date for r in results):
            self.echo(f"up to date ({took:.2f} s)")
        else:
            pages = sum(1 for rel in changed if rel.endswith(".html"))
            self.echo(f"rebuilt in {took:.2f} s: {pages} page(s) changed")
        # A build freezes what it loads (gc.freeze), as a process that ends after it may; this
        # one lives on, so the last build's objects go back to the collector, which the watch
        # runs once nothing is saved for a moment (IDLE_MS).
        gc.unfreeze()
        self.garbage = True
