"""Progress display for long commands: a rich status line per stage, on stderr."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console


@contextmanager
def stages(console: Console, label: str) -> Iterator:
    """Yields a function that names the current stage; shows a spinner while it runs."""
    with console.status(f"{label}: starting", spinner="dots") as status:
        yield lambda stage: status.update(f"{label}: {stage}")
