"""The PDFs laid out after `charnel serve` has started answering.

Laying out the PDFs takes many times what the databases and the site take, and a reader of
the site needs none of them to start. So `charnel serve` builds the databases and the site
first (one transaction), starts serving, and runs a whole `charnel build` beside the server:
a second transaction, at low priority, which lays out the PDFs and makes the site's print
pages link them (until then they say the PDFs are being laid out). Stopping the server stops
that build; a killed build leaves the outputs as they were, and the next `charnel serve` or
`charnel build` lays the PDFs out.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

NICENESS = 10  # below the server, which answers readers meanwhile
TAIL = 20  # lines of a failed build's output shown


class PrintBuild:
    """A `charnel build` (database, site and PDFs) in a process of its own."""

    def __init__(self, root: Path, game_ids: list[str] | None, out_dir: Path,
                 echo: Callable[[str], None]):
        command = [sys.executable, "-m", "charnel.cli", "build", "--root", str(root),
                   "--out", str(out_dir)]
        for game_id in game_ids or ():
            command += ["--game", game_id]
        self.echo = echo
        # its progress lines would mix with the server's; what it says is shown if it fails
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                        text=True, errors="replace")
        try:
            os.setpriority(os.PRIO_PROCESS, self.process.pid, NICENESS)
        except OSError:  # not allowed here: it runs at the server's priority
            pass
        self.stopping = False
        self.watcher = threading.Thread(target=self._report, daemon=True)
        self.watcher.start()

    def _report(self) -> None:
        said = self.process.stderr.read() if self.process.stderr else ""
        status = self.process.wait()
        if self.stopping:
            return
        if status == 0:
            self.echo("PDFs: laid out; the print pages link them")
            return
        for line in said.strip().splitlines()[-TAIL:]:
            self.echo(line)
        self.echo(f"PDFs: not laid out (the build beside the server stopped with status "
                  f"{status}); `charnel build` lays them out")

    def stop(self) -> None:
        """Stop the build if it is still running (its outputs stay as they were)."""
        self.stopping = True
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
