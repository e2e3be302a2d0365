"""The game's pages in Chromium, on the same browser, site and server fixtures as the core's."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # tests/
from browser.conftest import (  # noqa: E402,F401
    artifacts,
    browser,
    page,
    serving,
    site_dir,
    site_root,
    site_url,
)
