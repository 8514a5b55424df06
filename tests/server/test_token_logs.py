"""Seat tokens stay out of addresses and logs (issue 32, item 11), on a real ``deltav serve --log-level info``.

Before: a seat connected to ``/ws/CODE?token=...`` and uvicorn logged that address with every connection. Now a
seat says its token in the first message (``{"type": "hello", "token": ...}``); an old client that puts it in the
address is refused in words (and its token blanked in the log line uvicorn writes before the refusal).
"""

from __future__ import annotations

import asyncio
import json

import pytest
import websockets

from deltav.client import Seat
from tests.server.helpers import ProcessServer, http


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("tokens") / "t.db"
    srv = ProcessServer(f"sqlite+aiosqlite:///{db}", "--bot-workers", "0", "--log-level", "info")
    yield srv
    srv.stop()


def mcp_observe(base: str, code: str, token: str) -> dict:
    import httpx2

    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "observe", "arguments": {"code": code, "token": token}}}
    r = httpx2.post(base + "/mcp/", json=body, timeout=120,
                    headers={"accept": "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18"})
    data = next(line[5:] for line in r.text.splitlines() if line.startswith("data:"))
    return json.loads(data)["result"]


def test_no_token_in_any_log_line_and_old_clients_are_refused_in_words(server):
    status, made = http(server.base, "POST", "/rooms", {"game": "tactical", "scenario": "duel", "name": "ann",
                                                        "seats": ["human", "bot:easy"]})
    assert status == 201, made
    code, token = made["code"], made["token"]
    with Seat(server.base, code, token) as seat:  # deltav.client: the token in its hello
        state = seat.next_state()
        assert state["snapshot"]["seat"] == 0
        if state["snapshot"]["to_act"]:
            assert seat.submit(state["snapshot"]["legal"][0]["action"])["type"] == "accepted"
    observed = mcp_observe(server.base, code, token)  # the MCP tools connect with it too
    assert not observed["isError"], observed
    assert json.loads(observed["content"][0]["text"])["seat"] == 0

    async def old_clients():
        async with websockets.connect(f"{server.ws}/ws/{code}?token={token}") as ws:
            refused = json.loads(await ws.recv())
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await ws.recv()
        async with websockets.connect(f"{server.ws}/ws/{code}") as ws:
            await ws.send(json.dumps({"type": "sync"}))  # anything but hello first
            no_hello = json.loads(await ws.recv())
        async with websockets.connect(f"{server.ws}/ws/{code}") as ws:  # a spectator says hello without a token
            await ws.send(json.dumps({"type": "hello"}))
            welcome = json.loads(await ws.recv())
        return refused, closed.value.rcvd.code, no_hello, welcome

    refused, close_code, no_hello, welcome = asyncio.run(old_clients())
    assert refused["code"] == "token_in_url" and close_code == 4003
    assert "first message" in refused["message"] and "update the client" in refused["message"]
    assert no_hello["code"] == "hello_expected" and '"type": "hello"' in no_hello["message"]
    assert welcome["type"] == "welcome" and welcome["role"] == "spectator"
    log = server.output()
    assert f"/ws/{code}" in log and "[accepted]" in log  # the connections were logged (info)...
    assert token not in log  # ...and no line holds the token
