"""Denial of service through the bots (issue 32, items 1, 2 and the SIGTERM part of 6), each attack reproduced
against a real server on loopback with real sockets: unbounded bot settings refused with the parameter's name
(rooms, suggestions), a room stored with an unbounded bot restored without running it, a bot room that keeps
moving while other clients flood hints, the bot worker freed when the socket that asked for a suggestion closes or
is replaced, and a server whose worker is deep in a long decision stopping at once on SIGTERM."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from pathlib import Path

from deltav.core.protocol import get_game
from deltav.games import load_all
from deltav.server.rooms import Settings
from deltav.server.store import MatchRow, SeatRow, Store
from tests.server.helpers import ProcessServer, ThreadServer, hello_connect, http

WAIT = 300.0  # the longest any wait here may last on a loaded machine (a working server needs far less)


async def recv_until(ws, pred, timeout: float = WAIT) -> dict:
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        if pred(msg):
            return msg


UNBOUNDED = [("bot:mcts:iterations=2000000000", "iterations"), ("bot:mcts:c=nan", "c"),
             ("bot:ismcts:max_seconds=inf", "max_seconds"), ("bot:hard:iterations=-5", "iterations"),
             ("bot:duct:gamma=1e999", "gamma"), ("bot:scripted:forget=2", "forget"),
             ("bot:mcts:worlds=lots", "worlds"), ("bot:scripted:epsilon=nan", "epsilon")]


def test_unbounded_bot_settings_are_refused_with_the_parameters_name(tmp_path):

    settings = Settings(grace_seconds=0, bot_workers=0, chosen_seeds="any")
    with ThreadServer(f"sqlite+aiosqlite:///{tmp_path / 'b.db'}", settings) as srv:
        for spec, param in UNBOUNDED:
            status, body = http(srv.base, "POST", "/rooms", {"game": "mining", "seats": ["human", spec]})
            assert status == 400 and body["error"] == "bad_seats" and f"parameter '{param}'" in body["message"], body
        status, made = http(srv.base, "POST", "/rooms", {"game": "mining", "seats": ["human", "bot:random"]})
        assert status == 201

        async def suggest(spec: str):
            async with hello_connect(f"{srv.ws}/ws/{made['code']}?token={made['token']}") as ws:
                await recv_until(ws, lambda m: m["type"] == "state")
                await ws.send(json.dumps({"type": "suggest", "id": 1, "bots": [spec]}))
                msg = await recv_until(ws, lambda m: m.get("id") == 1)
                await ws.send(json.dumps({"type": "ping", "id": 2}))
                return msg, (await recv_until(ws, lambda m: m.get("id") == 2))["type"]

        for spec, param in UNBOUNDED:
            msg, then = asyncio.run(suggest(spec))
            assert msg["code"] == "bad_candidates" and f"parameter '{param}'" in msg["message"] and then == "pong", msg


def _store_old_room(db: str, code: str, game: str, options: dict, seats: list[str]) -> None:
    """A room as a server before the bounds stored it (its bot specs were accepted then)."""

    async def main():
        store = await Store.open(db)
        try:
            opts = get_game(game).resolve_options(options)
            await store.create_room(MatchRow(code, 1, game, opts, 5, "live", [SeatRow(i, s) for i, s in enumerate(seats)],
                                             meta={"live_at": time.time()}))
        finally:
            await store.close()

    load_all()
    asyncio.run(main())


def test_a_room_stored_with_an_unbounded_bot_is_restored_without_running_it(tmp_path):
    """Restoring used to start ``iterations=2000000000`` again (the worker pinned for good, after every restart);
    now the refused spec's seat plays random legal moves and the match is played to its end."""

    db = f"sqlite+aiosqlite:///{tmp_path / 'old.db'}"
    _store_old_room(db, "BADBT", "mining", {"scenario": "standard"},
                    ["bot:mcts:iterations=2000000000", "bot:mcts:c=nan"])
    srv = ProcessServer(db, "--bot-workers", "1", "--grace", "0", "--chosen-seeds", "any")
    try:
        async def watch():
            async with hello_connect(f"{srv.ws}/ws/BADBT", max_size=2**24) as ws:
                return await recv_until(ws, lambda m: m["type"] == "state" and m["room"]["status"] == "finished")

        final = asyncio.run(watch())
        assert final["snapshot"]["status"] == "over"
    finally:
        srv.stop()
    assert "is refused now" in srv.output() and "parameter 'iterations'" in srv.output()


def test_a_bot_room_keeps_moving_while_other_clients_flood_hints(tmp_path):
    """Four sockets ask for a hint (tactical's hard bot: a plan search each time) again as soon as each is
    answered, so a hint is always waiting; with one bot worker, the bot room must still get its turns (before:
    hints always went first and the bot room did not move at all)."""

    settings = Settings(grace_seconds=0, bot_workers=1, chosen_seeds="any")
    with ThreadServer(f"sqlite+aiosqlite:///{tmp_path / 'f.db'}", settings) as srv:
        rooms = []
        for k in range(4):
            status, made = http(srv.base, "POST", "/rooms", {"game": "tactical", "options": {"scenario": "biplanetary"},
                                                             "seats": ["human", "bot:random"], "seed": 10 + k})
            assert status == 201, made
            rooms.append(made)
        status, bots = http(srv.base, "POST", "/rooms", {"game": "mining", "seats": ["bot:random", "bot:random"],
                                                         "seed": 4})
        assert status == 201
        hints_each = 10

        async def flood(made: dict, answered: list) -> None:
            async with hello_connect(f"{srv.ws}/ws/{made['code']}?token={made['token']}", max_size=2**24) as ws:
                await recv_until(ws, lambda m: m["type"] == "state" and m["snapshot"]["to_act"])
                for k in range(hints_each):
                    await ws.send(json.dumps({"type": "suggest", "id": k}))
                    msg = await recv_until(ws, lambda m, k=k: m.get("id") == k)
                    assert msg["type"] == "suggestion" and msg["candidates"][0]["spec"] == "bot:hard", msg
                    answered.append(msg)

        async def main():
            answered: list = []
            before = (await asyncio.to_thread(http, srv.base, "GET", f"/rooms/{bots['code']}"))[1]["step"]
            await asyncio.gather(*(flood(made, answered) for made in rooms))
            after = await asyncio.to_thread(http, srv.base, "GET", f"/rooms/{bots['code']}")
            # the per-seat limit: a second hint while the first is worked out is refused
            async with hello_connect(f"{srv.ws}/ws/{rooms[0]['code']}?token={rooms[0]['token']}") as ws:
                await recv_until(ws, lambda m: m["type"] == "state" and m["snapshot"]["to_act"])
                await ws.send(json.dumps({"type": "suggest", "id": "a"}))
                await ws.send(json.dumps({"type": "suggest", "id": "b"}))
                got = {}
                while len(got) < 2:
                    msg = await recv_until(ws, lambda m: m.get("id") in ("a", "b"))
                    got[msg["id"]] = msg
            return got["b"], before, after[1], len(answered)

        second, before, after, answered = asyncio.run(main())
    assert second["type"] == "error" and second["code"] == "suggest_pending", second
    assert answered == 4 * hints_each
    moved = after["step"] - before
    assert moved >= 10 or after["status"] == "finished", f"the bot room moved {moved} times during {answered} hints"


def _hub(srv: ThreadServer):
    return srv.server.config.app.state.hub


async def _until(pred, timeout: float = WAIT) -> bool:
    t0 = time.monotonic()
    while not pred():
        if time.monotonic() - t0 > timeout:
            return False
        await asyncio.sleep(0.05)
    return True


def test_the_bot_worker_stops_working_for_a_socket_that_has_closed_or_was_replaced(tmp_path):
    """A seat asks for the suggestion of a long search, then closes its socket: the worker is interrupted (before:
    it stayed busy until the search ended, whoever waited). The same when the seat opens a newer socket and the
    older one, replaced, is never closed by its client: a client opening socket after socket cannot pile up
    searches (one suggestion per seat at a time)."""

    settings = Settings(grace_seconds=0, bot_workers=1, bot_seconds=600.0, chosen_seeds="any")  # the search would run for minutes
    with ThreadServer(f"sqlite+aiosqlite:///{tmp_path / 'c.db'}", settings) as srv:
        status, made = http(srv.base, "POST", "/rooms", {"game": "tactical", "options": {"scenario": "biplanetary"},
                                                         "seats": ["human", "bot:random"], "seed": 3})
        assert status == 201
        hub = _hub(srv)
        url = f"{srv.ws}/ws/{made['code']}?token={made['token']}"
        long = json.dumps({"type": "suggest", "id": "long", "bots": ["bot:mcts:iterations=100000"]})

        async def main():
            async with hello_connect(url, max_size=2**24) as ws:
                await recv_until(ws, lambda m: m["type"] == "state")
                await ws.send(long)
                busy = await _until(lambda: hub.bots.busy() == 1)
            freed = await _until(lambda: hub.bots.busy() == 0, 60.0)
            async with hello_connect(url, max_size=2**24) as older:
                await recv_until(older, lambda m: m["type"] == "state")
                await older.send(long)
                busy_again = await _until(lambda: hub.bots.busy() == 1)
                async with hello_connect(url, max_size=2**24) as newer:  # the older socket is replaced (4001)
                    await recv_until(newer, lambda m: m["type"] == "state")
                    freed_again = await _until(lambda: hub.bots.busy() == 0, 60.0)
                    await newer.send(json.dumps({"type": "suggest", "id": "new", "bots": ["bot:random"]}))
                    answer = await recv_until(newer, lambda m: m.get("id") == "new")
            return busy, freed, busy_again, freed_again, answer

        busy, freed, busy_again, freed_again, answer = asyncio.run(main())
    assert busy and freed and busy_again and freed_again
    assert answer["type"] == "suggestion" and answer["candidates"][0]["spec"] == "bot:random", answer


def _workers(pid: int) -> list[int]:
    """The bot worker processes of server ``pid`` (spawned children; not multiprocessing's resource tracker)."""
    out = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                out.append(int(child))
    return out


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_sigterm_stops_a_server_whose_bot_worker_is_busy(tmp_path):
    """The worker is deep in a decision of minutes (100,000 iterations of tactical search, a budget of 10
    minutes); SIGTERM must stop the server and its worker at once (before: alive 50 s later)."""

    db = f"sqlite+aiosqlite:///{tmp_path / 't.db'}"
    srv = ProcessServer(db, "--bot-workers", "1", "--bot-seconds", "600", "--grace", "0", "--chosen-seeds", "any")
    try:
        # a first bot match starts the worker (its games loaded), so the CPU it uses next is the long decision's
        status, warm = http(srv.base, "POST", "/rooms", {"game": "mining", "seats": ["bot:random", "bot:random"]})
        assert status == 201

        async def watch(code: str):
            async with hello_connect(f"{srv.ws}/ws/{code}") as ws:
                await recv_until(ws, lambda m: m["type"] == "state" and m["room"]["status"] == "finished")

        asyncio.run(watch(warm["code"]))
        (worker,) = _workers(srv.proc.pid)
        used = _cpu_seconds(worker)
        status, _ = http(srv.base, "POST", "/rooms", {"game": "tactical", "options": {"scenario": "duel"},
                                                      "seats": ["bot:mcts:iterations=100000", "bot:random"]})
        assert status == 201
        busy = asyncio.run(_until(lambda: _cpu_seconds(worker) > used + 1.0))
        assert busy, "the worker never started deciding"
        t0 = time.monotonic()
        srv.proc.send_signal(signal.SIGTERM)
        srv.proc.wait(60)
        took = time.monotonic() - t0
    finally:
        srv.stop()
    assert srv.proc.returncode is not None and took < 30, took
    assert not Path(f"/proc/{worker}").exists() or "Z" in Path(f"/proc/{worker}/stat").read_text().split()[2]
