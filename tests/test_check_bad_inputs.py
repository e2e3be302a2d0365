"""Every bad-input case of bad_inputs.txt: all problems in one run, each named by
file, line and column with the line shown, exit status 1, no traceback, and the database of
the previous good build left byte for byte as it was."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from badinput import cases, located
from projects import SMALL, copy_project
from typer.testing import CliRunner

from charnel.cli import app
from charnel.diagnostics import printable

CASES = cases()


def run(*args: str):
    return CliRunner().invoke(app, list(args))


@pytest.fixture
def built(tmp_path: Path) -> Path:
    """A copy of the fixture project with a good build in build/."""
    copy_project(tmp_path, SMALL)
    result = run(
        "build",
        "--root",
        str(tmp_path),
        "--out",
        str(tmp_path / "build"),
        "--no-site",
        "--no-print",
    )
    assert result.exit_code == 0, result.output
    return tmp_path


def test_the_fixture_file_has_cases():
    assert len(CASES) >= 15
    assert all(case.expected and (case.files or case.specials) for case in CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_input(case, built: Path):
    (database,) = (built / "build").glob("*.db")  # the fixture project's one game
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
