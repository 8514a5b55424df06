"""The optional turn timer (off by default): validated at creation, shown to every viewer as a UTC deadline,
a forfeit or the easy bot's move when a human seat's time is up, never for bot seats, and the same deadline
after a restart (it follows from stored timestamps)."""

from __future__ import annotations

import time
from datetime import datetime

import pytest

from deltav.core.records import MatchRecord, replay
from tests.server.helpers import room_socket
from tests.server.test_protocol import client, state, toy_room, until


def room_with_clock(c, clock, seats=("human", "human"), seed=3):
    r = c.post("/rooms", json={"game": "toy", "seats": list(seats), "seed": seed, "clock": clock})
    assert r.status_code == 201, r.text
    body = r.json()
    tokens = [body["token"]]
    for _ in range(list(seats).count("human") - 1):
        tokens.append(c.post(f"/rooms/{body['code']}/join", json={}).json()["token"])
    return body["code"], tokens


def seconds_until(iso: str) -> float:
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp() - time.time()


@pytest.mark.parametrize("clock,field", [
    ("60", "clock"),
    ({"turn_seconds": "60"}, "clock.turn_seconds"),
    ({"turn_seconds": 0}, "clock.turn_seconds"),
    ({"turn_seconds": True}, "clock.turn_seconds"),
    ({"turn_seconds": 10, "on_timeout": "pass"}, "clock.on_timeout"),
    ({"turn_seconds": 10, "extra": 1}, "clock.extra"),
])
def test_a_bad_clock_is_refused_naming_the_field(tmp_path, clock, field):
    with client(tmp_path) as c:
        r = c.post("/rooms", json={"game": "toy", "seats": ["human", "human"], "clock": clock})
        assert r.status_code == 400 and r.json()["error"] == "bad_clock" and r.json()["field"] == field, r.text
        assert field in r.json()["message"]
        assert c.get("/rooms").json() == []


def test_no_clock_by_default(tmp_path):
    with client(tmp_path) as c:
        code, _ = toy_room(c)
        assert c.get(f"/rooms/{code}").json()["clock"] is None


def test_a_late_seat_forfeits_and_every_viewer_saw_the_deadline(tmp_path):
    with client(tmp_path) as c:
        code, tokens = room_with_clock(c, {"turn_seconds": 0.4, "on_timeout": "forfeit"})
        with room_socket(c, f"/ws/{code}?token={tokens[0]}") as a, room_socket(c, f"/ws/{code}") as spec:
            clock = state(spec)["room"]["clock"]
            assert clock["turn_seconds"] == 0.4 and clock["on_timeout"] == "forfeit" and clock["seats"] == [0, 1]
            assert 0 < seconds_until(clock["deadline"]) <= 0.4
            a.send_json({"type": "submit", "step": 0, "action": {"type": "bid", "amount": 1}})
            after = until(spec, lambda m: m["type"] == "state" and m["snapshot"]["deciding"][0]["submitted"])
            assert after["room"]["clock"]["seats"] == [1]  # a buffered choice does not restart the node's clock
            assert after["room"]["clock"]["deadline"] == clock["deadline"]
            forfeit = until(a, lambda m: m["type"] == "forfeit")
            assert forfeit["seat"] == 1 and forfeit["winners"] == [0] and "turn time" in forfeit["reason"]
            final = state(spec)
            assert final["room"]["status"] == "finished" and final["room"]["clock"]["deadline"] is None
        record = c.get(f"/rooms/{code}/record").json()
        assert record["ending"]["kind"] == "forfeit" and record["ending"]["seats"] == [1]  # through Session.end
        assert record["result"]["reason"] == "forfeit" and record["returns"] == [1.0, -1.0]
        replay(MatchRecord.from_json(record))


def test_on_timeout_bot_plays_the_late_seats_moves_and_never_clocks_a_bot(tmp_path):
    """Nobody moves: the easy bot plays every human move when its time is up, announced; the bot seat is never
    timed (it has no deadline even while deciding)."""
    with client(tmp_path) as c:
        code, tokens = room_with_clock(c, {"turn_seconds": 0.05, "on_timeout": "bot"}, seats=("human", "bot:random"))
        with room_socket(c, f"/ws/{code}") as spec:
            timeouts, last = 0, None
            for _ in range(2000):
                msg = spec.receive_json()
                if msg["type"] == "timeout":
                    assert msg["seat"] == 0 and msg["played_by"] == "bot:easy" and "action" not in msg
                    timeouts += 1
                elif msg["type"] == "state":
                    last = msg
                    assert 1 not in (msg["room"]["clock"]["seats"] or [])
                    if msg["room"]["status"] == "finished":
                        break
            assert last["room"]["status"] == "finished" and timeouts > 3
        record = c.get(f"/rooms/{code}/record").json()
        replay(MatchRecord.from_json(record))
        assert record["result"] is not None


def test_the_deadline_survives_a_restart(tmp_path):
    with client(tmp_path, "r.db") as c:
        code, tokens = room_with_clock(c, {"turn_seconds": 1.5, "on_timeout": "forfeit"})
        with room_socket(c, f"/ws/{code}?token={tokens[0]}") as a:
            a.send_json({"type": "submit", "step": 0, "action": {"type": "bid", "amount": 1}})
            until(a, lambda m: m["type"] == "accepted")
        deadline = c.get(f"/rooms/{code}").json()["clock"]["deadline"]
    with client(tmp_path, "r.db") as c:  # a new server on the same database: the same deadline
        assert c.get(f"/rooms/{code}").json()["clock"]["deadline"] == deadline
        time.sleep(max(0.0, seconds_until(deadline)) + 0.3)
        info = c.get(f"/rooms/{code}").json()
        assert info["status"] == "finished" and info["forfeit"]["seat"] == 1
