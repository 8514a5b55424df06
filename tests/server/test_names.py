"""The seats' names on the server: a bot seat is named by its level, a free human seat "Player N" until someone
takes it and names it; the match's texts (log, legal entries) and the snapshot's ``names`` follow, and the
archived record keeps them (``meta.names``)."""

from __future__ import annotations

from deltav.server.rooms import bot_name
from tests.server.helpers import room_socket
from tests.server.test_protocol import client, state, until


def test_bot_names_are_their_level_in_words():
    assert bot_name("bot:hard") == "Hard bot"
    assert bot_name("bot:easy") == "Easy bot"
    assert bot_name("bot:ismcts:iterations=200") == "Ismcts bot"


def test_a_bot_seat_is_named_by_its_level_and_the_log_uses_the_names(tmp_path):
    with client(tmp_path) as c:
        made = c.post("/rooms", json={"game": "toy", "seats": ["human", "bot:easy"], "seed": 3, "name": "ann"}).json()
        with room_socket(c, f"/ws/{made['code']}?token={made['token']}") as ws:
            snap = state(ws)["snapshot"]
            assert snap["names"] == ["ann", "Easy bot"]
            ws.send_json({"type": "submit", "step": snap["step"], "action": {"type": "bid", "amount": 1}})
            states = []
            until(ws, lambda m: m["type"] == "state" and (states.append(m) or m["snapshot"]["step"] >= 2))
            texts = [e["text"] for m in states for e in m["events"]]
            assert "ann placed a bid" in texts and "Easy bot placed a bid" in texts


def test_a_free_seat_is_player_n_until_taken_and_named(tmp_path):
    with client(tmp_path) as c:
        made = c.post("/rooms", json={"game": "toy", "seats": ["human", "human"], "seed": 3}).json()
        code = made["code"]
        with room_socket(c, f"/ws/{code}?token={made['token']}") as ws, room_socket(c, f"/ws/{code}") as spy:
            assert state(ws)["snapshot"]["names"] == ["Player 1", "Player 2"]
            assert state(spy)["snapshot"]["names"] == ["Player 1", "Player 2"]
            joined = c.post(f"/rooms/{code}/join", json={"name": "ben"}).json()
            assert until(ws, lambda m: m["type"] == "state" and m["room"]["status"] == "live")["snapshot"]["names"] == \
                ["Player 1", "ben"]
            # the names changed, so every text was written again: each viewer gets its log whole again
            renamed = until(spy, lambda m: m["type"] == "state" and m["room"]["status"] == "live")
            assert renamed["snapshot"]["names"] == ["Player 1", "ben"] and "log" in renamed["snapshot"]
            with room_socket(c, f"/ws/{code}?token={joined['token']}") as ws2:
                snap = state(ws2)["snapshot"]
                ws.send_json({"type": "submit", "step": snap["step"], "action": {"type": "bid", "amount": 1}})
                ws2.send_json({"type": "submit", "step": snap["step"], "action": {"type": "bid", "amount": 2}})
                msg = until(spy, lambda m: m["type"] == "state" and m["snapshot"]["step"] == 2)
                assert "log" not in msg["snapshot"]  # only the new entries, once
                texts = [e["text"] for e in msg["events"]]
                assert texts == ["Player 1 placed a bid", "ben placed a bid", "bids 1 and 2: ben moves first"]
