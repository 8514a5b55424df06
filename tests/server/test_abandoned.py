"""Abandoned rooms expire and chat is limited (issue 32, item 5), on a real uvicorn and SQLite file, with short
settings (the defaults are a day for open rooms, a week for live ones: docs/server.md, "Limits").

Before: rooms never expired (every unfinished one is restored at each start, ~3 ms each, for good) and chat was
stored without limit (86 lines a second from one seat, every one kept).
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time

import pytest

from deltav.server.limits import Limits
from deltav.server.rooms import Settings
from tests.server.helpers import ThreadServer, hello_connect, http


def settings() -> Settings:
    return Settings(grace_seconds=0, bot_workers=0, limits=Limits(
        open_room_seconds=1.0, idle_room_seconds=2.0, finished_unload_seconds=1.0, sweep_seconds=0.2,
        chat_per_second=0.01, chat_burst=5, chat_kept=3))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("abandoned") / "a.db"
    with ThreadServer(f"sqlite+aiosqlite:///{db}", settings()) as srv:
        srv.db = db
        yield srv


def wait_for(pred, what: str, timeout: float = 30.0):
    t0 = time.time()
    while time.time() - t0 < timeout:
        got = pred()
        if got:
            return got
        time.sleep(0.1)
    raise AssertionError(f"gave up waiting for {what}")


def room(srv, code: str) -> dict:
    status, info = http(srv.base, "GET", f"/rooms/{code}")
    assert status == 200, info
    return info


def test_a_room_made_just_now_is_not_old(tmp_path):
    """An open room created in this process is as old as it is: before, its age was counted from 1970 (the
    in-memory row had no creation time), so the next sweep ended every open room nobody had a socket in, within a
    minute of its creation (found by the 1,000-room benchmark: joins answered room_full)."""
    lim = Limits(open_room_seconds=3600.0, sweep_seconds=0.1)
    with ThreadServer(f"sqlite+aiosqlite:///{tmp_path / 'young.db'}", Settings(grace_seconds=0, bot_workers=0,
                                                                               limits=lim)) as srv:
        _, made = http(srv.base, "POST", "/rooms", {"game": "mining", "seats": ["human", "human"]})
        time.sleep(1.0)  # ten sweeps
        info = room(srv, made["code"])
        assert info["status"] == "open" and info["abandoned"] is None
        status, joined = http(srv.base, "POST", f"/rooms/{made['code']}/join", {})
        assert status == 200 and joined["room"]["status"] == "live"


def test_an_open_room_nobody_joins_and_a_live_room_nobody_plays_expire(server):
    _, waiting = http(server.base, "POST", "/rooms", {"game": "tactical", "seats": ["human", "human"]})
    _, abandoned = http(server.base, "POST", "/rooms", {"game": "mining", "seats": ["human", "bot:easy"]})
    _, watched = http(server.base, "POST", "/rooms", {"game": "mining", "seats": ["human", "bot:easy"]})
    assert waiting["room"]["status"] == "open" and abandoned["room"]["status"] == "live"

    async def watch_a_while():  # a socket keeps its room alive while it is there
        async with hello_connect(f"{server.ws}/ws/{watched['code']}") as ws:
            await ws.recv()
            for _ in range(30):
                await asyncio.sleep(0.1)
                if room(server, abandoned["code"])["status"] == "finished":
                    break
            return room(server, watched["code"])

    kept = asyncio.run(watch_a_while())
    assert kept["status"] == "live" and kept["abandoned"] is None

    gone = wait_for(lambda: (lambda r: r if r["status"] == "finished" else None)(room(server, waiting["code"])),
                    "the open room to expire")
    assert "nobody took its free seats within 1 s" in gone["abandoned"]["reason"]
    gone = wait_for(lambda: (lambda r: r if r["status"] == "finished" else None)(room(server, abandoned["code"])),
                    "the live room to expire")
    assert "no move and nobody connected for 2 s" in gone["abandoned"]["reason"]
    status, joined = http(server.base, "POST", f"/rooms/{waiting['code']}/join", {})
    assert status == 409 and joined["error"] == "room_full"  # an expired invitation takes nobody
    status, record = http(server.base, "GET", f"/rooms/{abandoned['code']}/record")
    assert status == 200 and record["result"] is None
    # the one left alone expires too, once its socket has gone
    wait_for(lambda: room(server, watched["code"])["status"] == "finished", "the watched room to expire later")
    # nothing of them is restored at the next start
    con = sqlite3.connect(server.db)
    try:
        statuses = dict(con.execute("SELECT code, status FROM matches").fetchall())
    finally:
        con.close()
    assert {statuses[r["code"]] for r in (waiting, abandoned, watched)} == {"finished"}


def test_chat_is_rate_limited_per_seat_and_each_match_keeps_its_newest_lines(server):
    status, made = http(server.base, "POST", "/rooms", {"game": "tactical", "scenario": "duel", "name": "ann",
                                                        "seats": ["human", "bot:easy"]})
    assert status == 201, made

    async def talk():
        said, refused = [], []
        async with hello_connect(f"{server.ws}/ws/{made['code']}?token={made['token']}") as ws:
            for i in range(7):
                await ws.send(json.dumps({"type": "chat", "text": f"line {i}", "id": i}))
            while len(said) + len(refused) < 7:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if msg["type"] == "chat":
                    said.append(msg["text"])
                elif msg["type"] == "error":
                    refused.append(msg)
        # a new socket of the same seat does not refill its allowance
        async with hello_connect(f"{server.ws}/ws/{made['code']}?token={made['token']}") as ws:
            await ws.send(json.dumps({"type": "chat", "text": "again", "id": 9}))
            while True:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if msg["type"] == "error":
                    refused.append(msg)
                    break
        return said, refused

    said, refused = asyncio.run(talk())
    assert said == [f"line {i}" for i in range(5)]
    assert [r["code"] for r in refused] == ["chat_rate"] * 3
    assert "chat lines a minute" in refused[0]["message"] and refused[0]["retry_after"] > 0
    con = sqlite3.connect(server.db)
    try:
        kept = [r[0] for r in con.execute("SELECT text FROM chat WHERE code = ? ORDER BY id", (made["code"],))]
    finally:
        con.close()
    assert kept == ["line 2", "line 3", "line 4"]
