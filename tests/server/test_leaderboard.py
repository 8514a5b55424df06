"""The leaderboard: finished matches on a live server become Glicko-2 (two players) and openskill (3-4
players) ratings of bots and named humans, in JSON and on a page; provisional until enough games."""

from __future__ import annotations

import time

import pytest

from deltav.client import Seat, create_room
from deltav.server.rooms import Settings
from tests.server.helpers import ThreadServer, hello_connect, http


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    db = tmp_path_factory.mktemp("lb") / "lb.db"
    with ThreadServer(f"sqlite+aiosqlite:///{db}", Settings(grace_seconds=0, bot_workers=0)) as srv:
        yield srv


def wait_finished(base: str, code: str, timeout: float = 120) -> dict:
    t0 = time.time()
    while time.time() - t0 < timeout:
        status, room = http(base, "GET", f"/rooms/{code}")
        if room["status"] == "finished":
            return room
        time.sleep(0.1)
    raise TimeoutError(code)


def test_finished_matches_become_ratings(live):
    status, empty = http(live.base, "GET", "/leaderboard?game=tactical")
    assert status == 200 and empty["matches"] == 0 and empty["two_player"]["rows"] == []
    codes = []
    for k in range(6):  # bots only: the room plays itself
        seats = ["bot:easy", "bot:random"] if k % 2 == 0 else ["bot:random", "bot:easy"]
        codes.append(create_room(live.base, "tactical", seats, {"scenario": "duel"}, seed=k)["code"])
    # a named human (a client playing the first legal action) against the easy bot
    room = create_room(live.base, "tactical", ["human", "bot:easy"], {"scenario": "duel"}, seed=77, name="ann")
    with Seat(live.base, room["code"], room["token"]) as seat:
        seat.play(lambda msg: 0)
    codes.append(room["code"])
    records = {}
    for c in codes:
        wait_finished(live.base, c)
        records[c] = http(live.base, "GET", f"/rooms/{c}/record")[1]
    status, board = http(live.base, "GET", "/leaderboard?game=tactical")
    assert status == 200 and board["matches"] == 7
    rows = {r["name"]: r for r in board["two_player"]["rows"]}
    assert set(rows) == {"bot:easy", "bot:random", "human:ann"}
    assert rows["bot:easy"]["games"] == 7 and rows["bot:random"]["games"] == 6 and rows["human:ann"]["games"] == 1
    easy_wins = sum(1 for c in codes if records[c]["result"]["winners"]
                    and records[c]["seats"][records[c]["result"]["winners"][0]] == "bot:easy")
    assert rows["bot:easy"]["wins"] == easy_wins
    assert rows["human:ann"]["provisional"] and rows["human:ann"]["rd"] > 110
    for r in rows.values():
        assert r["interval"][0] < r["rating"] < r["interval"][1]
    # the page shows the same table
    import urllib.request

    with urllib.request.urlopen(live.base + "/leaderboard.html?game=tactical") as r:
        text = r.read().decode()
    assert "human:ann" in text and "bot:easy" in text and "Glicko-2" in text


def test_free_for_all_uses_openskill(live):
    code = create_room(live.base, "mining", ["bot:easy", "bot:normal", "bot:random"], {"players": 3}, seed=5)["code"]
    wait_finished(live.base, code)
    status, board = http(live.base, "GET", "/leaderboard?game=mining")
    assert status == 200 and board["matches"] == 1
    assert board["free_for_all"]["system"] == "openskill"
    assert {r["name"] for r in board["free_for_all"]["rows"]} == {"bot:easy", "bot:normal", "bot:random"}
    assert all(r["provisional"] for r in board["free_for_all"]["rows"])


def test_bad_leaderboard_queries(live):
    assert http(live.base, "GET", "/leaderboard")[0] == 400
    status, body = http(live.base, "GET", "/leaderboard?game=chess")
    assert status == 400 and body["error"] == "unknown_game"


# --- farming (issue 32, item 9) ---------------------------------------------------------------------------------
# Before: one client played both human seats under chosen names with a 0.05 s turn timer: 30 rated matches in
# 1.4 s. Only matches between distinct connected clients, with no turn timer under 20 s, are rated now.


def post_from(srv, source: str, path: str, body: dict) -> dict:
    import http.client
    import json

    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=30, source_address=(source, 0))
    try:
        conn.request("POST", path, body=json.dumps(body), headers={"content-type": "application/json"})
        r = conn.getresponse()
        out = json.loads(r.read())
        assert r.status in (200, 201), out
        return out
    finally:
        conn.close()


def finish_by_forfeit(srv, creator: str, joiner: str, player: str, names: tuple[str, str], clock: dict | None = None):
    """A tactical duel between two named seats: seat 0 taken from ``creator``, seat 1 from ``joiner``; both seats
    connect (seat 0's socket from ``creator``, seat 1's from ``player``); then seat 1 leaves and, once its grace
    has run out, seat 0 claims the win (or the turn timer ends the match first). Returns the finished room."""
    import asyncio
    import json


    body = {"game": "tactical", "scenario": "duel", "seats": ["human", "human"], "name": names[0]}
    if clock:
        body["clock"] = clock
    made = post_from(srv, creator, "/rooms", body)
    joined = post_from(srv, joiner, f"/rooms/{made['code']}/join", {"name": names[1]})
    url = f"{srv.ws}/ws/{made['code']}"

    async def main():
        async with hello_connect(f"{url}?token={made['token']}", local_addr=(creator, 0)) as a:
            async with hello_connect(f"{url}?token={joined['token']}", local_addr=(player, 0)) as b:
                await b.recv()
            claimed = False
            while True:  # seat 1 has left: its grace runs out (or the timer did already)
                msg = json.loads(await asyncio.wait_for(a.recv(), 60))
                if msg["type"] == "state" and msg["room"]["status"] == "finished":
                    return msg["room"]
                if msg["type"] == "state" and msg["room"]["claimable"] == [1] and not claimed:
                    await a.send(json.dumps({"type": "claim"}))
                    claimed = True

    return asyncio.run(main())


@pytest.fixture(scope="module")
def farm(tmp_path_factory):
    db = tmp_path_factory.mktemp("farm") / "farm.db"
    with ThreadServer(f"sqlite+aiosqlite:///{db}", Settings(grace_seconds=0.3, bot_workers=0)) as srv:
        yield srv


def test_one_client_playing_both_seats_or_a_quick_timer_is_not_rated(farm):
    a, b = "127.0.0.1", "127.0.0.2"
    for _ in range(3):  # the farmer alone, both seats
        room = finish_by_forfeit(farm, a, a, a, ("farmer", "victim"))
        assert room["forfeit"]["winners"] == [0]
    finish_by_forfeit(farm, a, b, a, ("farmer", "victim"))  # the second seat taken elsewhere, played from here
    finish_by_forfeit(farm, a, b, b, ("farmer", "victim"), clock={"turn_seconds": 0.05, "on_timeout": "forfeit"})
    status, board = http(farm.base, "GET", "/leaderboard?game=tactical")
    assert status == 200 and board["matches"] == 0 and board["unrated"] == 5, board
    assert board["two_player"]["rows"] == []
    # two clients, no quick timer: rated
    room = finish_by_forfeit(farm, a, b, b, ("farmer", "victim"))
    assert room["forfeit"]["winners"] == [0]
    status, board = http(farm.base, "GET", "/leaderboard?game=tactical")
    assert board["matches"] == 1 and board["unrated"] == 5
    rows = {r["name"]: r for r in board["two_player"]["rows"]}
    assert rows["human:farmer"]["games"] == rows["human:victim"]["games"] == 1 and rows["human:farmer"]["wins"] == 1


def test_why_a_match_is_not_rated():
    from types import SimpleNamespace as Row

    from deltav.server.leaderboard import unrated_because

    seats = [Row(seat=0, spec="human", name="ann"), Row(seat=1, spec="human", name="ben")]
    fine = {"clients": {"0": ["a"], "1": ["b"]}, "played": [0, 1]}
    assert unrated_because(seats, fine) is None
    assert unrated_because(seats, {**fine, "clock": {"turn_seconds": 60}}) is None
    assert unrated_because(seats, {**fine, "clock": {"turn_seconds": 5}}) == "a turn timer under 20 s"
    assert unrated_because(seats, {**fine, "clients": {"0": ["a"], "1": ["b", "a"]}}) == "one client held two human seats"
    assert unrated_because(seats, {**fine, "played": [0]}) == "a human seat never connected"
    assert unrated_because(seats, {"played": [0, 1]}) == "a human seat's client is unknown"  # matches of old servers
    assert unrated_because([seats[0], Row(seat=1, spec="human", name=None)], fine) == "a human seat has no name"
    assert unrated_because([seats[0], Row(seat=1, spec="human", name="ann")], fine) == "the same entrant in every seat"
    bots = [Row(seat=0, spec="bot:easy", name=None), Row(seat=1, spec="bot:random", name=None)]
    assert unrated_because(bots, {}) is None
    assert unrated_because([seats[0], bots[0]], {"clients": {"0": ["a"]}, "played": [0]}) is None
