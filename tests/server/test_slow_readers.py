"""Sockets that stop reading, and too many sockets (issue 32, item 4), on a real uvicorn over loopback.

Before: the outgoing queue of a socket counted messages, not bytes (a spectator asking ``sync since=0`` and
never reading held megabytes for minutes), and a socket dropped for slowness (4008) was never closed when its
peer stopped reading: the close frame could not be written, and uvicorn's own close waited for the write buffer
to drain, which it never did, so the connection and its buffers stayed. Now the queue is bounded in characters
too, and a socket that has not closed ``close_seconds`` after it was told to is aborted (its peer sees a reset).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import socket
import struct
import time

import pytest
import websockets

from deltav.server.limits import Limits
from deltav.server.rooms import Settings
from tests.server.helpers import ThreadServer, hello_connect, hello_open, http

TCP_CLOSE = 7  # tcpi_state of a socket whose connection is gone (reset, or closed both ways)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("slow") / "slow.db"
    limits = Limits(close_seconds=1.0, outbox_bytes=128 * 1024, spectators_per_room=3, sockets_per_address=8)
    with ThreadServer(f"sqlite+aiosqlite:///{db}", Settings(grace_seconds=0, bot_workers=0, limits=limits)) as srv:
        yield srv


def frame(text: str) -> bytes:
    """A masked client text frame."""
    data = text.encode()
    mask = os.urandom(4)
    n = len(data)
    head = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack("!H", n))
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def non_reader(port: int, path: str) -> socket.socket:
    """A WebSocket that completes its handshake and then never reads again (a tiny receive buffer)."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
              f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    s.sendall(frame(json.dumps({"type": "hello"})))  # a spectator
    s.setblocking(False)
    return s


def tcp_state(s: socket.socket) -> int:
    return s.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 1)[0]


def test_a_spectator_that_stops_reading_is_dropped_and_its_connection_really_closed(server):
    status, made = http(server.base, "POST", "/rooms", {"game": "mining", "seats": ["bot:random", "bot:random"],
                                                        "public": True})
    assert status == 201, made
    path = f"/ws/{made['code']}"
    stuck = [non_reader(server.port, path) for _ in range(2)]
    gone: set[int] = set()
    t0 = time.time()
    while len(gone) < len(stuck):  # each asks for its whole log again and again, and never reads
        assert time.time() - t0 < 120, f"still connected: {[tcp_state(s) for s in stuck]}"
        for i, s in enumerate(stuck):
            if tcp_state(s) == TCP_CLOSE:
                gone.add(i)
                continue
            with contextlib.suppress(BlockingIOError, OSError):
                s.send(frame(json.dumps({"type": "sync", "since": 0})))
        time.sleep(0.05)
    for s in stuck:
        s.close()
    # the room and the server go on: a new spectator is served
    async def watch():
        async with hello_connect(f"{server.ws}{path}", max_size=2**24) as ws:
            kinds = [json.loads(await asyncio.wait_for(ws.recv(), 30))["type"] for _ in range(2)]
            return kinds
    assert asyncio.run(watch()) == ["welcome", "state"]


def test_spectators_per_room_and_sockets_per_address_are_capped_seats_are_not(server):
    status, made = http(server.base, "POST", "/rooms", {"game": "tactical", "scenario": "duel", "public": True,
                                                        "seats": ["human", "bot:easy"], "name": "ann"})
    assert status == 201, made
    others = []
    for _ in range(2):
        status, other = http(server.base, "POST", "/rooms", {"game": "tactical", "scenario": "duel", "public": True,
                                                             "seats": ["human", "bot:easy"]})
        assert status == 201, other
        others.append(f"{server.ws}/ws/{other['code']}")
    url = f"{server.ws}/ws/{made['code']}"

    async def first(ws) -> dict:
        return json.loads(await asyncio.wait_for(ws.recv(), 30))

    async def refused(ws) -> dict:
        msg = await first(ws)
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(ws.recv(), 30)
        assert closed.value.rcvd.code == 4029
        return msg

    async def main():
        held = [await hello_open(url) for _ in range(3)]
        for w in held:
            assert (await first(w))["type"] == "welcome"
        async with hello_connect(url) as extra:
            got = await refused(extra)
            assert got["code"] == "too_many_sockets" and "3 spectators" in got["message"], got
        seat = await hello_open(f"{url}?token={made['token']}")  # a seat always gets in
        assert (await first(seat))["role"] == "player"
        held.append(seat)
        held += [await hello_open(others[0]) for _ in range(3)]
        held.append(await hello_open(others[1]))  # 8 from this address
        async with hello_connect(others[1]) as ninth:
            got = await refused(ninth)
            assert got["code"] == "too_many_sockets" and "from one address" in got["message"], got
        async with hello_connect(others[1], local_addr=("127.0.0.2", 0)) as away:  # another address
            assert (await first(away))["type"] == "welcome"
        for w in held:
            await w.close()

    asyncio.run(main())
