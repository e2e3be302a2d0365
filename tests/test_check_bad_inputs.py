"""Every bad-input case of the core's list (badinput.CORE), on the toy game's project: all
problems in one run, each named by file, line and column with the line shown, exit status 1,
no traceback, and the database of the previous good build left byte for byte as it was."""

from __future__ import annotations

from pathlib import Path

import pytest
from badinput import built, cases, reported
from projects import DUEL

CASES = cases()


def test_the_fixture_file_has_cases():
    assert len(CASES) >= 15
    assert all(case.expected and (case.files or case.specials) for case in CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_input(case, tmp_path: Path):
    reported(case, built(tmp_path, DUEL))
