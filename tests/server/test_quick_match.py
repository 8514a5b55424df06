"""Quick match (server/matchmaking.py) on a real ``deltav serve`` on loopback with a real SQLite file: pairing by
arrival into one room with random seats, one entry per client, cancel, refusals, the bot offer after the wait,
bots in the empty seats of a 3-seat match when everyone waiting agrees, a rated result, a restart and a killed
process losing nobody's place. Distinct clients are distinct addresses, as a reverse proxy names them
(``--trusted-proxy 127.0.0.1`` and ``X-Forwarded-For``). Several processes on PostgreSQL + Redis: test_cluster.py.
"""

from __future__ import annotations

import asyncio
import json
import time
import urllib.error
import urllib.request

import pytest

from deltav.server.matchmaking import Matchmaker
from deltav.server.store import QueueRow
from tests.server.helpers import ProcessServer, hello_connect


def call(base: str, method: str, path: str, body: dict | None = None, addr: str = "10.0.0.1") -> tuple[int, dict]:
    """An HTTP request from the client at ``addr`` (named by the trusted proxy's X-Forwarded-For)."""
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"content-type": "application/json", "x-forwarded-for": addr})
    try:
        with urllib.request.urlopen(req, timeout=15) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def start(db: str, *args: str) -> ProcessServer:
    return ProcessServer(db, "--bot-workers", "0", "--trusted-proxy", "127.0.0.1", *args)


@pytest.fixture
def db(tmp_path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'rooms.db'}"


@pytest.fixture
def server(db):
    s = start(db, "--quick-match-wait", "3600")
    try:
        yield s
    finally:
        s.stop()


def join(base: str, addr: str, game: str = "tactical", **body) -> dict:
    status, out = call(base, "POST", "/queue", {"game": game, **body}, addr)
    assert status == 201, out
    return out


def poll(base: str, ticket: str, addr: str) -> dict:
    status, out = call(base, "POST", "/queue/poll", {"ticket": ticket}, addr)
    assert status == 200, out
    return out


def poll_until(base: str, ticket: str, addr: str, pred, timeout: float = 30.0) -> dict:
    t0 = time.time()
    while True:
        out = poll(base, ticket, addr)
        if pred(out):
            return out
        assert time.time() - t0 < timeout, out
        time.sleep(0.2)


async def welcome(ws_base: str, code: str, token: str) -> dict:
    async with hello_connect(f"{ws_base}/ws/{code}?token={token}") as ws:
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 20))
            if msg["type"] in ("welcome", "error"):
                return msg


def test_two_strangers_are_paired_by_arrival_into_one_room_and_hold_its_seats(server):
    a = join(server.base, "10.0.0.1", name="ann")
    assert a["status"] == "waiting" and a["waiting"] == 1 and a["bot_offer"] is None
    assert a["options"] == {"scenario": "biplanetary"}  # the default scenario, named
    b = join(server.base, "10.0.0.2", name="ben")  # the second arrival's own poll pairs them
    assert b["status"] == "matched"
    a2 = poll(server.base, a["ticket"], "10.0.0.1")
    assert a2["status"] == "matched" and a2["code"] == b["code"] and {a2["seat"], b["seat"]} == {0, 1}
    room = a2["room"]
    assert room["status"] == "live" and [s["name"] for s in room["seats"]][a2["seat"]] == "ann"
    # each token holds its own seat
    for got in (a2, b):
        msg = asyncio.run(welcome(server.ws, got["code"], got["token"]))
        assert msg["type"] == "welcome" and msg["role"] == "player" and msg["seat"] == got["seat"]
    # the answer stays until the entry expires (a poll whose answer was lost is answered again)
    assert poll(server.base, a["ticket"], "10.0.0.1")["code"] == b["code"]
    # a third arrival waits alone: it was not put in the full room
    c = join(server.base, "10.0.0.3")
    assert c["status"] == "waiting" and c["waiting"] == 1
    # a client already put in a room may queue again at once (its matched entry does not count against it)
    again = join(server.base, "10.0.0.1", name="ann")
    assert again["status"] == "matched" and again["code"] != b["code"]  # with the third arrival


def test_seats_are_dealt_at_random_not_by_arrival(server):
    first_seats = set()
    for i in range(20):
        a = join(server.base, f"10.1.{i}.1")
        b = join(server.base, f"10.1.{i}.2")
        assert b["status"] == "matched"
        first_seats.add(poll(server.base, a["ticket"], f"10.1.{i}.1")["seat"])
        if first_seats == {0, 1}:
            break
    assert first_seats == {0, 1}  # the first arrival got each seat (20 tries: 1 in 500,000 to fail by chance)


def test_one_entry_per_client_cancel_and_clear_refusals(server):
    base = server.base
    a = join(base, "10.0.0.1", scenario="duel")
    status, out = call(base, "POST", "/queue", {"game": "tactical"}, "10.0.0.1")
    assert status == 409 and out["error"] == "already_queued"
    # another scenario is another queue: nobody is paired across scenarios
    b = join(base, "10.0.0.2", scenario="blockade")
    assert b["status"] == "waiting"
    status, out = call(base, "POST", "/queue/cancel", {"ticket": a["ticket"]}, "10.0.0.1")
    assert status == 200 and out == {"status": "cancelled"}
    status, out = call(base, "POST", "/queue/poll", {"ticket": a["ticket"]}, "10.0.0.1")
    assert status == 404 and out["error"] == "unknown_ticket"
    a = join(base, "10.0.0.1", scenario="duel")  # the client may join again once it cancelled
    assert a["status"] == "waiting"
    bad = [({"game": "chess"}, 400, "unknown_game"),
           ({"game": "tactical", "scenario": "/etc/passwd"}, 400, "bad_options"),
           ({"game": "tactical", "players": 3}, 400, "bad_options"),
           ({"game": "mining", "players": 9}, 400, "bad_options"),
           ({"game": "tactical", "scenario": 5}, 400, "bad_request"),
           ({}, 400, "bad_request")]
    for body, code, error in bad:
        status, out = call(base, "POST", "/queue", body, "10.0.0.9")
        assert (status, out["error"]) == (code, error), (body, out)
        assert out["message"]
    status, out = call(base, "POST", "/queue/poll", {"ticket": "nonsense-ticket"}, "10.0.0.9")
    assert status == 404 and out["error"] == "unknown_ticket"
    for body in ({}, {"ticket": 5}, {"ticket": None}):
        status, out = call(base, "POST", "/queue/cancel", body, "10.0.0.9")
        assert status == 400 and out["error"] == "bad_request", out
    status, out = call(base, "POST", "/queue/bots", {"ticket": a["ticket"], "bot": "bot:normal"}, "10.0.0.1")
    assert status == 400 and out["error"] == "bad_request"  # two seats: play a bot now instead
    # nothing of that changed the queue: the refused client joins fine, and ann and ben still wait
    assert join(base, "10.0.0.9", scenario="duel")["status"] == "matched"


def test_the_bot_offer_comes_after_the_wait_and_bots_fill_a_three_seat_match_when_all_agree(db):
    s = start(db, "--quick-match-wait", "1")
    try:
        a = join(s.base, "10.0.0.1", game="mining", players=3, name="ann")
        assert a["seats"] == 3 and a["bot_offer"] is None
        b = join(s.base, "10.0.0.2", game="mining", players=3, name="ben")
        assert b["status"] == "waiting" and b["waiting"] == 2
        got = poll_until(s.base, a["ticket"], "10.0.0.1", lambda o: o["bot_offer"] is not None)
        assert got["status"] == "waiting" and got["bot_offer"]["fill"] is True and "bot:normal" in got["bot_offer"]["bots"]
        status, out = call(s.base, "POST", "/queue/bots", {"ticket": a["ticket"], "bot": "bot:nonsense"}, "10.0.0.1")
        assert status == 400 and out["field"] == "bot"
        status, out = call(s.base, "POST", "/queue/bots", {"ticket": a["ticket"], "bot": "bot:easy"}, "10.0.0.1")
        assert status == 200 and out["status"] == "waiting" and out["bots_agreed"] == "bot:easy"  # ben has not agreed
        status, out = call(s.base, "POST", "/queue/bots", {"ticket": b["ticket"], "bot": "bot:hard"}, "10.0.0.2")
        assert status == 200 and out["status"] == "matched"
        a2 = poll(s.base, a["ticket"], "10.0.0.1")
        assert a2["code"] == out["code"] and a2["seat"] != out["seat"]
        status, room = call(s.base, "GET", f"/rooms/{a2['code']}")
        assert room["options"]["players"] == 3 and room["status"] == "live"
        # the oldest's choice fills the one empty seat
        assert sorted(x["spec"] for x in room["seats"]) == ["bot:easy", "human", "human"]
        # three people waiting fill a 3-seat match without bots, offer or not
        c = [join(s.base, f"10.0.1.{i}", game="mining", players=3) for i in range(3)]
        assert c[2]["status"] == "matched"
        status, room = call(s.base, "GET", f"/rooms/{c[2]['code']}")
        assert [x["spec"] for x in room["seats"]] == ["human"] * 3
    finally:
        s.stop()


def test_a_restart_and_a_killed_process_lose_nobodys_place(db):
    s = start(db, "--quick-match-wait", "3600")
    try:
        a = join(s.base, "10.0.0.1", game="knighthawks", name="ann")
    finally:
        s.stop()  # a clean stop
    s = start(db, "--quick-match-wait", "3600")
    try:
        got = poll(s.base, a["ticket"], "10.0.0.1")
        assert got["status"] == "waiting" and got["waited"] >= a["waited"]
        s.kill()  # killed while ann waits
    except BaseException:
        s.stop()
        raise
    s = start(db, "--quick-match-wait", "3600")
    try:
        b = join(s.base, "10.0.0.2", game="knighthawks", name="ben")
        assert b["status"] == "matched"
        assert poll(s.base, a["ticket"], "10.0.0.1")["code"] == b["code"]
    finally:
        s.stop()


def test_a_quick_match_between_distinct_clients_is_rated(server):
    a = join(server.base, "10.0.0.1", scenario="duel", name="ann")
    b = join(server.base, "10.0.0.2", scenario="duel", name="ben")
    a = poll(server.base, a["ticket"], "10.0.0.1")

    async def play() -> None:
        # each socket from its own client too (a match where one address held both seats is not rated)
        async with hello_connect(f"{server.ws}/ws/{a['code']}?token={a['token']}",
                                 additional_headers={"x-forwarded-for": "10.0.0.1"}) as wa, \
                hello_connect(f"{server.ws}/ws/{b['code']}?token={b['token']}",
                              additional_headers={"x-forwarded-for": "10.0.0.2"}) as wb:
            for ws in (wa, wb):
                while json.loads(await asyncio.wait_for(ws.recv(), 20))["type"] != "state":
                    pass
            await wa.send(json.dumps({"type": "resign"}))
            while json.loads(await asyncio.wait_for(wb.recv(), 20))["type"] != "ended":
                pass

    asyncio.run(play())
    status, board = call(server.base, "GET", "/leaderboard?game=tactical")
    assert status == 200 and board["matches"] == 1, board
    assert {r["name"] for r in board["two_player"]["rows"]} == {"human:ann", "human:ben"}


def test_a_crowded_queue_pairs_the_oldest_with_its_rating_band_first():
    """The pairing's choice on real queue rows (no server needed: Matchmaker.choose is pure)."""

    from types import SimpleNamespace

    from deltav.server.rooms import Settings

    mm = Matchmaker(SimpleNamespace(settings=Settings(queue_band_pool=4)))  # type: ignore[arg-type]  # choose reads only settings

    def row(i: int, band: int) -> QueueRow:
        return QueueRow(f"t{i}", f"c{i}", "tactical", {}, "k", 2, None, band, float(i), 100.0)

    few = [row(0, 7), row(1, 9), row(2, 7)]
    assert [e.ticket_hash for e in mm.choose(few, 100.0)[0]] == ["t0", "t1"]  # by arrival: not enough wait
    many = [row(0, 7), row(1, 9), row(2, 8), row(3, 7)]
    assert [e.ticket_hash for e in mm.choose(many, 100.0)[0]] == ["t0", "t3"]  # the same band first
    nearest = [row(0, 7), row(1, 9), row(2, 8), row(3, 10)]
    assert [e.ticket_hash for e in mm.choose(nearest, 100.0)[0]] == ["t0", "t2"]  # else the nearest band
    assert mm.choose([row(0, 7)], 100.0) is None


def test_the_queue_is_the_databases_table(tmp_path):
    """What a killed process leaves is in the file: the queue's rows (ticket hashes, never tickets)."""
    import sqlite3

    db = tmp_path / "q.db"
    s = start(f"sqlite+aiosqlite:///{db}", "--quick-match-wait", "3600")
    try:
        a = join(s.base, "10.0.0.1", game="deepspace", scenario="melee")
        s.kill()
    except BaseException:
        s.stop()
        raise
    rows = sqlite3.connect(db).execute("SELECT ticket_hash, game, key, seats, state FROM queue").fetchall()
    assert len(rows) == 1 and rows[0][1:] == ("deepspace", 'deepspace:{"scenario":"melee"}', 3, "waiting")
    assert a["ticket"] not in json.dumps(rows)


def test_a_closed_tab_is_never_paired_and_its_ticket_says_the_place_was_lost(db):
    """An entry nobody polls for ``queue_stale_seconds`` (a closed tab) is dropped, not paired with the next
    arrival; its ticket then answers ``unknown_ticket`` in words."""
    from deltav.server.rooms import Settings
    from tests.server.helpers import ThreadServer

    with ThreadServer(db, Settings(bot_workers=0, trusted_proxies=("127.0.0.1",), queue_stale_seconds=1.0)) as s:
        gone = join(s.base, "10.0.0.1", game="tactical", scenario="escape")
        time.sleep(1.5)  # longer than the entry may go unpolled
        ben = join(s.base, "10.0.0.2", game="tactical", scenario="escape")
        assert ben["status"] == "waiting" and ben["waiting"] == 1
        status, out = call(s.base, "POST", "/queue/poll", {"ticket": gone["ticket"]}, "10.0.0.1")
        assert status == 404 and out["error"] == "unknown_ticket" and "join the queue again" in out["message"]


def test_a_pairing_whose_process_died_midway_is_given_back(tmp_path):
    """Two entries a pairing took (state ``pairing``) before its process died without making their room: after
    ``queue_stale_seconds`` the next poll gives them back to the queue and pairs them."""
    import sqlite3

    from deltav.server.rooms import Settings
    from tests.server.helpers import ThreadServer

    path = tmp_path / "q.db"
    with ThreadServer(f"sqlite+aiosqlite:///{path}", Settings(bot_workers=0, trusted_proxies=("127.0.0.1",),
                                                              queue_stale_seconds=2.0)) as s:
        ann = join(s.base, "10.0.0.1", game="mining", scenario="variant-b", players=2)
        with sqlite3.connect(path) as conn:  # what a process killed inside Matchmaker.pair leaves
            conn.execute("UPDATE queue SET state = 'pairing', claimed_at = ?", (time.time() - 10,))
        ben = join(s.base, "10.0.0.2", game="mining", scenario="variant-b", players=2)
        assert ben["status"] == "matched"
        assert poll(s.base, ann["ticket"], "10.0.0.1")["code"] == ben["code"]


def test_no_ticket_in_any_log_line(db):
    """The ticket is the seat's token once matched: it travels in bodies only, so no access log line holds it."""
    s = start(db, "--log-level", "info")
    try:
        a = join(s.base, "10.0.0.1", name="ann")
        poll(s.base, a["ticket"], "10.0.0.1")
        b = join(s.base, "10.0.0.2", name="ben")
        a = poll(s.base, a["ticket"], "10.0.0.1")
        assert asyncio.run(welcome(s.ws, a["code"], a["token"]))["seat"] == a["seat"]
        c = join(s.base, "10.0.0.3")
        assert call(s.base, "POST", "/queue/cancel", {"ticket": c["ticket"]}, "10.0.0.3")[0] == 200
        log = s.output()
        assert "POST /queue/poll" in log  # the requests were logged (info)...
        assert all(t not in log for t in (a["token"], b["token"], c["ticket"]))  # ...and no line holds a ticket
    finally:
        s.stop()
