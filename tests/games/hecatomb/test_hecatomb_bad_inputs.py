"""Every case of Hecatomb's own list of bad inputs (fixtures/bad_inputs.txt, written for its
small project): keywords, effect timings and the other checks only Hecatomb has, reported as
the core reports its own (badinput.reported), and read the same in worker processes."""

from __future__ import annotations

from pathlib import Path

import pytest
from badinput import built, cases, reported
from projects import copy_project, only_game
from test_load_parallel import _same

FIXTURES = Path(__file__).parent / "fixtures"
PROJECT = FIXTURES / "project"
CASES = cases(FIXTURES / "bad_inputs.txt")


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_input(case, tmp_path: Path):
    reported(case, built(tmp_path, PROJECT))


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_input_reads_the_same_in_workers(case, tmp_path: Path, monkeypatch):
    case.apply(copy_project(tmp_path, PROJECT))
    _same(tmp_path, monkeypatch, only_game(PROJECT))
