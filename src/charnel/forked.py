"""Forked workers, which end with the process that forked them, and work aside in a process
of its own (`Aside`).

A fork inherits every open file, the build's lock among them (`outputs.locked`): a worker
that outlived a killed build would hold that lock and keep the next build waiting for good.
On Linux the kernel kills such a worker when its parent dies (prctl's PR_SET_PDEATHSIG); a
worker whose parent died before it could ask ends at once.
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable
from typing import Any

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


class Aside:
    """fn(*args) in a forked process, run on the other core while this one renders; result()
    waits for it and raises what it raised. In this process on one core. close() ends the
    process (always call it). A bare process and a pipe, not a pool: a pool keeps threads in
    this process, and forking the render workers beside threads can deadlock them."""

    def __init__(self, fn: Callable[..., Any], *args: Any, nice: int = 10):
        self._call = functools.partial(fn, *args)
        self._process = None
        if (os.cpu_count() or 1) < 2 or "fork" not in multiprocessing.get_all_start_methods():
            return
        context = multiprocessing.get_context("fork")
        self._receive, send = context.Pipe(duplex=False)
        # with fork, the call is inherited by the child, not pickled
        # not a daemon, which could not start processes of its own (the search index's
        # checks do); close() ends it whatever happens
        self._process = context.Process(target=_run_aside,
                                        args=(self._call, send, nice, os.getpid()))
        self._process.start()
        send.close()

    def lower(self, nice: int) -> None:
        """Lower the process's priority by `nice` (once the caller knows its own work is
        large enough to want both cores)."""
        if self._process is not None and self._process.is_alive():
            try:
                os.setpriority(os.PRIO_PROCESS, self._process.pid,
                               os.getpriority(os.PRIO_PROCESS, self._process.pid) + nice)
            except OSError:  # ended meanwhile
                pass

    def result(self) -> Any:
        if self._process is None:
            return self._call()
        try:
            ok, value = self._receive.recv()
        except EOFError:
            raise RuntimeError(f"the work aside ended with code {self._process.exitcode}") from None
        if not ok:
            raise value
        return value

    def close(self) -> None:
        if self._process is not None:
            if self._process.is_alive():
                self._process.terminate()
            self._process.join()
            self._receive.close()


def _run_aside(call: Callable[[], Any], send, nice: int, parent: int) -> None:
    end_with_parent(parent)
    os.nice(nice)  # the downloads yield the cores to the build's main line and its search index
    try:
        send.send((True, call()))
    except BaseException as exc:  # noqa: BLE001 - every failure goes back to the caller
        try:
            send.send((False, exc))
        except Exception:  # noqa: BLE001 - an exception that cannot be pickled
            send.send((False, RuntimeError(repr(exc))))
