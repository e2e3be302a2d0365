"""Run the assembled app with uvicorn in the foreground until Ctrl-C.

With one worker the app is built here and handed to uvicorn. With several, each worker
process (see `charnel.serve.workers`) imports `worker_app`: the parent writes the configuration, the
inspect file and a spec naming them once, and every worker builds its own app from those
(the databases are immutable, so workers share nothing but the files).
"""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Callable
from pathlib import Path

import uvicorn

from charnel import registry
from charnel.serve import workers as workers_module
from charnel.serve.app import PREFIX, application, make_datasette
from charnel.serve.live import Live

SPEC_ENV = "CHARNEL_SERVE_SPEC"
CACHE_MB = 64


def port_problem(host: str, port: int) -> str | None:
    """Why the server could not listen on host:port, checked before a build of several
    seconds; None when it can (the same options uvicorn binds with)."""
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return f"port {port} on {host} is in use; stop what uses it or pick --port"
            return f"cannot listen on {host}:{port}: {exc.strerror or exc}"
    return None


def serve(
    databases: dict[str, Path],
    out_dir: Path,
    *,
    host: str = "127.0.0.1",
    port: int = 8001,
    public: bool = False,
    workers: int = 1,
    cache_mb: int = CACHE_MB,
    root: Path | None = None,
    echo: Callable[[str], None] = print,
    live: Live | None = None,
) -> None:
    """Serve until Ctrl-C. `live` (one worker only): the site's pages reload when rebuilt."""
    site_dir = out_dir / "site"
    has_site = (site_dir / "index.html").is_file()
    work_dir = out_dir / "datasette"
    spec = {
        "databases": {g: str(p) for g, p in sorted(databases.items())},
        "work_dir": str(work_dir),
        "site_dir": str(site_dir) if has_site else None,
        "public": public,
        "cache_bytes": cache_mb * 1024 * 1024,
        "root": str(root) if root is not None else None,
    }

    def remake():
        return make_datasette(databases, work_dir, public=public, site=has_site)

    datasette = remake()
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
    if has_site and root is not None:
        for game_id in sorted(g for g in databases if registry.get(g).has_engine):
            echo(f"judge:     {base}/{game_id}/judge/")
    cache = f"response cache {cache_mb} MB per worker" if cache_mb > 0 else "no response cache"
    processes = f"{workers} worker process" + ("es" if workers > 1 else "")
    echo(f"{processes}, {cache}. Ctrl-C stops the server.")
    options = {
        "host": host,
        "port": port,
        "log_level": "warning",
        "access_log": False,
        "lifespan": "on",
    }
    if live is not None:
        # the pages' open event streams would hold Ctrl-C up for as long as they last
        options["timeout_graceful_shutdown"] = 1
    if workers <= 1:
        site = site_dir if has_site else None
        app = application(
            datasette, site, cache_bytes=spec["cache_bytes"], remake=remake, root=root,
            public=public, live=live,
        )
        uvicorn.run(app, **options)
        return
    spec_path = work_dir / "serve.json"
    spec_path.write_text(json.dumps(spec, indent=2, sort_keys=True) + "\n")
    os.environ[SPEC_ENV] = str(spec_path)
    sockets = workers_module.listening_sockets(host, port, workers)
    status = workers_module.run("charnel.serve.run:worker_app", sockets, options)
    if status:
        raise SystemExit(status)


def worker_app():
    """The app of one worker process, from the spec its parent wrote (see `serve`)."""
    spec = json.loads(Path(os.environ[SPEC_ENV]).read_text())
    work_dir = Path(spec["work_dir"])
    site_dir = Path(spec["site_dir"]) if spec["site_dir"] else None
    databases = {g: Path(p) for g, p in spec["databases"].items()}

    def remake(inspect_data: dict | None = None):
        return make_datasette(
            databases,
            work_dir,
            public=spec["public"],
            site=site_dir is not None,
            inspect_data=inspect_data,
        )

    datasette = remake(json.loads((work_dir / "inspect.json").read_text()))
    root = Path(spec["root"]) if spec["root"] else None
    return application(
        datasette, site_dir, cache_bytes=spec["cache_bytes"], remake=remake, root=root,
        public=spec["public"],
    )
