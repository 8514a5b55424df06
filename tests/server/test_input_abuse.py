"""Inputs that used to crash (issue 32, items 3 and 12), against a real server on loopback: every frame and body
gets a clear refusal naming the field and the reason, never a traceback, a 500 or a dropped socket, and nothing
changes; a move whose answer cannot be encoded is still stored and broadcast."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import urllib.request
from http.client import HTTPConnection

import pytest

from deltav.games import load_all
from deltav.server.hub import Hub
from deltav.server.limits import Limits
from deltav.server.rooms import Settings
from deltav.server.store import Store
from tests.server.helpers import ThreadServer, hello_connect, http
from tests.server.test_framing import Recorder

BIG = "9" * 5000


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    db = tmp_path_factory.mktemp("abuse") / "abuse.db"
    # every room of the module is made from one address: no per-address limit
    settings = Settings(grace_seconds=0, bot_workers=0, chosen_seeds="any", limits=Limits.for_load_tests())
    with ThreadServer(f"sqlite+aiosqlite:///{db}", settings) as s:
        yield s


def raw_post(base: str, path: str, body: bytes) -> tuple[int, dict]:
    req = urllib.request.Request(base + path, data=body, method="POST", headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def toy_room(base: str) -> tuple[str, list[str]]:
    status, body = http(base, "POST", "/rooms", {"game": "toy", "seats": ["human", "human"], "seed": 3, "name": "ann"})
    assert status == 201, body
    status, joined = http(base, "POST", f"/rooms/{body['code']}/join", {"name": "ben"})
    assert status == 200, joined
    return body["code"], [body["token"], joined["token"]]


async def recv_until(ws, pred, timeout: float = 30.0) -> dict:
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        if pred(msg):
            return msg


FRAMES = [
    # (what, frame text, the error code, the field it names, words in the message)
    ("an id of 2^64 on a legal submit",
     json.dumps({"type": "submit", "step": 0, "action": {"type": "bid", "amount": 1}, "id": 2**64}),
     "bad_message", "id", "2^53"),
    ("a 5,000-digit integer in the action",
     '{"type": "submit", "step": 0, "action": {"type": "bid", "amount": ' + BIG + "}}",
     "bad_json", "message.action.amount", "5000-digit integer"),
    ("a 5,000-digit step", '{"type": "submit", "step": ' + BIG + ', "action": {"type": "bid", "amount": 1}}',
     "bad_json", "message.step", "5000-digit integer"),
    ("a 5,000-digit id", '{"type": "ping", "id": -' + BIG + "}", "bad_json", "message.id", "5000-digit integer"),
    ("an 8,000-deep array", '{"type": "ping", "x": ' + "[" * 8000 + "]" * 8000 + "}", "bad_json", "message",
     "nested too deeply"),
    ("a lone surrogate in a chat line", '{"type": "chat", "text": "hi \\ud83d"}', "bad_json", "message.text",
     "lone surrogate"),
    ("NaN as a step", '{"type": "submit", "step": NaN, "action": {"type": "bid", "amount": 1}}', "bad_json",
     "message.step", "not a JSON number"),
    ("a long string id", json.dumps({"type": "ping", "id": "x" * 500}), "bad_message", "id", "100 characters"),
]


def test_hostile_frames_get_a_clear_refusal_and_the_socket_plays_on(srv):

    code, tokens = toy_room(srv.base)

    async def main():
        async with hello_connect(f"{srv.ws}/ws/{code}?token={tokens[0]}", max_size=2**24) as a, \
                hello_connect(f"{srv.ws}/ws/{code}?token={tokens[1]}", max_size=2**24) as b:
            await recv_until(a, lambda m: m["type"] == "state")
            got = []
            for what, frame, *_ in FRAMES:
                await a.send(frame)
                got.append((what, await recv_until(a, lambda m: m["type"] in ("error", "pong", "accepted"))))
            step = (await asyncio.to_thread(http, srv.base, "GET", f"/rooms/{code}"))[1]["step"]
            # the socket is still open and a good move is accepted and told to the other seat
            await a.send(json.dumps({"type": "submit", "step": 0, "action": {"type": "bid", "amount": 1}, "id": 2**53 - 1}))
            accepted = await recv_until(a, lambda m: m["type"] == "accepted")
            await b.send(json.dumps({"type": "submit", "step": 0, "action": {"type": "bid", "amount": 0}, "id": "b"}))
            seen = await recv_until(b, lambda m: m["type"] == "state" and m["snapshot"]["step"] > 0)
            return got, step, accepted, seen

    got, step, accepted, seen = asyncio.run(main())
    for (what, _frame, code_, field, words), (_, msg) in zip(FRAMES, got, strict=True):
        assert msg["type"] == "error" and msg["code"] == code_, (what, msg)
        assert msg.get("field") == field and words in msg["message"], (what, msg)
    assert step == 0  # nothing was stored
    assert accepted["id"] == 2**53 - 1 and seen["snapshot"]["step"] >= 2


BODIES = [
    ("deeply nested JSON", b'{"game": "toy", "seats": ["human", "human"], "options": ' + b"[" * 5000 + b"]" * 5000 + b"}",
     "bad_json", "nested too deeply"),
    ("a 5,000-digit seed", b'{"game": "toy", "seats": ["human", "human"], "seed": ' + BIG.encode() + b"}",
     "bad_json", "5000-digit integer"),
    ("a lone surrogate in name", b'{"game": "toy", "seats": ["human", "human"], "name": "\\udc80ann"}',
     "bad_json", "lone surrogate"),
    ("bytes that are not UTF-8", b'{"game": "toy", "seats": ["human", "human"], "name": "\xff"}',
     "bad_json", "not valid UTF-8"),
    ("NaN", b'{"game": "toy", "seats": ["human", "human"], "seed": NaN}', "bad_json", "not a JSON number"),
]


@pytest.mark.parametrize("what,body,code,words", BODIES, ids=[b[0] for b in BODIES])
def test_hostile_bodies_on_create_and_join_answer_400_with_words(srv, what, body, code, words):
    status, answer = raw_post(srv.base, "/rooms", body)
    assert status == 400 and answer["error"] == code and words in answer["message"], answer
    room, _ = http(srv.base, "POST", "/rooms", {"game": "toy", "seats": ["human", "human"]})[1]["code"], None
    status, answer = raw_post(srv.base, f"/rooms/{room}/join", body)
    assert status == 400 and answer["error"] == code and words in answer["message"], answer
    assert http(srv.base, "GET", f"/rooms/{room}")[1]["status"] == "open"  # nothing changed


ABSURD = [(route, q) for route in ("record", "replay", "briefing")
          for q in ["match=9223372036854775808", "match=0", "match=-1", "match=" + BIG, "match=1_0", "match=%20",
                    "match=%C2%B2"]]
ABSURD += [("replay", q) for q in ["step=" + BIG, "step=-3", "step=%C2%B2", "view=" + BIG, "view=%C2%B2"]]
ABSURD += [("briefing", q) for q in ["seat=" + BIG, "seat=%C2%B2", "seat=-1", "seat=7"]]


@pytest.mark.parametrize("route,query", ABSURD, ids=[f"{r}-{q[:20]}" for r, q in ABSURD])
def test_absurd_match_step_seat_and_view_numbers_answer_400(srv, route, query):
    code, _ = toy_room(srv.base)
    if route != "briefing":  # a finished match: the record and replay routes read it
        status, made = http(srv.base, "POST", "/rooms", {"game": "toy", "seats": ["bot:random", "bot:random"]})
        code = made["code"]
        for _ in range(600):
            if http(srv.base, "GET", f"/rooms/{code}")[1]["status"] == "finished":
                break
            time.sleep(0.05)
    status, answer = http(srv.base, "GET", f"/rooms/{code}/{route}?{query}")
    assert status == 400 and answer["error"] == "bad_request", answer
    assert answer.get("field") in query.split("=")[0], answer


def test_a_get_on_the_mcp_endpoint_is_answered_not_held_open(srv):
    """The MCP SDK answered a GET by opening a stream of server-initiated messages, which a stateless endpoint
    never sends: the connection was held forever (found by the server fuzzer)."""
    conn = HTTPConnection("127.0.0.1", srv.port, timeout=60)
    t0 = time.monotonic()
    try:
        conn.request("GET", "/mcp/", headers={"accept": "application/json, text/event-stream"})
        r = conn.getresponse()
        data = b""
        while (chunk := r.read1(65536)) and time.monotonic() - t0 < 60:  # a stream that never ends fails here
            data += chunk
    finally:
        conn.close()
    body = json.loads(data)
    assert r.status == 405 and body["error"]["code"] == -32600 and "POST" in body["error"]["message"], body


def test_a_move_whose_answer_cannot_be_encoded_is_still_stored_and_broadcast(tmp_path):
    """A Python caller's id of 2^64 (orjson encodes 64-bit integers only): the move is stored, the other seat
    and the spectators are told, the sender gets its answer without the id (before: the reply's failure dropped
    the broadcast and the bots were never woken)."""

    async def main():
        store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'enc.db'}")
        hub = Hub(store, Settings(grace_seconds=0, bot_workers=0, chosen_seeds="any"), load_all())
        await hub.restore()
        try:
            made = await hub.create("toy", {}, ["human", "human"], 3, None, None)
            joined = await hub.join(made["code"], None, None)
            room = hub.rooms[made["code"]]
            sender, other, watcher = Recorder(), Recorder(), Recorder()
            conn = await room.attach(sender, made["token"])
            await room.attach(other, joined["token"])
            await room.attach(watcher, None)
            await asyncio.sleep(0.05)
            for r in (sender, other, watcher):
                r.sent.clear()
            await room.submit(conn, {"type": "submit", "step": 0, "action": {"type": "bid", "amount": 1}, "id": 2**64})
            await asyncio.sleep(0.1)
            stored = (await store.load_match(made["code"])).submissions
            return [json.loads(t) for t in sender.sent], [json.loads(t) for t in other.sent], stored
        finally:
            await hub.close()
            await store.close()

    mine, theirs, stored = asyncio.run(main())
    assert len(stored) == 1
    assert {"type": "accepted", "id": None, "step": 0, "buffered": True} in mine
    assert any(m["type"] == "state" and m["snapshot"]["deciding"][0]["submitted"] for m in theirs), theirs


def test_a_client_that_hangs_up_as_it_is_refused_leaves_no_traceback(tmp_path):
    """A socket closed right after its hello (a wrong token here; on several processes, a seat sent to the room's
    owner) used to end as "Exception in ASGI application" with a traceback in the log, because the refusal was
    written to a socket already gone. Now the server lets it go quietly and plays on."""
    import socket

    from websockets.sync.client import connect

    from tests.server.helpers import ProcessServer

    server = ProcessServer(f"sqlite+aiosqlite:///{tmp_path / 'hangup.db'}", "--no-client-limits", "--grace", "0")
    try:
        status, room = http(server.base, "POST", "/rooms", {"game": "tactical", "seats": ["human", "bot:easy"],
                                                            "options": {"scenario": "duel"}})
        assert status == 201, room
        code = room["code"]
        for _ in range(20):
            ws = connect(f"{server.ws}/ws/{code}").__enter__()  # hung up by hand below, not by __exit__
            ws.send(json.dumps({"type": "hello", "token": "x" * 40}))
            with contextlib.suppress(OSError):  # hang up at once (the server may have closed it already)
                ws.socket.shutdown(socket.SHUT_RDWR)
                ws.socket.close()
        with connect(f"{server.ws}/ws/{code}") as ws:  # the room still answers a seat
            ws.send(json.dumps({"type": "hello", "token": room["token"]}))
            first = json.loads(ws.recv(timeout=30))
            assert first["type"] in ("welcome", "state", "room"), first
        time.sleep(0.5)
        log = server.output()
        assert "Traceback" not in log and "Exception in ASGI" not in log, log[-3000:]
    finally:
        server.stop()
