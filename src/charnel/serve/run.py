"""Run the assembled app with uvicorn in the foreground until Ctrl-C."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import uvicorn

from charnel.serve.app import PREFIX, application, make_datasette


def site_builder_available() -> bool:
    """Whether this install can build the static site (its module may be absent)."""
    try:
        from charnel.site import build_site  # noqa: F401
    except ImportError:
        return False
    return True


def serve(
    databases: dict[str, Path],
    out_dir: Path,
    *,
    host: str = "127.0.0.1",
    port: int = 8001,
    public: bool = False,
    echo: Callable[[str], None] = print,
) -> None:
    site_dir = out_dir / "site"
    has_site = (site_dir / "index.html").is_file()
    datasette = make_datasette(databases, out_dir / "datasette", public=public, site=has_site)
    app = application(datasette, site_dir if has_site else None)
    base = f"http://{host}:{port}"
    if has_site:
        echo(f"site:      {base}/")
    else:
        echo(
            f"no site at {site_dir} (build it with `charnel build --site`); serving Datasette alone"
        )
    echo(f"datasette: {base}{PREFIX}" + ("  (public: arbitrary SQL is off)" if public else ""))
    for game_id in sorted(databases):
        echo(f"search:    {base}{PREFIX}{game_id}/-/search")
    echo("Ctrl-C stops the server.")
    uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False, lifespan="on")
