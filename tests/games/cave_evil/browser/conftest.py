"""The game's pages in Chromium, on the same browser and server fixtures as the core's."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # tests/
from browser.conftest import QuietHandler, artifacts, browser, page, serving  # noqa: E402,F401
