"""The legal entries of a snapshot: their notes built once per (seat, step) however many sockets, reconnects and
spectators show them; each distinct action's JSON and text built once per process (``deltav.server.legal_entries``);
and the entries equal to the plain ``Session``'s in every game."""

from __future__ import annotations

import contextlib
from collections import Counter, OrderedDict

import pytest

from deltav.core.protocol import Action, get_game
from deltav.core.session import Session
from deltav.server import legal_entries
from tests.server.helpers import choose, room_socket
from tests.server.test_live import CLIENT_SEED, MATCHES
from tests.server.test_protocol import client, until


def latest(ws) -> dict:
    """The newest snapshot a socket was sent: a ping's pong comes after every message queued before it."""
    ws.send_json({"type": "ping"})
    snap = None
    while (msg := ws.receive_json())["type"] != "pong":
        if msg["type"] == "state":
            snap = msg["snapshot"]
    return snap


@pytest.mark.parametrize("gid,options", MATCHES, ids=[f"{g}-{o['scenario']}" for g, o in MATCHES])
def test_the_room_session_builds_the_same_snapshots_as_the_plain_session(gid, options):
    game = get_game(gid)
    plain, fast = Session(game, options, 11, ["a", "b"]), legal_entries.RoomSession(game, options, 11, ["a", "b"])
    while not plain.is_over():
        for p in plain.deciding():
            want = plain.snapshot(p)
            assert fast.snapshot(p) == want and fast.snapshot(None) == plain.snapshot(None)
            action = choose(CLIENT_SEED, p, want["step"], want["legal"])
            plain.submit(p, action)
            fast.submit(p, action)
    assert fast.record.to_json() == plain.record.to_json()


def test_each_action_is_described_once_and_each_seats_notes_built_once_per_step(tmp_path, monkeypatch):
    game = get_game("mining")
    described: Counter = Counter()
    rooms: list = []
    annotated: Counter = Counter()
    real_describer, real_annotate = game.describer.__func__, game.annotate_legal.__func__

    def describer(cls, options, names=None):  # the match's describer, counting the actions it describes
        inner = real_describer(cls, options, names)

        def describe(v):
            if isinstance(v, Action):
                described[v] += 1
            return inner(v)

        return describe

    def annotate(cls, st, player, actions, view=None):
        annotated[(player, rooms[0].session.step if rooms else None)] += 1
        return real_annotate(cls, st, player, actions)

    monkeypatch.setattr(legal_entries, "_tables", OrderedDict())
    monkeypatch.setattr(game, "describer", classmethod(describer))
    monkeypatch.setattr(game, "annotate_legal", classmethod(annotate))
    with client(tmp_path) as c:
        made = c.post("/rooms", json={"game": "mining", "options": {"scenario": "standard"},
                                      "seats": ["human", "human"], "seed": 4}).json()
        code = made["code"]
        joined = c.post(f"/rooms/{code}/join", json={}).json()
        tokens = [made["token"], joined["token"]]
        room = c.app.state.hub.rooms[code]
        rooms.append(room)
        offered = 0
        again_at: list[dict] = []
        with contextlib.ExitStack() as stack:
            socks = {0: stack.enter_context(room_socket(c, f"/ws/{code}?token={tokens[0]}")),
                     1: stack.enter_context(room_socket(c, f"/ws/{code}?token={tokens[1]}"))}
            watchers = [stack.enter_context(room_socket(c, f"/ws/{code}")) for _ in range(2)]
            last = {s: latest(ws) for s, ws in socks.items()}
            for w in watchers:
                latest(w)
            for n in range(40):
                if room.session.is_over():
                    break
                if n >= 10 and not again_at and last[0]["to_act"]:
                    # seat 0 connects again while it decides: the older socket is replaced, the new one gets the
                    # same legal entries (not built again)
                    again_at.append(last[0])
                    again = stack.enter_context(room_socket(c, f"/ws/{code}?token={tokens[0]}"))
                    until(socks[0], lambda m: m["type"] == "replaced")
                    socks[0] = again
                    last = {s: latest(ws) for s, ws in socks.items()}
                    for w in watchers:
                        latest(w)
                    assert last[0]["step"] == again_at[0]["step"] and last[0]["legal"] == again_at[0]["legal"]
                seat = next(s for s, snap in last.items() if snap["to_act"])
                snap = last[seat]
                offered += len(snap["legal"])
                socks[seat].send_json({"type": "submit", "step": snap["step"],
                                       "action": choose(CLIENT_SEED, seat, snap["step"], snap["legal"])})
                until(socks[seat], lambda m: m["type"] == "accepted")
                last = {s: latest(ws) for s, ws in socks.items()}
                for w in watchers:
                    latest(w)
    assert n >= 30
    assert all(k == 1 for k in annotated.values()), annotated  # once per (seat, step), whoever was shown them
    assert set(described.values()) == {1}, described.most_common(3)  # each distinct action described once
    assert len(described) < offered  # ...although consecutive steps offered many of them again
    assert again_at


def test_matches_with_different_fleets_share_no_action_text():
    """Fleet Action's ships are bought in play: once the fleets spawn, an action's text names the ship by the
    class its match bought ("Alice's corvette B"), so the process-wide table of texts is keyed by what the
    describer learned too (two matches with different fleets must not read each other's words). Both rooms'
    entries stay equal to a plain session's at every step."""
    game = get_game("tactical")
    options = game.resolve_options({"scenario": "fleet_action"})
    pairs = [(Session(game, options, seed, ["a", "b"]), legal_entries.RoomSession(game, options, seed, ["a", "b"]))
             for seed in (5, 6)]
    spawned = 0
    for _ in range(400):
        for k, (plain, fast) in enumerate(pairs):
            if plain.is_over():
                continue
            for p in plain.deciding():
                want = plain.snapshot(p)
                assert fast.snapshot(p)["legal"] == want["legal"]
                action = choose(CLIENT_SEED + k, p, want["step"], want["legal"])
                plain.submit(p, action)
                fast.submit(p, action)
        spawned = min(sum(e["event"]["type"] == "fleet_spawned" for e in plain.log(None, 0)) for plain, _ in pairs)
        if spawned == 2 and all(plain.step > 40 for plain, _ in pairs):
            break
    assert spawned == 2
    assert pairs[0][1].describe.signature() != pairs[1][1].describe.signature()  # they bought different fleets
    assert not any("'s ship " in e["text"] for plain, _ in pairs for p in range(2) for e in plain.snapshot(p)["legal"])
