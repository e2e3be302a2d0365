"""An ASGI app served by uvicorn for a test, on a free port of 127.0.0.1."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator

import uvicorn


@contextlib.contextmanager
def serving_app(app, **config) -> Iterator[str]:
    """`app` served while in the block, on a port the OS chose (so no two tests meet); yields
    its base URL."""
    settings = {"host": "127.0.0.1", "port": 0, "log_level": "warning", **config}
    server = uvicorn.Server(uvicorn.Config(app, **settings))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline and thread.is_alive():
        time.sleep(0.05)
    assert server.started, "the test server did not start"
    try:
        yield f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
