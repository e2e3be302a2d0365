"""Rendering pages in worker processes gives the same site as rendering them in one."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from site_fixtures import GAME, make_project

from charnel import forked, pipeline
from charnel.site import parallel


@pytest.fixture
def two_cores(monkeypatch):
    monkeypatch.setattr(parallel.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(parallel, "THRESHOLD", 1)
    monkeypatch.setattr(parallel, "BATCH", 3)


def test_results_come_back_in_item_order_from_other_processes(two_cores):
    results = parallel.render_all(lambda i: (i * i, os.getpid()), list(range(20)))
    assert [square for square, _ in results] == [i * i for i in range(20)]
    assert os.getpid() not in {pid for _, pid in results}


def test_small_jobs_stay_in_this_process(monkeypatch):
    monkeypatch.setattr(parallel.os, "cpu_count", lambda: 2)
    results = parallel.render_all(lambda i: os.getpid(), list(range(parallel.THRESHOLD - 1)))
    assert set(results) == {os.getpid()}


@pytest.mark.parametrize("fork", [True, False])
def test_work_meanwhile_runs_once_here_and_is_there_after(two_cores, fork):
    made: list[int] = []
    results = parallel.render_all(lambda i: (i, os.getpid()), list(range(20)), fork=fork,
                                  meanwhile=lambda: made.append(os.getpid()))
    assert made == [os.getpid()]  # in this process, once, whether the items were forked out
    assert [i for i, _ in results] == list(range(20))
    assert (os.getpid() in {pid for _, pid in results}) is not fork


def test_an_error_in_a_worker_reaches_the_caller(two_cores):
    def fail_on_seven(i):
        if i == 7:
            raise ValueError("item 7")
        return i

    with pytest.raises(ValueError, match="item 7"):
        parallel.render_all(fail_on_seven, list(range(20)))


def test_work_aside_runs_in_another_process_and_its_error_reaches_the_caller(two_cores):
    aside = forked.Aside(lambda a, b: (a + b, os.getpid()), 2, 3)
    try:
        total, pid = aside.result()
    finally:
        aside.close()
    assert total == 5 and pid != os.getpid()

    def fail():
        raise ValueError("aside broke")

    aside = forked.Aside(fail)
    try:
        with pytest.raises(ValueError, match="aside broke"):
            aside.result()
    finally:
        aside.close()


def test_no_worker_is_forked_when_asked_not_to(two_cores):
    results = parallel.render_all(lambda i: os.getpid(), list(range(20)), fork=False)
    assert set(results) == {os.getpid()}


def _site_files(project: Path, out: Path) -> dict[str, bytes]:
    pipeline.build(project, GAME, out, force=True, site=True)
    site = out / "site" / GAME
    return {p.relative_to(site).as_posix(): p.read_bytes()
            for p in sorted(site.rglob("*")) if p.is_file()}


def test_a_site_rendered_in_workers_equals_one_rendered_serially(tmp_path, monkeypatch):
    project = make_project(tmp_path / "p")
    monkeypatch.setattr(parallel, "THRESHOLD", 10**9)
    serial = _site_files(project, tmp_path / "serial")
    monkeypatch.setattr(parallel.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(parallel, "THRESHOLD", 1)
    monkeypatch.setattr(parallel, "BATCH", 2)
    pooled = _site_files(project, tmp_path / "pooled")
    assert any(name.startswith("cards/") for name in serial)
    assert sorted(pooled) == sorted(serial)
    assert [name for name in serial if pooled[name] != serial[name]] == []
