"""The worker processes' sockets: connections skip Nagle and spread over the workers."""

from __future__ import annotations

import asyncio
import socket

import pytest

from charnel.serve.workers import listening_sockets


async def _accept(listeners: list[socket.socket], connections: int) -> list[list[int]]:
    """Open `connections` to the listeners' port; per listener, TCP_NODELAY of each accepted."""
    accepted: list[list[int]] = [[] for _ in listeners]
    done = asyncio.Event()

    def on_connect(index: int):
        def connected(reader, writer):
            sock = writer.get_extra_info("socket")
            accepted[index].append(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            writer.close()
            if sum(map(len, accepted)) == connections:
                done.set()

        return connected

    servers = [
        await asyncio.start_server(on_connect(i), sock=sock) for i, sock in enumerate(listeners)
    ]
    port = listeners[0].getsockname()[1]
    writers = [(await asyncio.open_connection("127.0.0.1", port))[1] for _ in range(connections)]
    await asyncio.wait_for(done.wait(), 10)
    for writer in writers:
        writer.close()
    for server in servers:
        server.close()
    return accepted


def test_accepted_connections_have_nodelay():
    listeners = listening_sockets("127.0.0.1", 0, 1)
    assert listeners[0].proto == socket.IPPROTO_TCP
    accepted = asyncio.run(_accept(listeners, 3))
    assert accepted[0] and all(value != 0 for value in accepted[0])


def test_a_protocol_zero_socket_would_not():
    """The failure avoided: asyncio skips TCP_NODELAY when the socket's protocol is 0."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    if asyncio.run(_accept([listener], 1))[0] != [0]:
        pytest.skip("this Python's asyncio sets TCP_NODELAY whatever the protocol")


def test_a_burst_of_connections_reaches_every_worker():
    """A single shared socket gave a burst to whichever worker woke first."""
    listeners = listening_sockets("127.0.0.1", 0, 2)
    assert len({s.getsockname() for s in listeners}) == 1  # one port
    accepted = asyncio.run(_accept(listeners, 40))
    assert all(len(per_socket) >= 5 for per_socket in accepted), [len(a) for a in accepted]
