"""What running an example can raise: the rules refusing an action, or the example itself
being wrong. Every game's engine raises these; the runner turns them into results."""

from __future__ import annotations

from collections.abc import Iterable


class Illegal(Exception):
    """An action the rules refuse; `reason` is the short code examples expect."""

    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.reason = reason
        self.message = message


class ExampleError(Exception):
    """The example itself is wrong (unknown name, bad field): reported at `path` in its body,
    at the key there when the key itself is the mistake."""

    def __init__(self, path: tuple, message: str, *, key: bool = False):
        super().__init__(message)
        self.path = path
        self.message = message
        self.key = key or message.startswith("unknown ")  # a wrong name: point at it


def reject_unknown(
    written: Iterable, known: Iterable, path: tuple, what: str, where: str = ""
) -> None:
    """An example names a field its place does not have: point at the first such name."""
    known = set(known)
    unknown = sorted(set(written) - known)
    if unknown:
        raise ExampleError(
            (*path, unknown[0]),
            f"unknown {what} '{unknown[0]}'{where} (known: {', '.join(sorted(known))})",
        )
