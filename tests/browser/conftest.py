"""Chromium (Debian's, at /usr/bin/chromium) driven by Playwright against the built site.

The site is served by a threaded http.server on 127.0.0.1 with an OS-chosen port. Without
Chromium these tests skip locally and fail in CI (CI=true), where a skip would hide a gap.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from projects import made_once  # noqa: E402
from site_fixtures import GAME, build_duel  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "build" / "test-artifacts"


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the stdlib's parameter name
        pass


# Module scope, not session: Playwright's sync API keeps an event loop on the main thread and
# the server a thread, and neither may outlive these tests (later tests fork and run asyncio).
@pytest.fixture(scope="module")
def site_dir(built_site) -> Path:
    """The folder of the whole built site: the one build the test modules that only read it
    share (tests/conftest.py)."""
    return built_site[1].parent


@pytest.fixture(scope="session")
def duel_project(tmp_path_factory) -> Path:
    """A copy of the toy game's project with its database and site built (its site under
    build/site/), made once per run; read only."""
    return made_once(tmp_path_factory, "duel-site", build_duel)


@pytest.fixture(scope="module")
def site_root(site_dir):
    """The URL the whole site is served at."""
    with serving(site_dir) as url:
        yield url


@contextlib.contextmanager
def serving(folder: Path, port: int = 0):
    """`folder` served on 127.0.0.1 (an OS-chosen port unless given) while in the block."""
    handler = functools.partial(QuietHandler, directory=str(folder))
    server = ThreadingHTTPServer(("127.0.0.1", port), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def site_url(site_root):
    """The URL of the game's folder of the site."""
    return f"{site_root}/{GAME}"


class Chromium:
    """The browser as the tests open it: each context a reader's visit without the game's
    offline copy, which a page open ten seconds starts (sw.js then fetches every file of the
    game from the test's server, and under load the pages a test waits for queue behind it).
    The offline copy's own test asks for it (`service_workers="allow"`)."""

    def __init__(self, browser):
        self._browser = browser

    def new_context(self, **options):
        options.setdefault("service_workers", "block")
        return self._browser.new_context(**options)

    def __getattr__(self, name):
        return getattr(self._browser, name)


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        message = f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        executable = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
        browser = playwright.chromium.launch(executable_path=executable, args=FLAGS)
        yield Chromium(browser)
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
