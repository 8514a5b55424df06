"""Each viewer's snapshot is built and encoded once per accepted submission, however many messages show it
(sockets connecting and dropping broadcast the state again), and the text is the snapshot's JSON."""

from __future__ import annotations

import json

from deltav.core.session import Session
from tests.server.helpers import room_socket
from tests.server.test_protocol import client, state, toy_room, until


def test_a_snapshot_is_built_once_per_viewer_and_step(tmp_path, monkeypatch):
    built: list[int | None] = []
    real = Session.snapshot

    def counting(self, seat, since=None, with_log=True):
        built.append(seat)
        return real(self, seat, since, with_log)

    monkeypatch.setattr(Session, "snapshot", counting)
    with client(tmp_path) as c:
        code, tokens = toy_room(c)
        with room_socket(c, f"/ws/{code}?token={tokens[0]}") as a:
            state(a)
            built.clear()
            for _ in range(5):  # seat 1 comes and goes: every time a broadcast to seat 0; spectators come and go
                with room_socket(c, f"/ws/{code}?token={tokens[1]}"):
                    until(a, lambda m: m["type"] == "state")
                until(a, lambda m: m["type"] == "state")
                with room_socket(c, f"/ws/{code}") as spec:
                    watched = state(spec)
            assert built.count(0) == 0 and built.count(None) == 1  # seat 0's text was cached before; one spectator text
            assert watched["snapshot"] == json.loads(json.dumps(real(c.app.state.hub.rooms[code].session, None)))
            a.send_json({"type": "submit", "step": 0, "action": {"type": "bid", "amount": 1}})
            until(a, lambda m: m["type"] == "accepted")
            mine = state(a)["snapshot"]
            assert mine["submitted"]["action"] == {"type": "bid", "amount": 1}  # a new seq: built again
            assert built.count(0) == 1
