"""The one advice channel, the ``suggest`` WebSocket message: the astrogation assistant's plan and the reach shadow
from the seat's own view, the bots' candidates and the hard bot's hint in games against a bot, their refusals
(spectators, games between people, bad requests, over budget, over the rate), and nothing the seat cannot see."""

from __future__ import annotations

import time

import pytest
from starlette.testclient import TestClient

from deltav.core.protocol import json_tokens
from deltav.server.app import create_app
from deltav.server.limits import Limits
from deltav.server.rooms import Settings
from tests.server.helpers import room_socket
from tests.server.test_protocol import until

FAST = dict(grace_seconds=0, bot_workers=0, chosen_seeds="any")


def client(tmp_path) -> TestClient:
    return TestClient(create_app(f"sqlite+aiosqlite:///{tmp_path / 's.db'}", Settings(**FAST)))


def latest(ws) -> dict:
    """The newest snapshot of a seat (a sync answered before the pong that follows it)."""
    ws.send_json({"type": "sync"})
    ws.send_json({"type": "ping", "id": "latest"})
    snap = None
    while True:
        msg = ws.receive_json()
        if msg["type"] == "state":
            snap = msg["snapshot"]
        if msg.get("id") == "latest":
            return snap


def room(c, seats, seed=5, game="tactical", options=None):
    r = c.post("/rooms", json={"game": game, "seats": seats, "seed": seed, "name": "ann",
                               "options": {"scenario": "biplanetary"} if options is None else options})
    assert r.status_code == 201, r.text
    return r.json()["code"], r.json()["token"]


def test_a_plan_a_hint_and_candidates_against_a_bot(tmp_path):
    with client(tmp_path) as c:
        code, token = room(c, ["human", "bot:random"])
        with room_socket(c, f"/ws/{code}?token={token}") as ws:
            snap = until(ws, lambda m: m["type"] == "state")["snapshot"]
            legal = [e["action"] for e in snap["legal"]]
            ws.send_json({"type": "suggest", "id": 7, "plan": {"ship": "p0s0", "goal": {"kind": "body", "body": "Venus"}}})
            got = until(ws, lambda m: m.get("id") == 7)
            assert got["type"] == "suggestion" and got["step"] == snap["step"] and "candidates" not in got
            assert got["plan"]["found"] and got["plan"]["turns"] >= 5
            assert got["plan"]["steps"][0]["order"] in legal
            ws.send_json({"type": "suggest", "id": "h"})  # neither bots nor plan: the hard bot's hint
            hint = until(ws, lambda m: m.get("id") == "h")
            assert hint["type"] == "suggestion" and hint["step"] == snap["step"] and "plan" not in hint
            (top,) = hint["candidates"]
            assert top["spec"] == "bot:hard" and top["action"] in legal
            assert top["text"] == next(e["text"] for e in snap["legal"] if e["action"] == top["action"])
            ws.send_json({"type": "suggest", "id": "h2"})
            assert until(ws, lambda m: m.get("id") == "h2")["candidates"] == [top]  # the same step, the same answer
            ws.send_json({"type": "suggest", "id": "c", "bots": ["random", "bot:easy"],
                          "plan": {"ship": "p0s0", "goal": {"kind": "orbit", "body": "Mars"}}})
            both = until(ws, lambda m: m.get("id") == "c")
            assert [x["spec"] for x in both["candidates"]] == ["bot:random", "bot:easy"] and both["plan"]["ship"] == "p0s0"
            assert all(x["action"] in legal and x["text"] for x in both["candidates"])
            # bad requests: the field named, the connection stays open
            ws.send_json({"type": "suggest", "id": 8, "plan": {"ship": "p0s0", "goal": {"kind": "moon"}}})
            bad = until(ws, lambda m: m.get("id") == 8)
            assert bad["type"] == "error" and bad["code"] == "malformed_action" and bad["field"] == "request.goal.kind"
            ws.send_json({"type": "suggest", "id": 9, "plan": {"ship": "p1s0", "goal": {"kind": "body", "body": "Mars"}}})
            assert until(ws, lambda m: m.get("id") == 9)["rule"] == "tactical.advise.not_yours"
            ws.send_json({"type": "suggest", "id": 11, "bots": ["bot:easy"] * 5})
            over = until(ws, lambda m: m.get("id") == 11)
            assert over["code"] == "over_budget" and over["field"] == "bots"
            ws.send_json({"type": "suggest", "id": 12, "bots": ["bot:nope"]})
            assert until(ws, lambda m: m.get("id") == 12)["code"] == "bad_candidates"
            for old in ("advise", "hint"):  # the old channels are gone
                ws.send_json({"type": old, "id": old})
                assert until(ws, lambda m, old=old: m.get("id") == old)["code"] == "unknown_type"
            ws.send_json({"type": "ping", "id": 10})
            assert until(ws, lambda m: m.get("id") == 10)["type"] == "pong"
        with room_socket(c, f"/ws/{code}") as spectator:
            until(spectator, lambda m: m["type"] == "state")
            spectator.send_json({"type": "suggest", "id": 1, "plan": {}})
            assert until(spectator, lambda m: m.get("type") == "error")["code"] == "spectator"
            spectator.send_json({"type": "suggest", "id": 2})
            assert until(spectator, lambda m: m.get("type") == "error")["code"] == "spectator"


def test_no_bot_help_between_people_and_no_plan_in_games_without_it(tmp_path):
    with client(tmp_path) as c:
        code, token = room(c, ["human", "human"])
        with room_socket(c, f"/ws/{code}?token={token}") as ws:
            ws.send_json({"type": "suggest", "id": 1})
            assert until(ws, lambda m: m.get("type") == "error")["code"] == "no_bot_help"
            ws.send_json({"type": "suggest", "id": 2, "bots": ["bot:easy"]})
            assert until(ws, lambda m: m.get("type") == "error")["code"] == "no_bot_help"
        code, token = room(c, ["human", "bot:random"], game="toy", options={})
        with room_socket(c, f"/ws/{code}?token={token}") as ws:
            ws.send_json({"type": "suggest", "id": 1, "plan": {}})
            err = until(ws, lambda m: m.get("type") == "error")
            assert err["code"] == "illegal_action" and err["rule"] == "protocol.advise"


def test_the_old_candidates_query_is_refused_with_a_clear_error(tmp_path):
    with client(tmp_path) as c:
        code, _ = room(c, ["human", "bot:random"])
        with room_socket(c, f"/ws/{code}?candidates=bot:easy") as ws:
            err = ws.receive_json()
            assert err["code"] == "bad_candidates" and "suggest" in err["message"]


def test_suggestions_are_rate_limited_per_seat(tmp_path):
    limits = Limits(suggest_per_second=0.01, suggest_burst=2)
    with TestClient(create_app(f"sqlite+aiosqlite:///{tmp_path / 's.db'}", Settings(**FAST, limits=limits))) as c:
        code, token = room(c, ["human", "bot:random"], options={"scenario": "duel", "fog_of_war": False})
        with room_socket(c, f"/ws/{code}?token={token}") as ws:
            until(ws, lambda m: m["type"] == "state")
            for k in range(2):
                ws.send_json({"type": "suggest", "id": k, "plan": {"kind": "reach"}})
                assert until(ws, lambda m, k=k: m.get("id") == k)["type"] == "suggestion"
            ws.send_json({"type": "suggest", "id": 2, "plan": {"kind": "reach"}})
            refused = until(ws, lambda m: m.get("id") == 2)
            assert refused["code"] == "suggest_rate" and refused["retry_after"] > 0
        with room_socket(c, f"/ws/{code}?token={token}") as ws:  # a new socket of the seat: the same bucket
            until(ws, lambda m: m["type"] == "state")
            ws.send_json({"type": "suggest", "id": 4, "plan": {"kind": "reach"}})
            assert until(ws, lambda m: m.get("id") == 4)["code"] == "suggest_rate"


def test_a_suggestion_that_fails_inside_the_server_still_gets_its_answer(tmp_path, monkeypatch):
    """A bug on the way to the hint (here: the bot pool raising) is answered with an ``internal`` error carrying
    the request's id, so the client's pending request ends instead of waiting forever; the room plays on."""
    from deltav.server.bot_workers import BotRunner

    async def broken(self, bot, decision, kind=None, lane=None):
        raise RuntimeError("the bot pool broke")

    with client(tmp_path) as c:
        code, token = room(c, ["human", "bot:random"])
        with room_socket(c, f"/ws/{code}?token={token}") as ws:
            snap = until(ws, lambda m: m["type"] == "state")["snapshot"]
            monkeypatch.setattr(BotRunner, "decide", broken)
            ws.send_json({"type": "suggest", "id": "h1"})
            err = until(ws, lambda m: m.get("id") == "h1")
            assert err["type"] == "error" and err["code"] == "internal"
            monkeypatch.undo()
            ws.send_json({"type": "suggest", "id": "h2"})
            hint = until(ws, lambda m: m.get("id") == "h2")
            assert hint["type"] == "suggestion" and hint["step"] == snap["step"]


def test_the_reach_shadow_through_the_socket(tmp_path):
    """Issue 26: ``suggest`` with the plan ``{"kind": "reach"}`` answers, from the seat's own view, where each enemy
    ship it sees could end its next move (Duel without fog: the enemy frigate is seen from the start)."""
    with client(tmp_path) as c:
        code, token = room(c, ["human", "bot:random"], options={"scenario": "duel", "fog_of_war": False})
        with room_socket(c, f"/ws/{code}?token={token}") as ws:
            until(ws, lambda m: m["type"] == "state")
            ws.send_json({"type": "suggest", "id": 3, "plan": {"kind": "reach"}})
            got = until(ws, lambda m: m.get("id") == 3)
            assert got["type"] == "suggestion" and got["plan"]["kind"] == "reach"
            (ship,) = got["plan"]["ships"]
            assert ship["ship"] == "p1s0" and ship["type"] == "frigate" and ship["drift"]
            assert 7 <= len(ship["hexes"]) <= 19 and {h["burns"] for h in ship["hexes"]} <= {0, 1, 2}


@pytest.mark.parametrize("game,options,bots,plan", [
    ("tactical", {"scenario": "duel", "fog_of_war": True}, ["bot:hard", "bot:easy"], {"kind": "reach"}),
    ("deepspace", {"scenario": "skirmish"}, ["bot:easy", "bot:normal"], None),
])
def test_a_suggestion_in_a_hidden_game_carries_nothing_the_seat_cannot_see(tmp_path, game, options, bots, plan):
    """Fog of war (the enemy frigate unseen) and secret designs: at every decision of seat 0 over several turns,
    the suggestion (the bots' candidates with their words, the reach shadow) holds none of the tokens the true
    state keeps secret from seat 0 (``State.secret_tokens``), and those secrets exist."""
    with client(tmp_path) as c:
        code, token = room(c, ["human", "bot:random"], game=game, options=options)
        hub = c.app.state.hub
        asked = hidden = 0
        with room_socket(c, f"/ws/{code}?token={token}") as ws:
            for k in range(6):
                snap = latest(ws)
                while not snap["to_act"]:
                    time.sleep(0.05)  # the bot's turn: look again (not a timed assertion)
                    snap = latest(ws)
                secret = hub.rooms[code].session.state.secret_tokens(0)  # seat 0 decides: the state waits for it
                hidden += bool(secret)
                ws.send_json({"type": "suggest", "id": k, "bots": bots, **({"plan": plan} if plan else {})})
                got = until(ws, lambda m, k=k: m.get("id") == k)
                assert got["type"] == "suggestion" and got["step"] == snap["step"], got
                assert not json_tokens(got) & secret, json_tokens(got) & secret
                assert [x["spec"] for x in got["candidates"]] == bots
                if plan:
                    assert got["plan"]["ships"] == [] or all(s["ship"] not in secret for s in got["plan"]["ships"])
                asked += 1
                ws.send_json({"type": "submit", "step": snap["step"], "action": got["candidates"][0]["action"]})
        assert asked == 6 and hidden >= 1, (asked, hidden)
