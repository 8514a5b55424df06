"""Several server processes on one real PostgreSQL and one real Redis (started here on free loopback ports; the
test skips only when their binaries are absent): a seat sent to its room's owner, a spectator watching through
another process, readiness and metrics; and the chaos test: a match of every game played by socket clients
spread over three processes while one process at a time is killed with SIGKILL and restarted, and an owner
that stalls (SIGSTOP) past its lease. Every match finishes, every record replays and equals the uninterrupted
match (nothing lost, nothing applied twice), and no message to a seat ever held another seat's secrets."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import time
import urllib.request

import pytest

from deltav.core.records import MatchRecord, replay
from tests.server import services
from tests.server.helpers import ProcessServer, Seen, http, record_difference, reference_record, secret_leaks
from tests.server.test_live import CLIENT_SEED, MATCHES

# A developer's machine without the services skips these; CI never does (its set-up installs them, and a missing
# binary there must fail, not hide the chaos test).
pytestmark = services.required_or_skipped()

LEASE = "1.5"


@pytest.fixture(scope="module")
def backing():
    pg, redis = services.Postgres(), services.Redis()
    try:
        yield pg, redis
    finally:
        redis.stop()
        pg.stop()


def start(db: str, bus: str) -> ProcessServer:
    # every player of these tests connects from this one address, reconnecting at once after each kill: no
    # per-address limit (a loaded machine's reconnect bursts were refused as rate_limited)
    return ProcessServer(db, "--bus", bus, "--lease-seconds", LEASE, "--bot-workers", "0", "--grace", "0",
                         "--chosen-seeds", "any", "--no-client-limits", "--log-format", "json", "--log-level", "info")


async def play_anywhere(bases, code: str, token: str | None, seat: int | None, seen: Seen, deadline: float,
                        think: float = 0.0) -> str:
    """Play (or watch) a room through any live process: follow redirects to the owner, and after a lost socket
    reconnect through a random live process; resubmit this step's (deterministic) choice after each reconnect."""
    import websockets

    from tests.server.helpers import choose

    url = None
    while time.time() < deadline:
        url = url or f"{random.choice(bases())}/ws/{code}"
        target, url = url, None
        submitted: set[int] = set()
        try:
            async with websockets.connect(target, max_size=2**24, open_timeout=5) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))  # the token, never in the address
                while True:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 5))
                    if msg["type"] == "redirect":
                        url = msg["url"]
                        break
                    step = seen.last["snapshot"]["step"] if seen.last else 0
                    if msg["type"] == "state":
                        seen.last = msg
                        step = msg["snapshot"]["step"]
                    seen.messages.append((step, msg))
                    if msg["type"] == "error" and msg["code"] not in ("stale_step", "already_decided", "internal"):
                        raise AssertionError(f"seat {seat}: unexpected error {msg}")
                    if msg["type"] == "error" and msg["code"] == "internal":
                        await ws.send(json.dumps({"type": "sync"}))
                    if msg["type"] != "state":
                        continue
                    snap = msg["snapshot"]
                    if snap["status"] == "over" or msg["room"]["status"] == "finished":
                        return "over"
                    if seat is not None and snap["to_act"] and snap["step"] not in submitted:
                        submitted.add(snap["step"])
                        action = choose(CLIENT_SEED, seat, snap["step"], snap["legal"])
                        await asyncio.sleep(think)
                        await ws.send(json.dumps({"type": "submit", "action": action, "step": snap["step"]}))
        except (OSError, TimeoutError, websockets.ConnectionClosed, websockets.InvalidHandshake):
            await asyncio.sleep(0.1 + random.random() * 0.2)
    return "timeout"


def text(base: str, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(base + path, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def test_seats_are_sent_to_the_owner_and_any_process_serves_spectators(backing):
    pg, redis = backing
    db = pg.new_database("basic")
    servers = [start(db, redis.url) for _ in range(3)]
    try:
        a, b, c = servers
        gid, options, seed = "mining", {"scenario": "standard"}, 21
        status, made = http(a.base, "POST", "/rooms", {"game": gid, "options": options, "seats": ["human", "human"],
                                                       "seed": seed})
        assert status == 201
        code = made["code"]
        status, joined = http(b.base, "POST", f"/rooms/{code}/join", {})  # the seat is taken through another process
        assert status == 200 and joined["seat"] == 1
        for s in servers:
            status, body = http(s.base, "GET", "/readyz")
            assert status == 200 and body["status"] == "ready" and body["node"]
        seen = [Seen(0), Seen(1), Seen(None)]
        deadline = time.time() + 120

        async def main():
            return await asyncio.gather(
                play_anywhere(lambda: [b.ws], code, made["token"], 0, seen[0], deadline),  # redirected to a
                play_anywhere(lambda: [c.ws], code, joined["token"], 1, seen[1], deadline),
                play_anywhere(lambda: [c.ws], code, None, None, seen[2], deadline),  # a replica's spectator
            )

        assert asyncio.run(main()) == ["over", "over", "over"]
        status, record = http(c.base, "GET", f"/rooms/{code}/record")
        assert status == 200
        replay(MatchRecord.from_json(record))
        assert record_difference(record, reference_record(gid, options, seed, ["human", "human"], CLIENT_SEED)) is None
        assert secret_leaks(record, seen) == []
        watched = [m for _, m in seen[2].messages if m["type"] == "state"]
        assert len(watched) > 20  # the spectator on the replica saw the match move, not just its end
        assert any(m["room"]["seats"][0]["connected"] for m in watched)  # the owner's live info reached it
        # exactly one process owns the room: its creator, unless a lease round starved past the 1.5 s lease on a
        # loaded machine and another process took the unfinished room over (the match goes on there)
        pages = [text(s.base, "/metrics") for s in servers]
        assert all(st == 200 for st, _ in pages)
        owners = [s for s, (_, page) in zip(servers, pages) if 'deltav_rooms{role="owner"} 1.0' in page]
        assert len(owners) == 1 and all('deltav_rooms{role="owner"} 0.0' in page for s, (_, page) in zip(servers, pages)
                                        if s is not owners[0])
        metrics = pages[0][1]
        assert "deltav_actions_total" in metrics
        assert "deltav_submit_seconds_bucket" in metrics
        logs = [json.loads(ln) for ln in a.output().splitlines()[1:] if ln.startswith("{")]
        assert logs and all({"ts", "level", "logger", "msg", "node"} <= set(x) for x in logs)
    finally:
        for s in servers:
            s.stop()


def test_chaos_every_match_survives_processes_killed_one_at_a_time(backing):
    pg, redis = backing
    db = pg.new_database("chaos")
    servers = [start(db, redis.url) for _ in range(3)]
    started = list(servers)
    rooms = []
    try:
        for i, (gid, options) in enumerate(MATCHES):
            srv = servers[i % 3]
            status, made = http(srv.base, "POST", "/rooms", {"game": gid, "options": options,
                                                             "seats": ["human", "human"], "seed": 500 + i})
            assert status == 201, made
            _, joined = http(servers[(i + 1) % 3].base, "POST", f"/rooms/{made['code']}/join", {})
            rooms.append((gid, options, 500 + i, made["code"], [made["token"], joined["token"]]))
        seen = {(code, s): Seen(s) for *_, code, _t in rooms for s in (0, 1)}
        kills = 0
        deadline = time.time() + 300

        def bases():
            return [s.ws for s in servers if s.proc.poll() is None]

        async def chaos(done: asyncio.Event):
            nonlocal kills
            rng = random.Random(7)
            while not done.is_set():
                await asyncio.sleep(0.7 + rng.random())
                if done.is_set():
                    break
                i = kills % 3  # each process in turn: every one owns live rooms when its turn comes
                servers[i].kill()  # SIGKILL: no clean shutdown, its leases simply expire
                kills += 1
                await asyncio.sleep(0.3)
                servers[i] = await asyncio.to_thread(start, db, redis.url)
                started.append(servers[i])

        async def main():
            done = asyncio.Event()
            killer = asyncio.create_task(chaos(done))
            results = await asyncio.gather(*[play_anywhere(bases, code, tokens[s], s, seen[(code, s)], deadline, 0.05)
                                             for *_, code, tokens in rooms for s in (0, 1)])
            done.set()
            await killer
            return results

        results = asyncio.run(main())
        assert kills >= 2, f"only {kills} processes were killed: the matches ended too soon to test anything"
        assert results == ["over"] * (2 * len(rooms)), results
        events = [json.loads(ln).get("event") for s in started for ln in s.output().splitlines() if ln.startswith("{")]
        assert events.count("takeover") >= 1  # some room's owner died mid-match and another process replayed it
        for gid, options, seed, code, _tokens in rooms:
            status, record = http(servers[0].base, "GET", f"/rooms/{code}/record")
            assert status == 200, (gid, record)
            replay(MatchRecord.from_json(record))
            want = reference_record(gid, options, seed, ["human", "human"], CLIENT_SEED)
            assert record_difference(record, want) is None, (gid, options)
            assert secret_leaks(record, [seen[(code, 0)], seen[(code, 1)]]) == []
    finally:
        for s in servers:
            s.stop()


def test_a_stalled_owner_loses_its_rooms_and_applies_nothing_twice(backing):
    """The owner freezes (SIGSTOP) longer than its lease: the other process takes the room over when a seat
    reconnects there; the old owner wakes up (SIGCONT), finds its lease gone and sends its seats on."""
    pg, redis = backing
    db = pg.new_database("stall")
    a, b = start(db, redis.url), start(db, redis.url)
    try:
        gid, options, seed = "knighthawks", {"scenario": "skirmish"}, 8
        _, made = http(a.base, "POST", "/rooms", {"game": gid, "options": options, "seats": ["human", "human"],
                                                  "seed": seed})
        code = made["code"]
        _, joined = http(a.base, "POST", f"/rooms/{code}/join", {})
        tokens = [made["token"], joined["token"]]
        seen = [Seen(0), Seen(1)]
        frozen = {"a": False}
        deadline = time.time() + 180

        def bases():
            return [b.ws] if frozen["a"] else [a.ws]

        async def main():
            players = [asyncio.create_task(play_anywhere(bases, code, tokens[s], s, seen[s], deadline, 0.02))
                       for s in (0, 1)]
            while not (seen[0].last and seen[0].last["snapshot"]["step"] >= 20):
                await asyncio.sleep(0.01)
            os.kill(a.proc.pid, signal.SIGSTOP)
            frozen["a"] = True
            await asyncio.sleep(3 * float(LEASE))  # its lease expires; the seats time out and reconnect to b
            os.kill(a.proc.pid, signal.SIGCONT)
            return await asyncio.gather(*players)

        assert asyncio.run(main()) == ["over", "over"]
        time.sleep(float(LEASE))  # a's next lease round
        status, record = http(a.base, "GET", f"/rooms/{code}/record")
        assert status == 200
        assert record_difference(record, reference_record(gid, options, seed, ["human", "human"], CLIENT_SEED)) is None
        events = [json.loads(ln).get("event") for s in (a, b) for ln in s.output().splitlines() if ln.startswith("{")]
        assert "takeover" in events and "lease_lost" in events
    finally:
        for s in (a, b):
            if s.proc.poll() is None:
                os.kill(s.proc.pid, signal.SIGCONT)
            s.stop()



def test_the_lease_loop_never_rebuilds_or_doubles_a_room_it_owns(backing):
    """A renewal that came late (the lease expired though this process still owns the room) and a lease round
    while rooms are made and joined: the loop keeps the very room object it has (no second copy, no rebuild that
    would restart its bots), so both seats play on the room they joined."""
    from sqlalchemy import update

    from deltav.games import load_all
    from deltav.server.cluster import ClusterConfig
    from deltav.server.hub import Hub
    from deltav.server.rooms import Settings
    from deltav.server.store import Store, leases

    pg, redis = backing
    db = pg.new_database("race")

    async def main():
        store = await Store.open(db)
        hub = Hub(store, Settings(grace_seconds=0, bot_workers=0, chosen_seeds="any",
                                  cluster=ClusterConfig(redis.url, "http://127.0.0.1:1", lease_seconds=30)),
                  load_all())
        await hub.restore()
        try:
            made = await hub.create("toy", {}, ["human", "human"], 1, None, None)
            code = made["code"]
            room, session = hub.rooms[code], hub.rooms[code].session
            async with store.engine.begin() as conn:  # as if this process's renewal had come late
                await conn.execute(update(leases).where(leases.c.code == code).values(expires_at=0.0))
            rounds = asyncio.gather(*[hub.leases.round() for _ in range(3)])
            joins = asyncio.gather(*[hub.create("toy", {}, ["human", "human"], i, None, None) for i in range(10)])
            others, _ = await joins, await rounds
            for o in others:
                await hub.join(o["code"], None, None)
            assert hub.rooms[code] is room and room.session is session and room.owned
            for o in others:
                assert hub.rooms[o["code"]].status == "live"
                assert (await store.load_match(o["code"], with_submissions=False)).status == "live"
        finally:
            await hub.close()
            await store.close()

    asyncio.run(main())


def replica_rooms(base: str) -> float:
    status, body = text(base, "/metrics")
    assert status == 200
    line = next(ln for ln in body.splitlines() if ln.startswith('deltav_rooms{role="replica"}'))
    return float(line.split()[1])


def wait_for(pred, timeout: float = 20.0) -> bool:
    t0 = time.time()
    while time.time() - t0 < timeout:
        if pred():
            return True
        time.sleep(0.1)
    return False


def test_chat_reaches_every_process_and_idle_or_archived_replicas_are_unloaded(backing):
    """A chat line said on the owner reaches the spectators of two other processes (through the database: the
    bus carries only its id). A replica whose last spectator left is unloaded after its linger (the rooms gauge
    goes back to 0); a replica of a finished match is unloaded as soon as its spectator leaves, although its
    linger is far longer."""

    from deltav.server.cluster import ClusterConfig
    from deltav.server.rooms import Settings
    from tests.server.helpers import ThreadServer, hello_connect, play_seat

    pg, redis = backing
    db = pg.new_database("replicas")
    owner = start(db, redis.url)
    replicas = []
    for linger in (0.5, 600.0):
        settings = Settings(grace_seconds=0, bot_workers=0, replica_linger_seconds=linger)
        srv = ThreadServer(db, settings)
        settings.cluster = ClusterConfig(redis.url, srv.base, lease_seconds=float(LEASE))
        replicas.append(srv.__enter__())
    quick, slow = replicas
    try:
        gid, options, seed = "mining", {"scenario": "standard"}, 31
        _, made = http(owner.base, "POST", "/rooms", {"game": gid, "options": options, "seats": ["human", "human"],
                                                      "seed": seed, "name": "ann"})
        code = made["code"]
        _, joined = http(owner.base, "POST", f"/rooms/{code}/join", {})

        async def chat_and_leave():
            async with hello_connect(f"{quick.ws}/ws/{code}") as a, \
                    hello_connect(f"{slow.ws}/ws/{code}") as b, \
                    hello_connect(f"{owner.ws}/ws/{code}?token={made['token']}") as seat:
                for ws in (a, b):  # each replica has loaded the room (a line said before is history there)
                    while json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] != "state":
                        pass
                await seat.send(json.dumps({"type": "chat", "text": "  hello   there "}))
                got = []
                for ws in (a, b):
                    while (msg := json.loads(await asyncio.wait_for(ws.recv(), 10)))["type"] != "chat":
                        pass
                    got.append(msg)
                return got

        lines = asyncio.run(chat_and_leave())
        assert [(m["seat"], m["name"], m["text"]) for m in lines] == [(0, "ann", "hello there")] * 2
        # the quick replica's spectator left: unloaded after its linger; the slow one keeps its copy
        assert wait_for(lambda: replica_rooms(quick.base) == 0.0), "the idle replica was never unloaded"
        assert replica_rooms(slow.base) == 1.0
        seen = [Seen(0), Seen(1), Seen(None)]
        deadline = time.time() + 120

        async def play_to_the_end():
            return await asyncio.gather(
                play_anywhere(lambda: [owner.ws], code, made["token"], 0, seen[0], deadline),
                play_anywhere(lambda: [owner.ws], code, joined["token"], 1, seen[1], deadline),
                play_seat(f"{slow.ws}/ws/{code}", None, None, CLIENT_SEED, seen[2], timeout=30))

        assert asyncio.run(play_to_the_end()) == ["over", "over", "over"]
        # the match is archived and its spectator gone: unloaded at once, not after 600 s
        assert wait_for(lambda: replica_rooms(slow.base) == 0.0), "the archived replica was never unloaded"
        status, record = http(slow.base, "GET", f"/rooms/{code}/record")  # loaded again when asked for
        assert status == 200 and record_difference(
            record, reference_record(gid, options, seed, ["human", "human"], CLIENT_SEED, names=["ann", "Player 2"])) is None
    finally:
        for srv in replicas:
            srv.__exit__(None, None, None)
        owner.stop()


def test_quick_match_pairs_players_of_different_processes(backing):
    """The queue is the database's: players joining through different processes meet, racing pairings never put
    one player in two rooms, and a player's poll answers on any process, also after its process was killed."""
    from concurrent.futures import ThreadPoolExecutor

    pg, redis = backing
    db = pg.new_database("quick")
    servers = [start(db, redis.url) for _ in range(2)]
    try:
        a, b = servers
        status, ann = http(a.base, "POST", "/queue", {"game": "tactical", "scenario": "duel", "name": "ann"})
        assert status == 201 and ann["status"] == "waiting"
        status, ben = http(b.base, "POST", "/queue", {"game": "tactical", "scenario": "duel", "name": "ben"})
        assert status == 201 and ben["status"] == "matched"
        status, got = http(a.base, "POST", "/queue/poll", {"ticket": ann["ticket"]})
        assert got["status"] == "matched" and got["code"] == ben["code"] and {got["seat"], ben["seat"]} == {0, 1}

        async def both_seated() -> list[str]:
            seen = [Seen(got["seat"]), Seen(ben["seat"])]
            deadline = time.time() + 120
            return await asyncio.gather(  # each seat connects to the other process: sent to the room's owner
                play_anywhere(lambda: [b.ws], got["code"], got["token"], got["seat"], seen[0], deadline),
                play_anywhere(lambda: [a.ws], ben["code"], ben["token"], ben["seat"], seen[1], deadline))

        assert asyncio.run(both_seated()) == ["over", "over"]
        # twelve players joining through both processes at once, each polling on both: six rooms of two
        tickets: dict[int, str] = {}

        def run(i: int) -> dict:
            base = servers[i % 2].base
            status, out = http(base, "POST", "/queue", {"game": "mining", "name": f"p{i}"})
            assert status == 201, out
            tickets[i] = out["ticket"]
            t0 = time.time()
            n = 0
            while out["status"] != "matched":
                assert time.time() - t0 < 60, out
                time.sleep(0.1)
                n += 1
                status, out = http(servers[(i + n) % 2].base, "POST", "/queue/poll", {"ticket": tickets[i]})
                assert status == 200, out
            return out

        with ThreadPoolExecutor(12) as pool:
            outs = list(pool.map(run, range(12)))
        rooms: dict[str, list[int]] = {}
        for out in outs:
            rooms.setdefault(out["code"], []).append(out["seat"])
        assert len(rooms) == 6 and all(sorted(s) == [0, 1] for s in rooms.values()), rooms
        # a player waits on a; a is killed; the poll on b keeps the place, and the next arrival meets it
        status, cat = http(a.base, "POST", "/queue", {"game": "knighthawks", "name": "cat"})
        assert cat["status"] == "waiting"
        a.kill()
        status, out = http(b.base, "POST", "/queue/poll", {"ticket": cat["ticket"]})
        assert status == 200 and out["status"] == "waiting"
        status, dan = http(b.base, "POST", "/queue", {"game": "knighthawks", "name": "dan"})
        assert dan["status"] == "matched"
        assert http(b.base, "POST", "/queue/poll", {"ticket": cat["ticket"]})[1]["code"] == dan["code"]
    finally:
        for s in servers:
            s.stop()


def test_share_info_is_one_write_in_flight_per_room_the_latest_wins_and_a_failed_write_is_retried(backing):
    """The owner's live info (connected seats, graces) on a real PostgreSQL and Redis: a burst of 40 connects and
    drops is written once or twice, not 40 times, and the lease row ends with the latest info; changes made while a
    write is held up (its row locked by another transaction) become one more write, with the info as it is then; a
    write the database refuses (a trigger raising) is logged and retried until it is stored, and no task ends
    with an unhandled exception (before: one task and one write per change, and a failed write was an unhandled
    task exception, never retried)."""
    import logging

    from sqlalchemy import event, text

    from deltav.games import load_all
    from deltav.server.cluster import ClusterConfig
    from deltav.server.hub import Hub
    from deltav.server.replicas import live_info
    from deltav.server.rooms import Settings
    from deltav.server.store import Store

    pg, redis = backing
    db = pg.new_database("share")

    class Warnings(logging.Handler):
        def __init__(self):
            super().__init__(logging.WARNING)
            self.lines: list[str] = []

        def emit(self, record):
            self.lines.append(record.getMessage())

    async def until(pred, timeout: float = 60.0) -> bool:
        t0 = time.monotonic()
        while not pred():
            if time.monotonic() - t0 > timeout:
                return False
            await asyncio.sleep(0.05)
        return True

    async def main():
        unhandled: list[dict] = []
        asyncio.get_running_loop().set_exception_handler(lambda _loop, ctx: unhandled.append(ctx))
        store = await Store.open(db)
        hub = Hub(store, Settings(grace_seconds=60, bot_workers=0, chosen_seeds="any",
                                  cluster=ClusterConfig(redis.url, "http://127.0.0.1:1", lease_seconds=30)),
                  load_all())
        await hub.restore()
        warnings = Warnings()
        logging.getLogger("deltav.server").addHandler(warnings)
        writes: list[str] = []

        def count(_conn, _cursor, statement, *_args):
            if statement.lstrip().upper().startswith("UPDATE LEASES SET INFO"):
                writes.append(statement)

        event.listen(store.engine.sync_engine, "before_cursor_execute", count)
        try:
            made = await hub.create("toy", {}, ["human", "human"], 1, None, None)
            await hub.join(made["code"], None, None)
            code = made["code"]
            room = hub.rooms[code]
            replicas = hub.replicas

            async def stored_info() -> dict:
                async with store.engine.connect() as conn:
                    raw = (await conn.execute(text("SELECT info FROM leases WHERE code = :c"), {"c": code})).scalar()
                return json.loads(raw) if raw else {}

            async def flip(n: int) -> None:  # n changes of the live info through the match core's inputs
                for k in range(n):
                    seat = k % 2
                    now = time.time()
                    change = room.match.disconnect if seat in room.match.connected else room.match.connect
                    await room.publish(change(seat, now))

            await until(lambda: not replicas.sharing)
            writes.clear()
            await flip(40)
            assert await until(lambda: not replicas.sharing)
            burst = len(writes)
            assert 1 <= burst <= 2, burst
            assert await stored_info() == json.loads(json.dumps(live_info(room)))

            # a write held up (its row locked by another transaction): changes meanwhile are one more write
            writes.clear()
            async with store.engine.connect() as locker:
                tx = await locker.begin()
                await locker.execute(text("SELECT * FROM leases WHERE code = :c FOR UPDATE"), {"c": code})
                await flip(1)
                assert await until(lambda: len(writes) == 1)  # sent, waiting for the lock
                await flip(7)
                assert code in replicas.stale and len(writes) == 1
                await tx.rollback()
            assert await until(lambda: not replicas.sharing)
            assert len(writes) == 2, writes
            assert await stored_info() == json.loads(json.dumps(live_info(room)))

            # a write the database refuses: logged, retried, stored once the database takes it
            async with store.engine.begin() as conn:
                await conn.execute(text("CREATE FUNCTION refuse() RETURNS trigger AS $$ BEGIN "
                                        "RAISE EXCEPTION 'refused for the test'; END $$ LANGUAGE plpgsql"))
                await conn.execute(text("CREATE TRIGGER refuse BEFORE UPDATE OF info ON leases "
                                        "FOR EACH ROW EXECUTE FUNCTION refuse()"))
            writes.clear()
            await flip(3)
            assert await until(lambda: len(writes) >= 2 and any("sharing the live info failed" in w
                                                                 for w in warnings.lines))
            assert code in replicas.sharing  # still trying
            async with store.engine.begin() as conn:
                await conn.execute(text("DROP TRIGGER refuse ON leases"))
            assert await until(lambda: not replicas.sharing)
            assert await stored_info() == json.loads(json.dumps(live_info(room)))
        finally:
            event.remove(store.engine.sync_engine, "before_cursor_execute", count)
            logging.getLogger("deltav.server").removeHandler(warnings)
            await hub.close()
            await store.close()
        assert unhandled == [], unhandled

    asyncio.run(main())


def test_db_pool_bounds_the_connections_a_process_holds_on_postgresql(backing):
    """``deltav serve --db-pool N``: a process never holds more than N connections to PostgreSQL, however many
    reads and writes come at once (they queue for the pool); counted on the real server (pg_stat_activity)."""
    import asyncio

    import asyncpg

    from deltav.server.store import Store

    pg, _redis = backing
    db = pg.new_database("pooled")

    async def main() -> int:
        store = await Store.open(db, pool=3)
        watch = await asyncpg.connect(db.replace("postgresql+asyncpg", "postgresql"))
        most = 0

        async def count() -> None:
            nonlocal most
            while True:
                n = await watch.fetchval("SELECT count(*) FROM pg_stat_activity WHERE datname = 'pooled' "
                                         "AND pid <> pg_backend_pid()")
                most = max(most, n)
                await asyncio.sleep(0.005)

        counter = asyncio.create_task(count())
        try:
            async def read() -> None:
                async with store.engine.connect() as conn:
                    await conn.exec_driver_sql("SELECT pg_sleep(0.05)")

            await asyncio.gather(*(read() for _ in range(24)))
            assert store.engine.pool.size() == 3
        finally:
            counter.cancel()
            await watch.close()
            await store.close()
        return most

    most = asyncio.run(main())
    assert 1 <= most <= 3, most


def test_db_pool_out_of_bounds_is_refused_with_the_reason():
    out = subprocess.run([sys.executable, "-m", "deltav.cli", "serve", "--db-pool", "0", "--port", "0"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode != 0 and "--db-pool must be 1 to 1000 connections" in out.stderr, out.stderr[-500:]
    assert "Traceback" not in out.stderr
