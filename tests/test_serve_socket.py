"""The socket shared by worker processes: connections accepted from it must not wait on Nagle."""

from __future__ import annotations

import asyncio
import socket

import pytest

from charnel.serve.run import listening_socket


async def _accepted_nodelay(listener: socket.socket) -> int:
    """TCP_NODELAY as asyncio leaves it on a connection accepted from `listener`."""
    accepted: asyncio.Future = asyncio.get_running_loop().create_future()

    def connected(reader, writer):
        sock = writer.get_extra_info("socket")
        accepted.set_result(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
        writer.close()

    server = await asyncio.start_server(connected, sock=listener)
    port = listener.getsockname()[1]
    async with server:
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        value = await asyncio.wait_for(accepted, 10)
        writer.close()
    return value


def test_accepted_connections_have_nodelay():
    listener = listening_socket("127.0.0.1", 0)
    assert listener.proto == socket.IPPROTO_TCP
    assert asyncio.run(_accepted_nodelay(listener)) != 0


def test_a_protocol_zero_socket_would_not():
    """The failure the shared socket avoids: asyncio skips TCP_NODELAY when proto is 0."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    if asyncio.run(_accepted_nodelay(listener)) != 0:
        pytest.skip("this Python's asyncio sets TCP_NODELAY whatever the protocol")
