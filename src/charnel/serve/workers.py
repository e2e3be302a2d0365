"""Worker processes for `charnel serve --workers N`, one listening socket each.

uvicorn's own supervisor hands every worker the same listening socket, and asyncio accepts
every pending connection on each wake-up: a burst of new keep-alive clients all went to
whichever worker woke first, and the other stayed idle. Here each worker gets its own socket
bound to the same port with SO_REUSEPORT, so the kernel spreads connections across them.

The sockets are made from getaddrinfo so their protocol says TCP: asyncio sets TCP_NODELAY on
a connection only then, and uvicorn's protocol-0 socket left Nagle on, so each response
(head, then body) waited for the client's delayed ACK, about 40 ms per request.
"""

from __future__ import annotations

import multiprocessing
import signal
import socket
from multiprocessing.connection import wait

import uvicorn


def listening_sockets(host: str, port: int, count: int) -> list[socket.socket]:
    """`count` TCP sockets bound to one address (port 0: the port the first one gets)."""
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP
    )[0]
    sockets: list[socket.socket] = []
    try:
        for _ in range(count):
            sock = socket.socket(family, kind, proto)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            sock.bind(address)
            address = sock.getsockname()
            sock.set_inheritable(True)
    except OSError:
        for sock in sockets:
            sock.close()
        raise
    return sockets


def run(app: str, sockets: list[socket.socket], options: dict) -> int:
    """Serve the import-string app factory `app` from one process per socket until Ctrl-C,
    SIGTERM or a worker's exit (which stops the others). Returns the exit status."""
    context = multiprocessing.get_context("spawn")
    processes = [
        context.Process(target=_work, args=(app, sock, options), daemon=True) for sock in sockets
    ]
    for process in processes:
        process.start()
    for sock in sockets:
        sock.close()  # the workers hold their own copies

    def stop(signum, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        wait([p.sentinel for p in processes])
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        for process in processes:
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join(timeout=30)
    failed = [p.exitcode for p in processes if p.exitcode not in (0, -signal.SIGTERM)]
    return 1 if failed else 0


def _work(app: str, sock: socket.socket, options: dict) -> None:
    config = uvicorn.Config(app, factory=True, **options)
    uvicorn.Server(config).run(sockets=[sock])
