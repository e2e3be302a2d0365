"""Reading bad_inputs.txt (beside the small project, in `projects.FIXTURES`): cases of broken
files and the problems they cause."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from projects import FIXTURES

LOCATED = re.compile(r"^(?P<path>[^:\s]+):(?P<line>\d+):(?P<col>\d+): (?P<message>.+)$")
CHARACTER = re.compile(r"<U\+([0-9A-F]{4})>")  # a character a text file cannot show, by number


@dataclass
class Case:
    name: str
    line: int
    files: dict[str, str | None] = field(default_factory=dict)  # None deletes the file
    expected: list[str] = field(default_factory=list)
    specials: list[tuple[str, str, str]] = field(default_factory=list)  # (kind, path, target)

    def apply(self, root: Path) -> None:
        for rel, text in self.files.items():
            path = root / rel
            if text is None:
                path.unlink()
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                text = CHARACTER.sub(lambda m: chr(int(m[1], 16)), text)
                path.write_text(text, encoding="utf-8", newline="")
        for kind, rel, target in self.specials:
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            if kind == "fifo":
                os.mkfifo(path)
            else:
                path.symlink_to(target)


def cases(name: str = "bad_inputs.txt") -> list[Case]:
    out: list[Case] = []
    target: str | None = None  # the file being written, or None while reading expectations
    for number, line in enumerate((FIXTURES / name).read_text("utf-8").splitlines(), 1):
        if line.startswith("=== "):
            out.append(Case(line[4:].strip(), number))
            target = None
        elif not out:
            continue
        elif line.startswith("<<< "):
            target = line[4:].strip()
            out[-1].files[target] = ""
        elif line.startswith("xxx "):
            out[-1].files[line[4:].strip()] = None
            target = None
        elif line.startswith(("fifo ", "link ")):
            # "fifo <path>" makes a FIFO; "link <path> <target>" a symbolic link
            kind, rel, *to = line.split()
            out[-1].specials.append((kind, rel, to[0] if to else ""))
            target = None
        elif line.rstrip() == ">>>":
            target = None
        elif target is not None:
            out[-1].files[target] += line + "\n"
        elif line.strip() and not line.startswith("#"):
            out[-1].expected.append(line.strip())
    return out


def located(lines: list[str]) -> list[tuple[str, int, int, str]]:
    """(path, line, col, message) of every `path:line:col: message` line of an error report."""
    return [
        (m["path"], int(m["line"]), int(m["col"]), m["message"])
        for m in map(LOCATED.match, lines)
        if m
    ]
