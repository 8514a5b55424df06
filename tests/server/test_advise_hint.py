"""The ``advise`` and ``hint`` WebSocket messages: the astrogation assistant from the seat's own view, the hard
bot's choice in games against a bot, and their refusals (spectators, games between people, bad requests)."""

from __future__ import annotations

from starlette.testclient import TestClient

from deltav.server.app import create_app
from deltav.server.rooms import Settings
from tests.server.helpers import room_socket

FAST = dict(grace_seconds=0, bot_workers=0, chosen_seeds="any")


def client(tmp_path) -> TestClient:
    return TestClient(create_app(f"sqlite+aiosqlite:///{tmp_path / 's.db'}", Settings(**FAST)))


def until(ws, pred, limit=200) -> dict:
    for _ in range(limit):
        msg = ws.receive_json()
        if pred(msg):
            return msg
    raise AssertionError("no such message")


def room(c, seats, seed=5, game="tactical", options=None):
    r = c.post("/rooms", json={"game": game, "seats": seats, "seed": seed, "name": "ann",
                               "options": {"scenario": "biplanetary"} if options is None else options})
    assert r.status_code == 201, r.text
    return r.json()["code"], r.json()["token"]


def test_advice_and_a_hint_against_a_bot(tmp_path):
    with client(tmp_path) as c:
        code, token = room(c, ["human", "bot:random"])
        with room_socket(c, f"/ws/{code}?token={token}") as ws:
            snap = until(ws, lambda m: m["type"] == "state")["snapshot"]
            ws.send_json({"type": "advise", "id": 7,
                          "request": {"ship": "p0s0", "goal": {"kind": "body", "body": "Venus"}}})
            got = until(ws, lambda m: m.get("id") == 7)
            assert got["type"] == "advice" and got["advice"]["found"] and got["advice"]["turns"] >= 5
            first = got["advice"]["steps"][0]["order"]
            assert first in [e["action"] for e in snap["legal"]]
            ws.send_json({"type": "hint", "id": "h"})
            hint = until(ws, lambda m: m.get("id") == "h")
            assert hint["type"] == "hint" and hint["step"] == snap["step"]
            assert hint["action"] in [e["action"] for e in snap["legal"]] and hint["text"]
            # a bad request: the field named, the connection stays open
            ws.send_json({"type": "advise", "id": 8, "request": {"ship": "p0s0", "goal": {"kind": "moon"}}})
            bad = until(ws, lambda m: m.get("id") == 8)
            assert bad["type"] == "error" and bad["code"] == "malformed_action" and bad["field"] == "request.goal.kind"
            ws.send_json({"type": "advise", "id": 9, "request": {"ship": "p1s0", "goal": {"kind": "body",
                                                                                         "body": "Mars"}}})
            assert until(ws, lambda m: m.get("id") == 9)["rule"] == "tactical.advise.not_yours"
            ws.send_json({"type": "ping", "id": 10})
            assert until(ws, lambda m: m.get("id") == 10)["type"] == "pong"
        with room_socket(c, f"/ws/{code}") as spectator:
            until(spectator, lambda m: m["type"] == "state")
            spectator.send_json({"type": "advise", "id": 1, "request": {}})
            assert until(spectator, lambda m: m.get("type") == "error")["code"] == "spectator"
            spectator.send_json({"type": "hint", "id": 2})
            assert until(spectator, lambda m: m.get("type") == "error")["code"] == "spectator"


def test_no_hints_between_people_and_no_advice_in_games_without_it(tmp_path):
    with client(tmp_path) as c:
        code, token = room(c, ["human", "human"])
        with room_socket(c, f"/ws/{code}?token={token}") as ws:
            ws.send_json({"type": "hint", "id": 1})
            assert until(ws, lambda m: m.get("type") == "error")["code"] == "no_hints"
        code, token = room(c, ["human", "bot:random"], game="toy", options={})
        with room_socket(c, f"/ws/{code}?token={token}") as ws:
            ws.send_json({"type": "advise", "id": 1, "request": {}})
            err = until(ws, lambda m: m.get("type") == "error")
            assert err["code"] == "illegal_action" and err["rule"] == "protocol.advise"


def test_a_hint_that_fails_inside_the_server_still_gets_its_answer(tmp_path, monkeypatch):
    """A bug on the way to the hint (here: the bot pool raising) is answered with an ``internal`` error carrying
    the request's id, so the client's pending request ends instead of waiting forever; the room plays on."""
    from deltav.server.bots import BotRunner

    async def broken(self, bot, decision, urgent=False):
        raise RuntimeError("the bot pool broke")

    with client(tmp_path) as c:
        code, token = room(c, ["human", "bot:random"])
        with room_socket(c, f"/ws/{code}?token={token}") as ws:
            snap = until(ws, lambda m: m["type"] == "state")["snapshot"]
            monkeypatch.setattr(BotRunner, "decide", broken)
            ws.send_json({"type": "hint", "id": "h1"})
            err = until(ws, lambda m: m.get("id") == "h1")
            assert err["type"] == "error" and err["code"] == "internal"
            monkeypatch.undo()
            ws.send_json({"type": "hint", "id": "h2"})
            hint = until(ws, lambda m: m.get("id") == "h2")
            assert hint["type"] == "hint" and hint["step"] == snap["step"]


def test_the_reach_shadow_through_the_socket(tmp_path):
    """Issue 26: ``advise`` with ``{"kind": "reach"}`` answers, from the seat's own view, where each enemy ship
    it sees could end its next move (Duel without fog: the enemy frigate is seen from the start)."""
    with client(tmp_path) as c:
        code, token = room(c, ["human", "bot:random"], options={"scenario": "duel", "fog_of_war": False})
        with room_socket(c, f"/ws/{code}?token={token}") as ws:
            until(ws, lambda m: m["type"] == "state")
            ws.send_json({"type": "advise", "id": 3, "request": {"kind": "reach"}})
            got = until(ws, lambda m: m.get("id") == 3)
            assert got["type"] == "advice" and got["advice"]["kind"] == "reach"
            (ship,) = got["advice"]["ships"]
            assert ship["ship"] == "p1s0" and ship["type"] == "frigate" and ship["drift"]
            assert 7 <= len(ship["hexes"]) <= 19 and {h["burns"] for h in ship["hexes"]} <= {0, 1, 2}
