"""A killed build's forked workers end with it: left running, they would hold the build's lock
(inherited through fork) and keep the next build waiting."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl is Linux's")

# Each worker notes its pid in the folder given, then waits far longer than the test.
WORKERS = {
    "render pool": """
        from charnel.site import parallel
        parallel.render_all(note_and_wait, list(range(4)), batch=1, threshold=0)
    """,
    "work aside": """
        from charnel import forked
        aside = forked.Aside(note_and_wait, 0)
        note_and_wait(0)
    """,
    "parse pool": """
        from charnel.sources import parallel
        def chunk(span):
            note_and_wait(span)
        parallel._parse_chunk = chunk
        list(parallel.parse_documents([("a.yaml", "a: 1")] * 4000, None, workers=2))
    """,
}


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has ended; only its parent's wait is missing


@pytest.mark.parametrize("kind", sorted(WORKERS))
def test_workers_end_when_the_process_that_forked_them_is_killed(kind, tmp_path):
    script = "import os, sys, time\n" + textwrap.dedent("""
        def note_and_wait(_):
            (__import__("pathlib").Path(sys.argv[1]) / str(os.getpid())).touch()
            time.sleep(600)
    """) + textwrap.dedent(WORKERS[kind])
    parent = subprocess.Popen([sys.executable, "-c", script, str(tmp_path)])
    try:
        deadline = time.monotonic() + 120
        while not [p for p in tmp_path.iterdir() if int(p.name) != parent.pid]:
            assert parent.poll() is None, "the script ended before its workers started"
            assert time.monotonic() < deadline, "no worker started"
            time.sleep(0.05)
        workers = [int(p.name) for p in tmp_path.iterdir() if int(p.name) != parent.pid]
    finally:
        parent.kill()
        parent.wait()
    deadline = time.monotonic() + 60
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [pid for pid in workers if _alive(pid)]
    for pid in left:
        os.kill(pid, 9)
    assert left == [], f"workers still running after their parent was killed: {left}"
