"""The static site as an ASGI app: files under build/site/, folders answered by index.html,
with validators, caching and compression (see `charnel.serve.static`)."""

from __future__ import annotations

from pathlib import Path

from charnel.serve.static import site_files


def static_site(root: Path):
    return site_files(root)
