"""The leaderboard: finished matches on a live server become Glicko-2 (two players) and openskill (3-4
players) ratings of bots and named humans, in JSON and on a page; provisional until enough games."""

from __future__ import annotations

import time

import pytest

from deltav.client import Seat, create_room
from deltav.server.rooms import Settings
from tests.server.helpers import ThreadServer, http


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
