"""``GET /rooms/{code}/briefing?match=N&seat=S``: the game's briefing of a room's match for a seat (absent: a
spectator) with the seats' names; 404 for an unknown room, 400 naming the field for a bad match or seat."""

from __future__ import annotations

import pytest

from tests.server.helpers import room_socket
from tests.server.test_protocol import client, state, until


def test_the_briefing_of_a_seat_and_a_spectator_with_the_seats_names(tmp_path):
    with client(tmp_path) as c:
        made = c.post("/rooms", json={"game": "toy", "seats": ["human", "bot:easy"], "seed": 3, "name": "ann"}).json()
        code = made["code"]
        r = c.get(f"/rooms/{code}/briefing?match=1&seat=0")
        assert r.status_code == 200
        b = r.json()
        assert b["title"] == "Toy race (test only): Standard" and [s["name"] for s in b["sides"]] == ["ann", "Easy bot"]
        assert b["notes"] == ["You are ann: bid high to move first."]
        spectator = c.get(f"/rooms/{code.lower()}/briefing").json()  # the current match, a spectator
        assert spectator["notes"] == [] and spectator["sides"] == b["sides"]


def test_names_follow_the_seats_and_an_earlier_match_keeps_its_own(tmp_path):
    with client(tmp_path) as c:
        made = c.post("/rooms", json={"game": "toy", "seats": ["human", "human"], "seed": 3}).json()
        code = made["code"]
        assert [s["name"] for s in c.get(f"/rooms/{code}/briefing").json()["sides"]] == ["Player 1", "Player 2"]
        joined = c.post(f"/rooms/{code}/join", json={"name": "ben"}).json()
        assert [s["name"] for s in c.get(f"/rooms/{code}/briefing?seat=1").json()["sides"]] == ["Player 1", "ben"]
        with room_socket(c, f"/ws/{code}?token={made['token']}") as a, \
                room_socket(c, f"/ws/{code}?token={joined['token']}") as b:
            state(a)
            a.send_json({"type": "resign"})
            until(a, lambda m: m["type"] == "ended")
            a.send_json({"type": "rematch"})
            b.send_json({"type": "rematch"})
            until(b, lambda m: m["type"] == "rematch")
        # match 2: the seats rotated, so are the names; match 1 is briefed as it was
        assert [s["name"] for s in c.get(f"/rooms/{code}/briefing").json()["sides"]] == ["ben", "Player 2"]
        assert [s["name"] for s in c.get(f"/rooms/{code}/briefing?match=1").json()["sides"]] == ["Player 1", "ben"]


@pytest.mark.parametrize("query,field", [
    ("match=0", "match"), ("match=2", "match"), ("match=x", "match"), ("match=-1", "match"),
    ("seat=2", "seat"), ("seat=-1", "seat"), ("seat=one", "seat"), ("match=1&seat=9", "seat"),
])
def test_bad_parameters_are_refused_naming_the_field(tmp_path, query, field):
    with client(tmp_path) as c:
        code = c.post("/rooms", json={"game": "toy", "seats": ["human", "human"]}).json()["code"]
        r = c.get(f"/rooms/{code}/briefing?{query}")
        assert r.status_code == 400 and r.json()["error"] == "bad_request" and r.json()["field"] == field


def test_an_unknown_room_is_404(tmp_path):
    with client(tmp_path) as c:
        for code in ("ZZZZZ", "not-a-code"):
            r = c.get(f"/rooms/{code}/briefing")
            assert r.status_code == 404 and r.json()["error"] == "unknown_room"
