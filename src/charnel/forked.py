"""Forked workers end with the process that forked them.

A fork inherits every open file, the build's lock among them (`outputs.locked`): a worker
that outlived a killed build would hold that lock and keep the next build waiting for good.
On Linux the kernel kills such a worker when its parent dies (prctl's PR_SET_PDEATHSIG); a
worker whose parent died before it could ask ends at once.
"""

from __future__ import annotations

import os
import signal
import sys

_PR_SET_PDEATHSIG = 1


def end_with_parent(parent: int) -> None:
    """Called first in a forked worker, with the pid of the process that forked it."""
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):  # no prctl in this C library: nothing to ask
            pass
    if os.getppid() != parent:
        os._exit(1)
