"""Rate limits per client address on every route (issue 32, item 5), on a real uvicorn over loopback.

Before: no route had a limit (716 rooms created in 20 s by one client, ``GET /rooms`` at 96 ms of CPU a call
as often as asked). Here every class of route allows a burst of 3 and then one request a minute, so the fourth
is refused: 429 ``rate_limited`` with ``Retry-After`` and the limit in words (a WebSocket: the same words, then
close 4029), while another address is still served.
"""

from __future__ import annotations

import asyncio
import http.client
import json

import pytest
import websockets

from deltav.server.guard import route_class
from deltav.server.limits import RATES, Limits
from deltav.server.rooms import Settings
from tests.server.helpers import ThreadServer, hello_connect

SLOW = {kind: (1 / 60, 3) for kind in RATES}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("rates") / "rates.db"
    with ThreadServer(f"sqlite+aiosqlite:///{db}", Settings(grace_seconds=0, bot_workers=0,
                                                            limits=Limits(rates=dict(SLOW)))) as srv:
        yield srv


def call(srv, method: str, path: str, body: dict | None = None, source: str = "127.0.0.1") -> tuple[int, dict, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=30, source_address=(source, 0))
    try:
        data = json.dumps(body).encode() if body is not None else None
        conn.request(method, path, body=data, headers={"content-type": "application/json"} if data else {})
        r = conn.getresponse()
        raw = r.read()
        return r.status, dict(r.getheaders()), json.loads(raw) if raw.startswith(b"{") else {}
    finally:
        conn.close()


def test_the_routes_fall_into_their_classes():
    assert route_class("POST", "/rooms") == "create" and route_class("GET", "/rooms") == "list"
    assert route_class("POST", "/rooms/ABCDE/join") == "join"
    assert route_class("GET", "/rooms/ABCDE/replay") == route_class("GET", "/rooms/ABCDE/record") == "replay"
    assert route_class("GET", "/ws/ABCDE", websocket=True) == "socket"
    assert route_class("POST", "/mcp/") == "mcp"
    assert {route_class("POST", p) for p in ("/queue", "/queue/poll", "/queue/cancel", "/queue/bots")} == {"queue"}
    assert {route_class("GET", p) for p in ("/", "/healthz", "/rooms/ABCDE", "/games", "/app.js")} == {"read"}


@pytest.mark.parametrize("source,kind,method,path,body", [
    ("127.0.0.2", "create", "POST", "/rooms", {"game": "tactical", "seats": ["human", "bot:easy"]}),
    ("127.0.0.3", "list", "GET", "/rooms?status=open", None),
    ("127.0.0.4", "read", "GET", "/healthz", None),
    ("127.0.0.5", "join", "POST", "/rooms/ABCDE/join", {}),
    ("127.0.0.6", "replay", "GET", "/rooms/ABCDE/replay", None),
])
def test_the_fourth_request_of_a_kind_from_one_address_is_refused_in_words(server, source, kind, method, path, body):
    for _ in range(3):
        status, _, _ = call(server, method, path, body, source)
        assert status != 429
    status, headers, got = call(server, method, path, body, source)
    assert status == 429, got
    assert got["error"] == "rate_limited" and "from your address" in got["message"] and "a minute" in got["message"]
    assert int(headers["retry-after"]) >= 1
    # another address is another client
    status, _, _ = call(server, method, path, body, "127.0.0.99" if kind != "read" else "127.0.0.98")
    assert status != 429


def test_the_fourth_websocket_from_one_address_is_refused_with_4029(server):
    status, _, made = call(server, "POST", "/rooms", {"game": "tactical", "seats": ["human", "bot:easy"]},
                           "127.0.0.7")
    assert status == 201, made

    async def main():
        url = f"{server.ws}/ws/{made['code']}"
        for _ in range(3):
            async with hello_connect(url, local_addr=("127.0.0.8", 0)) as ws:
                assert json.loads(await ws.recv())["type"] == "welcome"
        async with hello_connect(url, local_addr=("127.0.0.8", 0)) as ws:
            got = json.loads(await ws.recv())
            assert got["code"] == "rate_limited" and "connections opened" in got["message"], got
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd.code == 4029

    asyncio.run(main())


def test_an_address_guessing_room_codes_is_stopped(server):
    """Private rooms are joined by code: an address that names codes of no room (404, or a socket closed 4004)
    three times here is refused every request naming a room code, a real one included, while other routes and
    other addresses go on."""
    status, _, made = call(server, "POST", "/rooms", {"game": "tactical", "seats": ["human", "human"]}, "127.0.0.10")
    assert status == 201

    async def unknown_socket():
        async with websockets.connect(f"{server.ws}/ws/ZZZZZ", local_addr=("127.0.0.9", 0)) as ws:
            assert json.loads(await ws.recv())["code"] == "unknown_room"

    for guess in ("/rooms/ZZZZZ", "/rooms/ZZZZY/record"):
        assert call(server, "GET", guess, source="127.0.0.9")[0] == 404
    asyncio.run(unknown_socket())
    status, headers, got = call(server, "GET", f"/rooms/{made['code']}", source="127.0.0.9")
    assert status == 429 and "unknown room codes" in got["message"] and int(headers["retry-after"]) >= 1, got
    assert call(server, "GET", "/games", source="127.0.0.9")[0] == 200
    assert call(server, "GET", f"/rooms/{made['code']}", source="127.0.0.11")[0] == 200
