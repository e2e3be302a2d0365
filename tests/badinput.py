"""Reading a list of bad inputs (the core's, tests/fixtures/bad_inputs.txt, is written for the
toy game's project; a game may keep one of its own): cases of broken files and the problems
they cause."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from projects import REPO, copy_project

from charnel.diagnostics import printable

CORE = REPO / "tests" / "fixtures" / "bad_inputs.txt"  # for projects.DUEL

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


def cases(path: Path = CORE) -> list[Case]:
    out: list[Case] = []
    target: str | None = None  # the file being written, or None while reading expectations
    for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
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


def run(*args: str):
    from typer.testing import CliRunner

    from charnel.cli import app

    return CliRunner().invoke(app, list(args))


def built(root: Path, project: Path) -> Path:
    """A copy of `project` at `root` with a good build in build/ (its database only)."""
    copy_project(root, project)
    result = run("build", "--root", str(root), "--out", str(root / "build"),
                 "--no-site", "--no-print")
    assert result.exit_code == 0, result.output
    return root


def reported(case: Case, built: Path) -> None:
    """`case` applied to a `built` project: a build reports every expected problem at its place
    with its line shown, exits 1 without a traceback, and keeps the previous database."""
    (database,) = (built / "build").glob("*.db")  # the project's one game
    before = database.read_bytes()
    case.apply(built)

    result = run(
        "build", "--root", str(built), "--out", str(built / "build"), "--no-site", "--no-print"
    )

    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    report = result.stderr.splitlines()
    assert "Traceback" not in result.output
    found = located(report)
    for want in case.expected:
        path, line, col, message = located([want])[0]
        hits = [i for i, f in enumerate(found) if f[:3] == (path, line, col) and message in f[3]]
        assert hits, f"{case.name}: expected {want!r}; got:\n{result.stderr}"
        # the offending line is shown under the message, from the file itself
        if not (built / path).is_file():  # a FIFO, a folder: nothing to show
            continue
        source = (built / path).read_text("utf-8", errors="replace").split("\n")
        if source[-1] == "":  # the end of the last line, or an empty file
            source.pop()
        if line <= len(source):
            head = report.index(next(r for r in report if r.startswith(f"{path}:{line}:{col}: ")))
            shown = printable(source[line - 1].rstrip("\r")).expandtabs(4)
            assert report[head + 1] == f"{line:>5} | " + shown
    # no control character reaches the terminal: the report shows them escaped
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", result.stderr)
    files = {f[0] for f in found}
    noun = "problem" if len(found) == 1 else "problems"
    assert report[-1].startswith(f"error: {len(found)} {noun} in {len(files)} file")
    assert database.read_bytes() == before, "a failed build changed the previous database"
