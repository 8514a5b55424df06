"""The MCP tools under abuse (issue 32, item 10), on a real ``deltav serve``.

Before: the mounted tools called whatever ``Host`` the MCP request named (any port of this machine: another
server's JSON came back, ``create_room`` posted there), a room code went into the path unescaped
(``/rooms/../admin/...``), and a port that never answered tied a call up for 30 s on a thread of the server's
default pool (12 such calls filled it: a player's ``advise`` then took 58 s).
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading

import httpx2
import pytest
from mcp import Client

from deltav.client import mcptools
from tests.server.helpers import ProcessServer, http


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("mcp-safety") / "m.db"
    # the mounted tools call this server from loopback, like every local agent: one address, no per-address limit
    srv = ProcessServer(f"sqlite+aiosqlite:///{db}", "--bot-workers", "0", "--grace", "0", "--no-client-limits")
    yield srv
    srv.stop()


class Blackhole:
    """A port on this machine that accepts connections and never answers (counting them)."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.accepted: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.accepted.append(conn)

    def close(self) -> None:
        self.sock.close()
        for c in self.accepted:
            c.close()


def mcp_call(base: str, host: str, tool: str, arguments: dict) -> dict:
    """One stateless tools/call over streamable HTTP with a chosen Host header; the tool's JSON result."""
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "arguments": arguments}}
    r = httpx2.post(base + "/mcp/", json=body, timeout=120, headers={
        "accept": "application/json, text/event-stream", "host": host, "mcp-protocol-version": "2025-06-18"})
    assert r.status_code == 200, r.text
    data = next(line[5:] for line in r.text.splitlines() if line.startswith("data:"))
    return json.loads(data)["result"]


def test_the_mounted_tools_call_this_server_whatever_host_the_request_names(server):
    hole = Blackhole()
    try:
        status, made = http(server.base, "POST", "/rooms", {"game": "tactical", "scenario": "duel", "public": True,
                                                            "seats": ["human", "human"], "name": "ann"})
        assert status == 201, made

        async def many():
            # 12 at once: before, each tied a thread of the server's pool up for 30 s
            calls = [asyncio.to_thread(mcp_call, server.base, f"127.0.0.1:{hole.port}", "list_rooms", {"status": "open"})
                     for _ in range(12)]
            return await asyncio.gather(*calls)

        for result in asyncio.run(many()):
            assert not result["isError"], result
            rooms = json.loads(result["content"][0]["text"])["rooms"]
            assert made["code"] in {r["code"] for r in rooms}  # this server's list
        made2 = mcp_call(server.base, f"localhost:{hole.port}", "create_room",
                         {"game": "tactical", "scenario": "duel", "seats": ["human", "bot:easy"]})
        assert not made2["isError"], made2
        code = json.loads(made2["content"][0]["text"])["code"]
        assert http(server.base, "GET", f"/rooms/{code}")[0] == 200  # made here, not posted elsewhere
        assert hole.accepted == []
    finally:
        hole.close()


@pytest.mark.parametrize("code", ["../admin", "AB/CD", "ABCDE/../../games", "ABC%2F", "ABCDEF"])
def test_a_room_code_that_is_not_one_is_refused_before_any_request(server, code):
    result = mcp_call(server.base, "127.0.0.1:1", "join_room", {"code": code})
    assert result["isError"]
    assert "is not a room code" in result["content"][0]["text"]


def test_every_call_is_bounded_in_time(monkeypatch):
    monkeypatch.setattr(mcptools, "HTTP_SECONDS", 1.0)
    monkeypatch.setattr(mcptools, "CONNECT_SECONDS", 1.0)
    hole = Blackhole()
    try:
        app = mcptools.build(f"http://127.0.0.1:{hole.port}")

        async def calls():
            async with Client(app) as c:
                games = await c.call_tool("list_games", {})
                observe = await c.call_tool("observe", {"code": "ABCDE", "token": "x"})
                return games, observe

        games, observe = asyncio.run(calls())
        assert games.is_error and "did not answer within 1 s" in games.content[0].text
        assert observe.is_error and "within 1 s" in observe.content[0].text
    finally:
        hole.close()
