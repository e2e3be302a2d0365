"""Problems found in authored files, reported as `path:line:col: message` with the line shown.

Every stage appends to one `Problems` list instead of raising, so a single run reports
everything that is wrong. Only the CLI decides how to print them and what exit status to use.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

TAB = 4
# Control characters (C0 but tab, DEL, C1), shown as \x1b: a file name, message or source
# line never sends an escape sequence to the terminal that prints it.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    return _CONTROL.sub(lambda m: f"\\x{ord(m[0]):02x}", text)


def excerpt(text: str, most: int = 80) -> str:
    """Input quoted in a message: control characters escaped, and at most `most` characters
    of it (a name of a megabyte is not echoed whole)."""
    text = printable(text)
    return text if len(text) <= most else f"{text[:most]}… ({len(text):,} characters)"


@dataclass(frozen=True, order=True)
class Origin:
    """Where a record or value came from: 1-based line and column."""

    path: str
    line: int = 1
    col: int = 1

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"

    def at(self, line: int, col: int = 1) -> Origin:
        return Origin(self.path, line, col)


@dataclass(frozen=True, order=True)
class Problem:
    origin: Origin
    message: str
    detail: str = ""  # extra lines shown under the source line (a diff, a hint)

    def render(self, root: Path | None = None) -> str:
        where = printable(str(self.origin)).replace("\n", "\\x0a")
        lines = [f"{where}: {printable(self.message)}"]
        source = _source_line(self.origin, root)
        if source is not None:
            gutter = f"{self.origin.line:>5} | "
            # tabs are widened here, not by the terminal, so the caret stays under its column
            caret = len(printable(source[: max(self.origin.col - 1, 0)]).expandtabs(TAB))
            lines.append(gutter + printable(source).expandtabs(TAB))
            lines.append(" " * (len(gutter) + caret) + "^")
        if self.detail:
            lines.extend("      " + printable(d) for d in self.detail.splitlines())
        return "\n".join(lines)


def _source_line(origin: Origin, root: Path | None) -> str | None:
    path = Path(origin.path)
    if root is not None and not path.is_absolute():
        path = root / path
    if not path.is_file():  # a FIFO would never answer
        return None
    try:
        st = path.stat()
        lines = _lines(str(path), st.st_size, st.st_mtime_ns)
    except OSError:
        return None
    if not 1 <= origin.line <= len(lines):
        return None
    text = lines[origin.line - 1].decode("utf-8", errors="replace").rstrip("\r\n")
    return text if len(text) <= 200 else text[:200] + " …"


@lru_cache(maxsize=2)
def _lines(path: str, size: int, mtime_ns: int) -> list[bytes]:
    """A file's lines, read once for all its problems (reading up to each problem's line
    made 20,000 problems in one file quadratic). Size and time key the cache."""
    with open(path, "rb") as fh:
        return fh.readlines()


@dataclass
class Problems:
    """An ordered collection of problems; stages add to it and keep going."""

    items: list[Problem] = field(default_factory=list)

    def add(self, origin: Origin, message: str, detail: str = "") -> None:
        self.items.append(Problem(origin, message, detail))

    def extend(self, other: Problems) -> None:
        self.items.extend(other.items)

    def __bool__(self) -> bool:
        return bool(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self):
        return iter(self.sorted())

    def sorted(self) -> list[Problem]:
        return sorted(set(self.items))

    def summary(self) -> str:
        files = len({p.origin.path for p in self.items})
        noun = "problem" if len(self.items) == 1 else "problems"
        where = "file" if files == 1 else "files"
        return f"{len(self.items)} {noun} in {files} {where}"


class InputError(Exception):
    """Raised by a stage that cannot go on; carries every problem found so far."""

    def __init__(self, problems: Problems):
        super().__init__(problems.summary())
        self.problems = problems


def nearest(name: str, names: list[str], n: int = 3) -> list[str]:
    """The names most like `name` (case aside), most alike first; none when nothing is close."""
    by_lower: dict[str, str] = {}
    for each in sorted(names):
        by_lower.setdefault(each.lower(), each)
    close = difflib.get_close_matches(name.lower(), list(by_lower), n=n, cutoff=0.75)
    return [by_lower[c] for c in close]
