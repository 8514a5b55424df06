"""The MCP server: the ``mcp`` SDK's own client starts ``deltav mcp --server URL`` over stdio and plays a whole
match on a real ``deltav serve`` through the tools (create, wait for the turn, observe, act), reads the
rules and log resources, and the match's record verifies."""

from __future__ import annotations

import asyncio
import json
import os
import sys

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from deltav.client import room_record
from deltav.core.records import MatchRecord, replay
from tests.server.helpers import ROOT, ProcessServer


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("mcp") / "mcp.db"
    srv = ProcessServer(f"sqlite+aiosqlite:///{db}", "--bot-workers", "0", "--grace", "0")
    yield srv
    srv.stop()


def data(result) -> dict | list:
    assert not result.is_error, result.content
    return json.loads(result.content[0].text)


async def play(base: str) -> tuple[str, list[dict], str, str, dict]:
    params = StdioServerParameters(command=sys.executable, args=["-m", "deltav.cli", "mcp", "--server", base,
                                                                 "--candidates", "bot:easy"],
                                   env={**os.environ, "PYTHONPATH": str(ROOT / "src")}, cwd=str(ROOT))
    async with Client(params, read_timeout_seconds=120) as c:
        names = {t.name for t in (await c.list_tools()).tools}
        assert {"list_games", "list_rooms", "create_room", "join_room", "observe", "act", "wait_for_turn"} <= names
        games = data(await c.call_tool("list_games", {}))["games"]
        assert {g["id"] for g in games} == {"tactical", "mining", "deepspace", "knighthawks"}
        room = data(await c.call_tool("create_room", {"game": "knighthawks", "seats": ["human", "bot:easy"],
                                                      "scenario": "skirmish", "name": "llm", "seed": 21,
                                                      "public": True}))
        code = room["code"]
        rooms = data(await c.call_tool("list_rooms", {"status": "live"}))["rooms"]
        assert code in {r["code"] for r in rooms}
        refused = data(await c.call_tool("act", {"code": code, "index": 10**6}))
        assert refused["accepted"] is False
        seen = []
        for _ in range(3000):
            obs = data(await c.call_tool("wait_for_turn", {"code": code, "timeout_seconds": 60}))
            assert not obs["timed_out"]
            if obs["status"] == "over" or obs["room_status"] == "finished":
                break
            assert obs["to_act"] and obs["legal"] and obs["candidates"][0]["spec"] == "bot:easy"
            seen.append(obs)
            pick = next(e["index"] for e in obs["legal"] if e["action"] == obs["candidates"][0]["action"])
            answer = data(await c.call_tool("act", {"code": code, "index": pick}))
            assert answer["accepted"], answer
        final = data(await c.call_tool("observe", {"code": code}))
        rules = (await c.read_resource("deltav://rules/knighthawks")).contents[0].text
        log = (await c.read_resource(f"deltav://rooms/{code}/log")).contents[0].text
        return code, seen, rules, log, final


def test_an_mcp_client_plays_a_whole_match(server):
    code, seen, rules, log, final = asyncio.run(play(server.base))
    assert final["status"] == "over" and final["result"] is not None
    assert len(seen) > 5 and all(o["seat"] == 0 for o in seen)
    assert "Knight Hawks" in rules
    assert len(log.splitlines()) > 10
    record = room_record(server.base, code)
    replay(MatchRecord.from_json(record))
    assert sum(1 for s in record["steps"] if s["player"] == 0) == len(seen)


async def play_http(base: str) -> tuple[str, int]:
    async with Client(base + "/mcp/", read_timeout_seconds=120) as c:
        room = data(await c.call_tool("create_room", {"game": "tactical", "seats": ["human", "bot:easy"],
                                                      "scenario": "duel", "seed": 4}))
        code, token = room["code"], room["token"]
        assert (await c.call_tool("observe", {"code": code})).is_error  # stateless: the token is needed
        moves = 0
        for _ in range(2000):
            obs = data(await c.call_tool("wait_for_turn", {"code": code, "token": token, "timeout_seconds": 60}))
            if obs["result"] is not None or obs["room_status"] == "finished":
                break
            assert obs["to_act"] and obs["candidates"]
            answer = data(await c.call_tool("act", {"code": code, "token": token, "index": 0}))
            assert answer["accepted"], answer
            moves += 1
        return code, moves


def test_an_mcp_client_plays_a_whole_match_over_streamable_http_on_the_server(server):
    code, moves = asyncio.run(play_http(server.base))
    record = room_record(server.base, code)
    replay(MatchRecord.from_json(record))
    assert moves > 3 and sum(1 for s in record["steps"] if s["player"] == 0) == moves
