"""`charnel serve --watch` in Chromium: a saved card file reaches the open card page with no
reload by hand; a broken one puts its located problem on the page, as text; the fix clears it."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest
from projects import DUEL, copy_project

from charnel.sources.files import game_ids

pytestmark = pytest.mark.browser
GAME = game_ids(DUEL)[0]  # the toy game
CARD = f"cards/{GAME}/embers/cinder-knight.yaml"
PAGE = f"/{GAME}/cards/cinder-knight/"
WAIT_MS = 90_000  # a rebuild on two busy cores


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5):
            return True
    except OSError:
        return False


@pytest.fixture(scope="module")
def watched(tmp_path_factory):
    """(project folder, URL) of `charnel serve --watch` over a copy of the toy game's project."""
    project = copy_project(tmp_path_factory.mktemp("watch-project"), DUEL)
    port = _free_port()
    log = (project / "serve.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "charnel.cli", "serve", "--watch", "--root", str(project),
         "--out", str(project / "build"), "--host", "127.0.0.1", "--port", str(port)],
        cwd=project, stdout=log, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 300
    while not _answers(url + PAGE):
        assert server.poll() is None, (project / "serve.log").read_text()
        assert time.monotonic() < deadline, "the server never answered"
        time.sleep(0.2)
    yield project, url
    server.send_signal(signal.SIGINT)
    try:
        server.wait(30)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
    log.close()


def _save(path, text: str) -> None:
    """Write as an editor saves: a new file renamed over the old one."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, "utf-8")
    os.replace(tmp, path)


def test_saved_card_reaches_the_open_page_and_problems_show_until_fixed(page, watched):
    project, url = watched
    card = project / CARD
    original = card.read_text("utf-8")
    page.goto(url + PAGE)
    page.wait_for_selector("text=It lights its own way.")
    page.evaluate("window.notReloaded = true")

    edited = original.replace("It lights its own way.", "It lights the road uphill.")
    _save(card, edited)
    page.wait_for_selector("text=It lights the road uphill.", timeout=WAIT_MS)
    assert page.evaluate("window.notReloaded") is None  # the page reloaded by itself

    broken = edited.replace("might: 3", "might: <b>three</b>")
    _save(card, broken)
    panel = page.locator("#charnel-problems")
    panel.wait_for(timeout=WAIT_MS)
    said = panel.inner_text()
    line = broken.splitlines().index("might: <b>three</b>") + 1
    assert f"{CARD}:{line}:8: might:" in said, said
    assert "might: <b>three</b>" in said  # the line shown, as text
    assert panel.locator("b").count() == 0
    assert page.locator("text=It lights the road uphill.").count() == 1  # the last good page

    fixed = edited.replace("It lights the road uphill.", "It lights the road downhill.")
    _save(card, fixed)
    page.wait_for_selector("text=It lights the road downhill.", timeout=WAIT_MS)
    # the page is shown before its build ends; the problems go once it has
    panel.wait_for(state="detached", timeout=WAIT_MS)


def test_a_fix_that_changes_no_page_still_clears_the_problems(page, watched):
    project, url = watched
    card = project / CARD
    good = card.read_text("utf-8")
    page.goto(url + PAGE)
    _save(card, good.replace("might: 3", "might: many"))
    page.locator("#charnel-problems").wait_for(timeout=WAIT_MS)
    _save(card, good)  # back to the bytes of the pages served
    page.locator("#charnel-problems").wait_for(state="detached", timeout=WAIT_MS)


@pytest.mark.parametrize("source, path, old, new", [
    (f"rules/{GAME}/01-duellists.md", f"/{GAME}/rules/1-duellists/",
     "Two duellists play", "Two rivals play"),
    (f"rules/{GAME}/glossary.yaml", f"/{GAME}/glossary/blow/",
     "worth one die", "worth a single die"),
])
def test_a_saved_rule_or_glossary_file_reaches_its_open_page(page, watched, source, path,
                                                             old, new):
    project, url = watched
    page.goto(url + path)
    page.wait_for_selector(f"text={old}")
    file = project / source
    _save(file, file.read_text("utf-8").replace(old, new))
    page.wait_for_selector(f"text={new}", timeout=WAIT_MS)
