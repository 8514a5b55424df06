"""The server in-process (Starlette's TestClient): routes, rooms and tokens, every kind of bad input (a clear
error, the connection stays open, nothing changes), replaced sockets, the rate limit, chat, bot seats that
play exactly as ``play_match``, forfeit after the grace period, rematch with seats swapped, and a restart that
replays every unfinished room (bot memory included)."""

from __future__ import annotations

import hashlib
import json
import time

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from deltav.agents import make_agent
from deltav.core.match import play_match
from deltav.core.protocol import get_game
from deltav.core.records import MatchRecord, replay
from deltav.server.app import create_app
from deltav.server.rooms import MAX_CHAT, Settings
from deltav.server.tokens import CODE_ALPHABET
from tests.server.helpers import choose, received_log, record_difference, room_socket

FAST = dict(grace_seconds=0, bot_workers=0, chosen_seeds="any")  # seeds between people: replayable matches


def client(tmp_path, name="s.db", **settings) -> TestClient:
    return TestClient(create_app(f"sqlite+aiosqlite:///{tmp_path / name}", Settings(**{**FAST, **settings})))


def toy_room(c: TestClient, seats=("human", "human"), seed=3, public=False) -> tuple[str, list[str]]:
    r = c.post("/rooms", json={"game": "toy", "seats": list(seats), "seed": seed, "name": "ann", "public": public})
    assert r.status_code == 201, r.text
    body = r.json()
    tokens = [body["token"]]
    for _ in range(list(seats).count("human") - 1):
        j = c.post(f"/rooms/{body['code']}/join", json={"name": "ben"})
        assert j.status_code == 200, j.text
        tokens.append(j.json()["token"])
    return body["code"], tokens


def until(ws, pred, limit=200) -> dict:
    """Read messages until one satisfies ``pred``; return it."""
    for _ in range(limit):
        msg = ws.receive_json()
        if pred(msg):
            return msg
    raise AssertionError("no such message")


def state(ws) -> dict:
    return until(ws, lambda m: m["type"] == "state")


def test_health_games_index_and_room_lists(tmp_path):
    with client(tmp_path) as c:
        assert c.get("/healthz").json()["status"] == "ok"
        assert "deltav" in c.get("/").text
        games = {g["id"]: g for g in c.get("/games").json()}
        assert {"tactical", "mining", "deepspace", "knighthawks"} <= set(games)
        assert "bot:hard" in games["mining"]["bots"] and "bot:random" in games["tactical"]["bots"]
        code, _ = toy_room(c, public=True)
        r = c.post("/rooms", json={"game": "toy", "seats": ["human", "human"], "public": True}).json()
        private = c.post("/rooms", json={"game": "toy", "seats": ["human", "human"]}).json()
        assert private["room"]["public"] is False and r["room"]["public"] is True
        assert [x["code"] for x in c.get("/rooms?status=open").json()] == [r["code"]]
        assert code in [x["code"] for x in c.get("/rooms?status=live").json()]
        assert c.get("/rooms?status=finished").json() == []
        assert private["code"] not in {x["code"] for x in c.get("/rooms").json()}  # listed nowhere
        assert c.get("/rooms?status=nope").status_code == 400
        info = c.get(f"/rooms/{r['code'].lower()}").json()
        assert info["status"] == "open" and [s["taken"] for s in info["seats"]] == [True, False]


def test_room_codes_and_tokens_stored_only_as_hashes(tmp_path):
    with client(tmp_path) as c:
        codes, tokens = set(), []
        for _ in range(5):
            r = c.post("/rooms", json={"game": "toy", "seats": ["human", "human"]}).json()
            assert len(r["code"]) == 5 and set(r["code"]) <= set(CODE_ALPHABET)
            codes.add(r["code"])
            tokens.append(r["token"])
            tokens.append(c.post(f"/rooms/{r['code']}/join", json={}).json()["token"])
        assert len(codes) == 5 and len(set(tokens)) == 10
    raw = b"".join(p.read_bytes() for p in tmp_path.glob("s.db*"))
    for t in tokens:
        assert t.encode() not in raw
        assert hashlib.sha256(t.encode()).hexdigest().encode() in raw


@pytest.mark.parametrize("body,code", [
    ({"game": "nope", "seats": ["human", "human"]}, "unknown_game"),
    ({"game": "toy", "seats": ["human"]}, "bad_seats"),
    ({"game": "toy", "seats": ["human", "bot:nonsense"]}, "bad_seats"),
    ({"game": "toy", "seats": ["human", "robot"]}, "bad_seats"),
    ({"game": "toy", "seats": ["human", 3]}, "bad_request"),
    ({"game": "toy", "options": {"scenario": "moon"}, "seats": ["human", "human"]}, "bad_options"),
    ({"game": "toy", "options": {"colour": 1}, "seats": ["human", "human"]}, "bad_options"),
    ({"game": "mining", "options": {"scenario": "/etc/passwd"}, "seats": ["human", "human"]}, "bad_options"),
    ({"game": "tactical", "options": {"scenario": "../../x.toml"}, "seats": ["human", "human"]}, "bad_options"),
    ({"game": "toy", "seats": ["human", "bot:random"], "seat": 1}, "bad_seat"),
    ({"game": "toy", "seats": ["human", "human"], "seed": -1}, "bad_request"),
    ({"seats": ["human", "human"]}, "bad_request"),
])
def test_bad_room_requests_are_refused_clearly(tmp_path, body, code):
    with client(tmp_path) as c:
        r = c.post("/rooms", json=body)
        assert r.status_code == 400 and r.json()["error"] == code, r.text
        assert r.json()["message"]
        assert c.get("/rooms").json() == []


def test_bad_bodies_unknown_rooms_and_full_rooms(tmp_path):
    with client(tmp_path) as c:
        as_json = {"content-type": "application/json"}
        assert c.post("/rooms", content=b"{nope", headers=as_json).json()["error"] == "bad_json"
        assert c.post("/rooms", content=b"[1]", headers=as_json).json()["error"] == "bad_request"
        assert c.post("/rooms", content=b"x" * 70_000, headers=as_json).status_code == 413
        assert c.post("/rooms/ZZZZZ/join", json={}).status_code == 404
        assert c.post("/rooms/I0I0I/join", json={}).status_code == 404
        assert c.get("/rooms/ZZZZZ/record").status_code == 404
        code, _ = toy_room(c)
        full = c.post(f"/rooms/{code}/join", json={})
        assert full.status_code == 409 and full.json()["error"] == "room_full" and full.json()["watch"] == f"/ws/{code}"
        assert c.get(f"/rooms/{code}/record").status_code == 409
        with room_socket(c, "/ws/ZZZZZ") as ws:
            assert ws.receive_json()["code"] == "unknown_room"
            with pytest.raises(WebSocketDisconnect) as exc:
                ws.receive_json()
            assert exc.value.code == 4004
        with room_socket(c, f"/ws/{code}?token=forged") as ws:
            assert ws.receive_json()["code"] == "bad_token"
            with pytest.raises(WebSocketDisconnect) as exc:
                ws.receive_json()
            assert exc.value.code == 4003


def test_every_bad_message_gets_an_error_and_changes_nothing(tmp_path):
    with client(tmp_path, max_message_bytes=2000) as c:
        code, tokens = toy_room(c)
        with room_socket(c, f"/ws/{code}?token={tokens[0]}") as a, \
                room_socket(c, f"/ws/{code}?token={tokens[1]}") as b, room_socket(c, f"/ws/{code}") as spec:
            assert until(a, lambda m: m["type"] == "welcome")["seat"] == 0
            # the simultaneous bid: seat 0 decides, then tries every kind of bad message
            a.send_json({"type": "submit", "step": 0, "action": {"type": "bid", "amount": 2}, "id": "x1"})
            assert until(a, lambda m: m["type"] == "accepted") == {"type": "accepted", "id": "x1", "step": 0,
                                                                   "buffered": True}
            before = c.get(f"/rooms/{code}").json()
            bad = [
                ("{not json", "bad_json"),
                ("[1, 2]", "bad_message"),
                ('{"kind": "submit"}', "bad_message"),
                ('{"type": "launch"}', "unknown_type"),
                (json.dumps({"type": "chat", "text": "x" * 3000}), "too_large"),
                (json.dumps({"type": "submit", "action": {"type": "bid", "amount": 1}}), "bad_message"),
                (json.dumps({"type": "submit", "step": 0, "action": "bid"}), "bad_message"),
                (json.dumps({"type": "submit", "step": 0, "action": {"type": "bid", "amount": 1}}), "already_decided"),
                (json.dumps({"type": "submit", "step": 7, "action": {"type": "bid", "amount": 1}}), "stale_step"),
                (json.dumps({"type": "submit", "step": 0, "action": {"type": "warp"}}), "malformed_action"),
            ]
            for text, err in bad:
                a.send_text(text)
                msg = until(a, lambda m: m["type"] == "error")
                assert msg["code"] == err and msg["message"], (text, msg)
            a.send_bytes(b"\x00\x01")
            assert until(a, lambda m: m["type"] == "error")["code"] == "bad_message"
            b.send_json({"type": "submit", "step": 0, "action": {"type": "bid", "amount": 9}})
            msg = until(b, lambda m: m["type"] == "error")
            assert msg["code"] == "illegal_action" and msg["rule"] == "toy.bid.range"
            spec.send_json({"type": "submit", "step": 0, "action": {"type": "bid", "amount": 1}})
            assert until(spec, lambda m: m["type"] == "error")["code"] == "spectator"
            assert c.get(f"/rooms/{code}").json() == before  # nothing changed
            a.send_json({"type": "ping", "id": 5})
            assert until(a, lambda m: m["type"] == "pong")["id"] == 5  # the connection is still open
            # seat 1 bids; the race starts; the seat not on move is refused
            b.send_json({"type": "submit", "step": 0, "action": {"type": "bid", "amount": 0}})
            snap = until(a, lambda m: m["type"] == "state" and m["snapshot"]["step"] == 2)["snapshot"]
            mover = snap["deciding"][0]["seat"]
            other = (a, b)[1 - mover]
            other.send_json({"type": "submit", "step": 2, "action": {"type": "step", "size": 1}})
            msg = until(other, lambda m: m["type"] == "error")
            assert msg["code"] == "not_your_turn" and msg["rule"] == "protocol.turn"
            assert c.get(f"/rooms/{code}").json()["step"] == 2


def test_buffered_choices_stay_secret_and_the_same_token_replaces_the_older_socket(tmp_path):
    with client(tmp_path) as c:
        code, tokens = toy_room(c)
        with room_socket(c, f"/ws/{code}?token={tokens[0]}") as a, \
                room_socket(c, f"/ws/{code}?token={tokens[1]}") as b:
            before = until(b, lambda m: m["type"] == "state" and m["room"]["seats"][0]["connected"])["snapshot"]
            a.send_json({"type": "submit", "step": 0, "action": {"type": "bid", "amount": 2}})
            after = until(b, lambda m: m["type"] == "state" and m["snapshot"]["deciding"][0]["submitted"])["snapshot"]
            # seat 1 learns that seat 0 has decided, and nothing else
            assert "log" not in after  # b has the log: later states carry only the new entries (none here)
            assert {k: v for k, v in after.items() if k != "deciding"} == {k: v for k, v in before.items()
                                                                           if k not in ("deciding", "log")}
            with room_socket(c, f"/ws/{code}?token={tokens[0]}") as a2:
                assert until(a, lambda m: m["type"] == "replaced")
                with pytest.raises(WebSocketDisconnect) as exc:
                    until(a, lambda m: False)
                assert exc.value.code == 4001
                mine = state(a2)["snapshot"]
                assert mine["submitted"]["action"] == {"type": "bid", "amount": 2}  # the full snapshot at once
                a2.send_json({"type": "ping"})
                assert until(a2, lambda m: m["type"] == "pong")


def test_rate_limit_per_connection(tmp_path):
    with client(tmp_path, rate_per_second=1.0, rate_burst=3) as c:
        code, tokens = toy_room(c)
        with room_socket(c, f"/ws/{code}?token={tokens[0]}") as a:
            for _ in range(6):
                a.send_json({"type": "ping"})
            kinds = [until(a, lambda m: m["type"] in ("pong", "error"))["type"] for _ in range(6)]
            assert kinds.count("pong") == 3 and kinds.count("error") == 3


def test_chat_is_trimmed_limited_and_never_acts(tmp_path):
    with client(tmp_path) as c:
        code, tokens = toy_room(c)
        with room_socket(c, f"/ws/{code}?token={tokens[0]}") as a, room_socket(c, f"/ws/{code}") as spec:
            a.send_json({"type": "chat", "text": "   good   luck \n "})
            got = until(spec, lambda m: m["type"] == "chat")
            assert got["text"] == "good luck" and got["seat"] == 0 and got["name"] == "ann"
            for text, err in (("   ", "chat_empty"), ("x" * (MAX_CHAT + 1), "chat_too_long"), (5, "bad_message")):
                a.send_json({"type": "chat", "text": text})
                assert until(a, lambda m: m["type"] == "error")["code"] == err
            a.send_json({"type": "chat", "text": json.dumps({"type": "bid", "amount": 1})})
            spec.send_json({"type": "chat", "text": "hi"})
            assert until(spec, lambda m: m["type"] == "error")["code"] == "spectator"
            assert c.get(f"/rooms/{code}").json()["step"] == 0
            a.send_json({"type": "sync"})
            assert until(a, lambda m: m["type"] == "state")["snapshot"]["deciding"][0]["submitted"] is False


def test_bot_seats_play_exactly_as_play_match(tmp_path):
    """A room of bots is the match ``deltav play`` plays with the same seed (mining's bots remember what they
    observed, so this also checks the events each bot is fed)."""
    game = get_game("mining")
    specs = ["bot:easy", "bot:random"]
    with client(tmp_path) as c:
        r = c.post("/rooms", json={"game": "mining", "seats": specs, "seed": 21}).json()
        assert r["token"] is None and r["seat"] is None
        deadline = time.time() + 60
        while c.get(f"/rooms/{r['code']}").json()["status"] != "finished":
            assert time.time() < deadline
            time.sleep(0.05)
        record = c.get(f"/rooms/{r['code']}/record").json()
    expected, _, _ = play_match(game, {}, 21, [make_agent("mining", s[4:]) for s in specs], specs)
    expected.meta["names"] = ["Easy bot", "Random bot"]  # the server's record keeps the seats' names
    assert record_difference(record, expected.to_json()) is None


def test_a_human_against_a_bot_over_the_socket(tmp_path):
    with client(tmp_path) as c:
        code, tokens = toy_room(c, ("human", "bot:random"), seed=8)
        with room_socket(c, f"/ws/{code}?token={tokens[0]}") as a:
            states = []
            for _ in range(500):
                msg = state(a)
                states.append(msg)
                snap = msg["snapshot"]
                if snap["status"] == "over":
                    break
                if snap["to_act"]:
                    a.send_json({"type": "submit", "step": snap["step"], "action": snap["legal"][0]["action"]})
            assert snap["status"] == "over"
            record = MatchRecord.from_json(c.get(f"/rooms/{code}/record").json())
            # the default log is the newest entries; sync with since=0 gives the whole visible history
            visible = [e for st in record.steps for e in st.events if e.get("to") in (None, [0])]
            # the log came whole once, on connecting; every later state carried only its new entries
            assert "log" in states[0]["snapshot"] and not any("log" in m["snapshot"] for m in states[1:])
            assert [x["event"] for x in received_log(states)] == visible
            a.send_json({"type": "sync"})
            assert [x["event"] for x in state(a)["snapshot"]["log"]] == visible[-20:]
            a.send_json({"type": "sync", "since": 0})
            assert [x["event"] for x in state(a)["snapshot"]["log"]] == visible
            late = len(record.steps) - 3
            a.send_json({"type": "sync", "since": late})
            assert {x["step"] for x in state(a)["snapshot"]["log"]} <= set(range(late, len(record.steps)))
            a.send_json({"type": "sync", "since": -1})
            assert until(a, lambda m: m["type"] == "error")["code"] == "bad_message"
        replay(record)
        assert record.seats == ["human", "bot:random"]


def test_a_claimed_win_after_the_grace_period_and_a_rematch_with_seats_swapped(tmp_path):
    with client(tmp_path, grace_seconds=0.3) as c:
        code, tokens = toy_room(c, public=True)
        with room_socket(c, f"/ws/{code}?token={tokens[0]}") as a:
            with room_socket(c, f"/ws/{code}?token={tokens[1]}") as b:
                state(b)
            # seat 1 dropped: its clock runs, announced to seat 0; when it has run out seat 0 may claim the win
            info = until(a, lambda m: m["type"] == "state" and m["room"]["seats"][1]["grace_until"])
            assert not info["room"]["seats"][1]["connected"]
            assert until(a, lambda m: m["type"] == "state" and m["room"]["claimable"] == [1])["room"]["status"] == "live"
            a.send_json({"type": "claim", "id": 7})
            forfeit = until(a, lambda m: m["type"] == "forfeit")
            assert forfeit["seat"] == 1 and forfeit["winners"] == [0]
            assert state(a)["room"]["status"] == "finished"
            record = c.get(f"/rooms/{code}/record").json()
            assert record["ending"]["seats"] == [1] and record["ending"]["kind"] == "forfeit"
            replay(MatchRecord.from_json(record))  # a forfeited match is still a record that verifies
            assert code in [x["code"] for x in c.get("/rooms?status=finished").json()]
            # a rematch: both ask; seats swap
            a.send_json({"type": "rematch"})
            assert until(a, lambda m: m["type"] == "rematch_vote")["seats"] == [0]
            with room_socket(c, f"/ws/{code}?token={tokens[1]}") as b:
                b.send_json({"type": "rematch"})
                rematch = until(b, lambda m: m["type"] == "rematch")
                assert rematch["match"] == 2 and rematch["seats"] == {"0": 1, "1": 0}  # old seat -> new seat
                assert until(b, lambda m: m["type"] == "welcome")["seat"] == 0
                assert until(a, lambda m: m["type"] == "welcome")["seat"] == 1
                snap = state(b)
                assert snap["room"]["match"] == 2 and snap["room"]["status"] == "live"
                assert snap["snapshot"]["seat"] == 0 and snap["snapshot"]["step"] == 0
                b.send_json({"type": "submit", "step": 0, "action": {"type": "bid", "amount": 1}})
                assert until(b, lambda m: m["type"] == "accepted")
        assert c.get(f"/rooms/{code}/record?match=1").json() == record


def play_until(ws, seat: int, stop: int | None, client_seed: int = 4) -> dict:
    """Play seat's deterministic choices until the match reaches ``stop`` (or ends); returns the last state."""
    while True:
        msg = state(ws)
        snap = msg["snapshot"]
        if snap["status"] == "over" or (stop is not None and snap["step"] >= stop):
            return msg
        if snap["to_act"]:
            ws.send_json({"type": "submit", "step": snap["step"],
                          "action": choose(client_seed, seat, snap["step"], snap["legal"])})
            until(ws, lambda m: m["type"] in ("accepted", "error"))


def test_restart_replays_unfinished_rooms_and_bots_keep_their_memory(tmp_path):
    """A human against mining's easy bot (which remembers what it observed) and a random bot (whose RNG has moved
    on): 40 steps, the server stops, a new one on the same database replays the room; the finished record
    equals the uninterrupted match's."""
    def room(c):
        r = c.post("/rooms", json={"game": "mining", "options": {"players": 3},
                                   "seats": ["human", "bot:easy", "bot:random"], "seed": 31}).json()
        return r["code"], r["token"]

    with client(tmp_path, "a.db") as c:
        code, token = room(c)
        with room_socket(c, f"/ws/{code}?token={token}") as ws:
            play_until(ws, 0, None)
        uninterrupted = c.get(f"/rooms/{code}/record").json()
    with client(tmp_path, "b.db") as c:
        code, token = room(c)
        with room_socket(c, f"/ws/{code}?token={token}") as ws:
            assert play_until(ws, 0, 40)["snapshot"]["step"] >= 40
    with client(tmp_path, "b.db") as c:  # a new server process on the same database
        assert c.get("/healthz").json()["rooms"] == 1
        with room_socket(c, f"/ws/{code}?token={token}") as ws:
            play_until(ws, 0, None)
        record = c.get(f"/rooms/{code}/record").json()
    assert record_difference(record, uninterrupted) is None
    replay(MatchRecord.from_json(record))


def test_bots_in_a_process_pool(tmp_path):
    specs = ["bot:random", "bot:easy"]
    with client(tmp_path, bot_workers=1) as c:
        r = c.post("/rooms", json={"game": "knighthawks", "seats": specs, "seed": 2}).json()
        deadline = time.time() + 60
        while c.get(f"/rooms/{r['code']}").json()["status"] != "finished":
            assert time.time() < deadline
            time.sleep(0.05)
        record = c.get(f"/rooms/{r['code']}/record").json()
    expected, _, _ = play_match(get_game("knighthawks"), {}, 2, [make_agent("knighthawks", s[4:]) for s in specs],
                                specs)
    expected.meta["names"] = ["Random bot", "Easy bot"]  # the server's record keeps the seats' names
    assert record_difference(record, expected.to_json()) is None


def test_the_alembic_migration_builds_exactly_the_store_tables(tmp_path):
    import asyncio

    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from deltav.server.store import Store, metadata

    async def main():
        store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'm.db'}")
        await store.migrate()  # a second upgrade is a no-op
        async with store.engine.connect() as conn:
            diff = await conn.run_sync(lambda sc: compare_metadata(MigrationContext.configure(sc), metadata))
            version = await conn.run_sync(lambda sc: MigrationContext.configure(sc).get_current_revision())
        await store.close()
        return diff, version

    diff, version = asyncio.run(main())
    assert diff == [] and version == "0004"


def test_a_room_cannot_name_a_scenario_file_on_the_server(tmp_path):
    """A scenario option may be a file path for the CLI; over the network only built-in ids are played (a valid
    scenario file on the server's disk is refused too: strangers must not make the server read its files)."""
    import shutil
    from pathlib import Path

    import deltav.games.mining as mining

    own = tmp_path / "mine.toml"
    shutil.copy(Path(mining.__file__).parent / "data" / "standard.toml", own)
    with client(tmp_path) as c:
        r = c.post("/rooms", json={"game": "mining", "options": {"scenario": str(own)}, "seats": ["human", "human"]})
        assert r.status_code == 400 and r.json()["error"] == "bad_options", r.text
        assert "built-in" in r.json()["message"]
        r = c.post("/rooms", json={"game": "mining", "options": {"scenario": "standard"}, "seats": ["human", "human"]})
        assert r.status_code == 201, r.text


def test_the_built_client_is_served(tmp_path):
    from deltav import web_static

    assert web_static.is_built(), "build the client first: make setup (or cd web && npm ci && node build.mjs)"
    with client(tmp_path) as c:
        for path in ("/", "/play/ABCDE", "/watch/abcde", "/replay/ABCDE"):
            r = c.get(path)
            assert r.status_code == 200 and '<script type="module" src="/app.js">' in r.text, (path, r.text[:200])
        assert "board-data" in c.get("/board").text
        assert c.get("/app.js").status_code == 200 and c.get("/shell.css").status_code == 200


def test_seat_tokens_never_start_with_a_dash():
    from deltav.server.tokens import new_token

    tokens = [new_token() for _ in range(3000)]  # ~1 in 64 raw tokens start with '-': this would see ~47
    assert all(not t.startswith("-") and len(t) == 32 for t in tokens) and len(set(tokens)) == len(tokens)


def test_unknown_fields_are_ignored_and_unknown_types_refused(tmp_path):
    """docs/server.md: a client may send fields this server does not read (ignored); an unknown type is refused."""
    with client(tmp_path) as c:
        code, tokens = toy_room(c)
        with room_socket(c, f"/ws/{code}?token={tokens[0]}") as a:
            snap = state(a)["snapshot"]
            a.send_json({"type": "ping", "id": 1, "colour": "red"})
            assert until(a, lambda m: m["type"] == "pong") == {"type": "pong", "id": 1}
            a.send_json({"type": "submit", "step": snap["step"], "action": {"type": "bid", "amount": 1}, "id": 2,
                         "note": {"any": ["thing"]}})
            assert until(a, lambda m: m["type"] in ("accepted", "error")) == {"type": "accepted", "id": 2, "step": 0,
                                                                              "buffered": True}
            a.send_json({"type": "pong", "id": 3})
            refused = until(a, lambda m: m["type"] == "error")
            assert refused["code"] == "unknown_type" and refused["id"] == 3
