"""Endings on a real server over real WebSockets: ``resign`` in every game, ``claim`` once an absent opponent's
grace has run out (two seats and three), the refusals (a spectator, a match not started or over, nobody absent,
a grace still running), the record download and the replay carrying the ending, the leaderboard rating a
resignation as a loss, a restart keeping the ended match ended, and a rematch after an ending."""

from __future__ import annotations

import json
import time
from contextlib import ExitStack
from http.client import HTTPConnection

import pytest

from deltav.core.protocol import check_summary
from deltav.core.records import MatchRecord, replay
from deltav.server.limits import Limits
from deltav.server.rooms import Settings
from tests.server.helpers import ThreadServer, choose, hello_connect_sync, http, room_socket
from tests.server.test_live import CLIENT_SEED, MATCHES

TIMEOUT = 60.0


class Sock:
    """One synchronous WebSocket of a viewer, reading messages until one is wanted."""

    def __init__(self, stack: ExitStack, srv: ThreadServer, code: str, token: str | None = None,
                 source: str = "127.0.0.1"):
        url = f"{srv.ws}/ws/{code}" + (f"?token={token}" if token else "")
        self.ws = stack.enter_context(hello_connect_sync(url, max_size=2**24, open_timeout=TIMEOUT,
                                                         source_address=(source, 0)))
        self.last: dict | None = None

    def send(self, msg: dict) -> None:
        self.ws.send(json.dumps(msg))

    def until(self, pred) -> dict:
        deadline = time.time() + TIMEOUT
        while True:
            msg = json.loads(self.ws.recv(timeout=max(0.1, deadline - time.time())))
            if msg["type"] == "state":
                self.last = msg
            if pred(msg):
                return msg

    def state(self, pred=lambda m: True) -> dict:
        return self.until(lambda m: m["type"] == "state" and pred(m))

    def error(self) -> dict:
        return self.until(lambda m: m["type"] == "error")


def room(srv: ThreadServer, gid: str = "toy", options: dict | None = None, seats=("human", "human"),
         names=("ann", "ben"), seed: int = 5, joiner: str = "127.0.0.1") -> tuple[str, list[str]]:
    """A room whose other seats are joined from address ``joiner`` (another address: another client, for the
    leaderboard)."""
    status, made = http(srv.base, "POST", "/rooms", {"game": gid, "options": options or {}, "seats": list(seats),
                                                     "seed": seed, "name": names[0]})
    assert status == 201, made
    tokens = [made["token"]]
    for name in names[1:]:
        conn = HTTPConnection("127.0.0.1", srv.port, timeout=TIMEOUT, source_address=(joiner, 0))
        conn.request("POST", f"/rooms/{made['code']}/join", json.dumps({"name": name}),
                     {"content-type": "application/json"})
        r = conn.getresponse()
        joined = json.loads(r.read())
        conn.close()
        assert r.status == 200, joined
        tokens.append(joined["token"])
    return made["code"], tokens


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("endings") / "endings.db"
    settings = Settings(grace_seconds=0.5, bot_workers=0, chosen_seeds="any",
                        limits=Limits.for_load_tests())  # every test's rooms come from this one address
    with ThreadServer(f"sqlite+aiosqlite:///{db}", settings) as srv:
        yield srv


def play_steps(socks: dict[int, Sock], steps: int) -> None:
    """Both seats play their deterministic choices until the match is at ``steps`` (or over)."""
    done: set[tuple[int, int]] = set()
    while True:
        for seat, sock in socks.items():
            snap = sock.state()["snapshot"]
            if snap["status"] == "over" or snap["step"] >= steps:
                return
            if snap["to_act"] and (seat, snap["step"]) not in done:
                done.add((seat, snap["step"]))
                sock.send({"type": "submit", "step": snap["step"], "action": choose(CLIENT_SEED, seat, snap["step"],
                                                                                     snap["legal"])})


@pytest.mark.parametrize("gid,options", MATCHES, ids=[f"{g}-{o['scenario']}" for g, o in MATCHES])
def test_resign_in_each_game_ends_the_match_and_the_record_and_replay_carry_it(server, gid, options):
    code, tokens = room(server, gid, options)
    with ExitStack() as stack:
        socks = {p: Sock(stack, server, code, t) for p, t in enumerate(tokens)}
        spy = Sock(stack, server, code)
        play_steps(socks, 4)
        socks[1].send({"type": "resign", "id": "r1"})
        for viewer in (*socks.values(), spy):
            ended = viewer.until(lambda m: m["type"] == "ended")["ending"]
            assert ended["kind"] == "resign" and ended["seats"] == [1] and ended["winners"] == [0]
            assert ended["reason"] == "ben resigned"
            final = viewer.state(lambda m: m["snapshot"]["status"] == "over")
            assert final["room"]["status"] == "finished" and final["room"]["ending"] == ended
            assert final["snapshot"]["result"]["reason"] == "resign" and final["snapshot"]["returns"] == [1.0, -1.0]
            check_summary(final["snapshot"]["summary"], 2)  # the result dialog's summary rides with it
        step = final["snapshot"]["step"]
        socks[0].send({"type": "submit", "step": step, "action": {"type": "nothing"}})
        assert socks[0].error()["code"] == "game_over"
        socks[0].send({"type": "resign"})
        assert socks[0].error()["code"] == "game_over"
    status, record = http(server.base, "GET", f"/rooms/{code}/record")
    assert status == 200 and record["ending"] == ended and record["result"]["reason"] == "resign"
    assert len(record["steps"]) == ended["step"]
    replay(MatchRecord.from_json(record))
    status, shown = http(server.base, "GET", f"/rooms/{code}/replay?step=100000")
    assert status == 200 and shown["snapshot"]["status"] == "over" and shown["snapshot"]["result"]["reason"] == "resign"
    assert shown["snapshot"]["summary"] == final["snapshot"]["summary"]


def test_resign_refusals_a_spectator_and_a_match_not_started(server):
    code, tokens = room(server)
    with ExitStack() as stack:
        spy = Sock(stack, server, code)
        spy.state()
        spy.send({"type": "resign"})
        assert spy.error()["code"] == "spectator"
        spy.send({"type": "claim"})
        assert spy.error()["code"] == "spectator"
        a = Sock(stack, server, code, tokens[0])
        a.state()
        a.send({"type": "claim", "id": 3})
        refused = a.error()  # ben holds his seat but has not connected: his grace runs
        assert refused["code"] == "grace_running" and refused["id"] == 3
        Sock(stack, server, code, tokens[1]).state()
        a.state(lambda m: m["room"]["seats"][1]["connected"])
        a.send({"type": "claim", "id": 4})
        assert a.error()["code"] == "nobody_absent"
    status, made = http(server.base, "POST", "/rooms", {"game": "toy", "seats": ["human", "human"], "name": "cy"})
    with ExitStack() as stack:
        c = Sock(stack, server, made["code"], made["token"])
        c.state()
        c.send({"type": "resign"})
        assert c.error()["code"] == "not_started"
    assert http(server.base, "GET", f"/rooms/{made['code']}")[1]["status"] == "open"


def test_claim_after_the_grace_of_an_absent_opponent(server):
    code, tokens = room(server)
    with ExitStack() as stack:
        a = Sock(stack, server, code, tokens[0])
        with ExitStack() as gone:
            Sock(gone, server, code, tokens[1]).state()
        left = a.state(lambda m: not m["room"]["seats"][1]["connected"] and m["room"]["seats"][1]["grace_until"])
        assert left["room"]["claimable"] == []
        a.send({"type": "claim"})
        early = a.error()
        assert early["code"] == "grace_running" and "1" in early["grace_until"]
        a.state(lambda m: m["room"]["claimable"] == [1])
        assert a.last["room"]["status"] == "live"
        a.send({"type": "claim"})
        ended = a.until(lambda m: m["type"] == "ended")["ending"]
        assert ended["kind"] == "forfeit" and ended["seats"] == [1] and ended["winners"] == [0]
        assert "ben did not come back" in ended["reason"] and "ann claimed the win" in ended["reason"]
        assert a.until(lambda m: m["type"] == "forfeit")["winners"] == [0]  # the older message too
        assert a.state()["snapshot"]["status"] == "over"
    status, record = http(server.base, "GET", f"/rooms/{code}/record")
    assert record["ending"] == ended and record["returns"] == [1.0, -1.0]
    replay(MatchRecord.from_json(record))


def test_a_player_back_in_time_cannot_be_claimed_against(server):
    code, tokens = room(server)
    with ExitStack() as stack:
        a = Sock(stack, server, code, tokens[0])
        with ExitStack() as gone:
            Sock(gone, server, code, tokens[1]).state()
        a.state(lambda m: m["room"]["claimable"] == [1])
        b = Sock(stack, server, code, tokens[1])  # back after its grace, before anyone claimed
        b.state()
        a.state(lambda m: m["room"]["seats"][1]["connected"] and m["room"]["claimable"] == [])
        a.send({"type": "claim"})
        assert a.error()["code"] == "nobody_absent"


def test_claim_in_a_match_of_three_the_absent_seat_forfeits_and_the_others_win(server):
    code, tokens = room(server, "mining", {"players": 3}, ("human",) * 3, ("ann", "ben", "cy"))
    with ExitStack() as stack:
        a = Sock(stack, server, code, tokens[0])
        b = Sock(stack, server, code, tokens[1])
        with ExitStack() as gone:
            Sock(gone, server, code, tokens[2]).state()
        b.state(lambda m: m["room"]["claimable"] == [2])
        b.send({"type": "claim"})
        for sock in (a, b):
            ended = sock.until(lambda m: m["type"] == "ended")["ending"]
            assert ended["kind"] == "forfeit" and ended["seats"] == [2] and ended["winners"] == [0, 1]
        assert b.state()["snapshot"]["returns"] == [1.0, 1.0, -1.0]


def test_the_leaderboard_rates_a_resignation_and_a_forfeit_as_a_loss(server):
    # two clients (addresses), each seat played from its own: the leaderboard rates only such matches
    code, tokens = room(server, names=("lb-winner", "lb-loser"), joiner="127.0.0.2")
    with ExitStack() as stack:
        Sock(stack, server, code, tokens[0]).state()
        loser = Sock(stack, server, code, tokens[1], source="127.0.0.2")
        loser.state()
        loser.send({"type": "resign"})
        loser.until(lambda m: m["type"] == "ended")
    code, tokens = room(server, names=("lb-stays", "lb-leaves"), joiner="127.0.0.2")  # a win claimed over an absent seat
    with ExitStack() as stack:
        stays = Sock(stack, server, code, tokens[0])
        with ExitStack() as gone:
            Sock(gone, server, code, tokens[1], source="127.0.0.2").state()
        stays.state(lambda m: m["room"]["claimable"] == [1])
        stays.send({"type": "claim"})
        stays.until(lambda m: m["type"] == "ended")
    status, board = http(server.base, "GET", "/leaderboard?game=toy")
    rows = {r["name"]: r for r in board["two_player"]["rows"]}
    for winner, loser in (("lb-winner", "lb-loser"), ("lb-stays", "lb-leaves")):
        assert rows[f"human:{winner}"]["wins"] == 1 and rows[f"human:{winner}"]["games"] == 1
        assert rows[f"human:{loser}"]["wins"] == 0 and rows[f"human:{loser}"]["games"] == 1
        assert rows[f"human:{winner}"]["rating"] > rows[f"human:{loser}"]["rating"]


def test_a_restart_keeps_the_ended_match_ended_and_a_rematch_follows(tmp_path):
    db = f"sqlite+aiosqlite:///{tmp_path / 'restart.db'}"
    settings = Settings(grace_seconds=0.5, bot_workers=0, chosen_seeds="any")
    with ThreadServer(db, settings) as srv:
        code, tokens = room(srv)
        with ExitStack() as stack:
            a = Sock(stack, srv, code, tokens[0])
            a.send({"type": "submit", "step": 0, "action": {"type": "bid", "amount": 1}})  # buffered, then void
            a.until(lambda m: m["type"] == "accepted")
            a.send({"type": "resign"})
            ended = a.until(lambda m: m["type"] == "ended")["ending"]
    with ThreadServer(db, settings) as srv:  # a new server on the same database
        info = http(srv.base, "GET", f"/rooms/{code}")[1]
        assert info["status"] == "finished" and info["ending"] == ended
        with ExitStack() as stack:
            spy = Sock(stack, srv, code)
            snap = spy.state()["snapshot"]
            assert snap["status"] == "over" and snap["result"]["reason"] == "resign" and snap["step"] == 0
            a, b = (Sock(stack, srv, code, t) for t in tokens)
            assert a.state()["snapshot"]["status"] == "over"
            a.send({"type": "submit", "step": 0, "action": {"type": "bid", "amount": 1}})
            assert a.error()["code"] == "game_over"
            a.send({"type": "rematch"})
            b.send({"type": "rematch"})
            assert b.until(lambda m: m["type"] == "rematch")["match"] == 2
            fresh = b.state(lambda m: m["room"]["match"] == 2)
            assert fresh["room"]["status"] == "live" and fresh["room"]["ending"] is None
            assert fresh["snapshot"]["status"] == "playing" and fresh["snapshot"]["to_act"]


def test_an_ending_the_store_refuses_is_told_to_nobody_and_changes_nothing(tmp_path):
    """Store before tell: a resignation whose write fails (the database refuses it) is an error to the one who
    resigned, nobody hears of an ending, the match goes on; once the database takes writes again it works."""
    import sqlite3

    from starlette.testclient import TestClient

    from deltav.server.app import create_app

    db = tmp_path / "e.db"
    with TestClient(create_app(f"sqlite+aiosqlite:///{db}", Settings(grace_seconds=0, bot_workers=0, chosen_seeds="any"))) as c:
        made = c.post("/rooms", json={"game": "toy", "seats": ["human", "human"], "seed": 3}).json()
        code = made["code"]
        c.post(f"/rooms/{code}/join", json={})
        con = sqlite3.connect(db)
        con.execute("CREATE TRIGGER full BEFORE UPDATE ON matches BEGIN SELECT RAISE(ABORT, 'disk full'); END")
        con.commit()
        with room_socket(c, f"/ws/{code}?token={made['token']}") as ws, room_socket(c, f"/ws/{code}") as spy:
            ws.send_json({"type": "resign", "id": 5})
            seen = []
            while (msg := ws.receive_json())["type"] != "error":
                seen.append(msg)
            assert msg["code"] == "internal" and msg["id"] == 5 and "nothing changed" in msg["message"]
            spy.send_json({"type": "ping", "id": 1})
            while (m := spy.receive_json())["type"] != "pong":
                seen.append(m)
            assert not [m for m in seen if m["type"] in ("ended", "forfeit")]
            assert all(m["snapshot"]["status"] == "playing" for m in seen if m["type"] == "state")
            info = c.get(f"/rooms/{code}").json()
            assert info["status"] == "live" and info["ending"] is None
            con.execute("DROP TRIGGER full")
            con.commit()
            con.close()
            ws.send_json({"type": "resign", "id": 6})
            while (msg := ws.receive_json())["type"] != "ended":
                assert msg["type"] != "error", msg
            assert msg["ending"]["seats"] == [0]
        assert c.get(f"/rooms/{code}/record").json()["ending"]["seats"] == [0]
