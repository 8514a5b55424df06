"""The client's generated types (`web/src/generated/*.ts`, written by `web/tools/gen_types.py` from the Python side's
declared JSON shapes) are up to date, and the shapes they are written from are true: every snapshot a session sends
(every seat, a spectator, the full view of a finished match) of every scenario of every game, each game's view in
it and each note of its legal entries (the game's ``NotesJson``: the note of each action type), and the messages
of a real server's socket are read by `deltav.core.shape` against their declared TypedDict
without a missing or unknown field. So a change on one side that breaks the other fails here: a shape changed
without regenerating (stale file), or a JSON document that grew a field its shape does not declare."""

from __future__ import annotations

import importlib
import importlib.util
import json
import shutil
import typing
from pathlib import Path

import pytest

from deltav.core.protocol import BriefingJson, GameInfoJson
from deltav.core.rng import Rng, derive_seed
from deltav.core.session import Session, SnapshotJson
from deltav.core.shape import read
from tests.conformance.cases import case_id, configurations, game_of

SCRIPT = Path(__file__).resolve().parents[2] / "web" / "tools" / "gen_types.py"
MAX_STEPS = 150  # steps of each match checked (every seat's and a spectator's snapshot at each)


def _gen():
    spec = importlib.util.spec_from_file_location("gen_types", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def game_shape(gid: str, name: str):
    """The game's declared shape ``name`` (``ViewJson``, ``BoardJson``) among the modules the generator writes the
    game's types from, or None for a game without one (the test suite's toy game)."""
    for module, roots in _gen().TARGETS.get(gid, []):
        if name in roots:
            return getattr(importlib.import_module(module), name)
    return None


def as_json(obj):
    return json.loads(json.dumps(obj))


def test_the_checked_in_types_equal_a_fresh_generation(capsys):
    gen = _gen()
    assert gen.main(["--check"]) == 0, capsys.readouterr().out
    for stem in gen.TARGETS:
        assert (gen.OUT / f"{stem}.ts").read_text() == gen.render(stem)


def test_a_stale_or_stray_file_fails_the_check(tmp_path, capsys):
    gen = _gen()
    out = tmp_path / "generated"
    shutil.copytree(gen.OUT, out)
    gen.OUT = out
    assert gen.main(["--check"]) == 0
    proto = out / "protocol.ts"
    proto.write_text(proto.read_text().replace("  to_act: boolean;\n", ""))  # a hand edit, or a shape changed since
    (out / "extra.ts").write_text("export type X = 1;\n")
    assert gen.main(["--check"]) == 1
    said = capsys.readouterr().out
    assert f"stale: {proto}" in said and "not generated:" in said and "extra.ts" in said
    assert gen.main([]) == 0  # writing them again makes the check pass (the stray file is the author's to remove)
    (out / "extra.ts").unlink()
    assert gen.main(["--check"]) == 0


@pytest.mark.parametrize("case", configurations(), ids=case_id)
def test_every_snapshot_and_view_has_its_declared_shape(case):
    gid, options = case
    game = game_of(gid)
    opts = game.resolve_options(options)
    n = game.num_players(opts)
    s = Session(game, opts, 11, ["human"] * n)
    read(GameInfoJson, as_json(game.describe()), f"{gid} describe")
    for seat in [*range(n), None]:
        read(BriefingJson, as_json(game.briefing(opts, seat, s.display_names())), f"{gid} briefing {seat}")
    view = game_shape(gid, "ViewJson")
    board = game_shape(gid, "BoardJson")
    notes_shape = game_shape(gid, "NotesJson")
    notes = None if notes_shape is None else typing.get_type_hints(notes_shape, include_extras=True)
    if board is not None:
        read(board, as_json(game.board(opts)), f"{gid} board")
    step = 0
    while True:
        for seat in [*range(n), None]:
            snap = as_json(s.snapshot(seat))
            read(SnapshotJson, snap, f"{gid} step {step} seat {seat}")
            if view is not None:
                read(view, snap["view"], f"{gid} step {step} seat {seat} view")
            for e in snap["legal"]:
                if "note" in e:
                    kind = e["action"]["type"]
                    assert notes is not None and kind in notes, f"{gid}: a {kind!r} note has no declared shape"
                    read(notes[kind], e["note"], f"{gid} step {step} seat {seat} {kind} note")
        if s.is_over() or step >= MAX_STEPS:
            break
        for p in s.deciding():
            env = s.snapshot(p, with_log=False)
            pick = Rng(derive_seed(11, gid, p, step)).choice(env["legal"])
            s.submit(p, pick["action"], expected_step=env["step"])
        step += 1
    if s.is_over():
        full = as_json(s.snapshot_full())
        read(SnapshotJson, full, f"{gid} full")
        if view is not None:
            read(view, full["view"], f"{gid} full view")


def test_a_real_servers_messages_have_their_declared_shapes(tmp_path):
    """The HTTP answers the client reads (the games, a room made and joined, the rooms open to anyone, a briefing)
    and the socket's welcome, state (a seat's and a spectator's, before and after a move, with a clock and a chosen
    seed), chat and error messages from a real server on loopback, each read against its shape."""
    from deltav.server.app import GameEntryJson
    from deltav.server.hub import SeatGrantJson
    from deltav.server.limits import Limits
    from deltav.server.match import RoomJson, ServerErrorJson, StateMessageJson
    from deltav.server.rooms import ChatJson, Settings, WelcomeJson
    from deltav.server.store import RoomListEntryJson
    from tests.server.helpers import ThreadServer, hello_connect_sync, http

    shapes = {"welcome": WelcomeJson, "state": StateMessageJson, "chat": ChatJson, "error": ServerErrorJson}
    settings = Settings(grace_seconds=30, bot_workers=0, limits=Limits.for_load_tests())
    with ThreadServer(f"sqlite+aiosqlite:///{tmp_path / 'g.db'}", settings) as srv:
        status, made = http(srv.base, "POST", "/rooms", {"game": "tactical", "seats": ["human", "bot:random"], "seed": 5,
                                                         "clock": {"turn_seconds": 60, "on_timeout": "bot"}})
        assert status in (200, 201), made
        read(SeatGrantJson, made, "$.created")
        code = made["code"]
        status, listed = http(srv.base, "POST", "/rooms", {"game": "mining", "seats": ["human", "human"],
                                                           "public": True, "name": "Ann"})
        status, joined = http(srv.base, "POST", f"/rooms/{listed['code']}/join", {"name": "Bo"})
        assert status == 200, joined
        read(SeatGrantJson, joined, "$.joined")
        status, catalogue = http(srv.base, "GET", "/games")
        assert status == 200 and {g["id"] for g in catalogue} >= {"tactical", "mining", "deepspace", "knighthawks"}
        read(list[GameEntryJson], catalogue, "$.games")
        status, rooms = http(srv.base, "GET", "/rooms")
        assert status == 200 and [r["code"] for r in rooms] == [listed["code"]], rooms
        read(list[RoomListEntryJson], rooms, "$.rooms")
        status, brief = http(srv.base, "GET", f"/rooms/{code}/briefing?match=1&seat=0")
        assert status == 200, brief
        read(BriefingJson, brief, "$.briefing")
        seen: dict[str, list[dict]] = {k: [] for k in shapes}

        def take(ws, until: str) -> dict:
            while True:
                msg = json.loads(ws.recv(timeout=30))
                if msg["type"] in shapes:
                    read(shapes[msg["type"]], msg, f"$.{msg['type']}")
                    seen[msg["type"]].append(msg)
                if msg["type"] == until:
                    return msg

        a = hello_connect_sync(f"{srv.ws}/ws/{code}?token={made['token']}")
        spec = hello_connect_sync(f"{srv.ws}/ws/{code}")
        try:
            snap = take(a, "state")["snapshot"]
            while not snap["to_act"]:
                snap = take(a, "state")["snapshot"]
            take(spec, "state")
            a.send(json.dumps({"type": "submit", "action": {"type": "no_such_action"}, "step": snap["step"], "id": 1}))
            take(a, "error")
            a.send(json.dumps({"type": "submit", "action": snap["legal"][0]["action"], "step": snap["step"], "id": 2}))
            take(spec, "state")
            a.send(json.dumps({"type": "chat", "text": "good luck"}))
            take(spec, "chat")
        finally:
            a.close()
            spec.close()
    assert all(seen[k] for k in shapes), {k: len(v) for k, v in seen.items()}
    rooms = [m["room"] for m in seen["state"]]
    assert any(r["clock"] is not None for r in rooms) and any(r["seed"] == 5 for r in rooms)
    for r in rooms:
        read(RoomJson, r)


def _message_shapes() -> dict:
    """The declared shape of each message type the server sends (``ServerMessageJson``'s members, by ``type``)."""
    import typing

    from deltav.server.rooms import ServerMessageJson

    out = {}
    for tp in typing.get_args(ServerMessageJson):
        (kind,) = typing.get_args(typing.get_type_hints(tp)["type"])
        out[kind] = tp
    return out


def test_every_message_a_real_server_sends_has_its_declared_shape(tmp_path):
    """Every message type of ``ServerMessageJson`` but ``redirect`` (several server processes) from a real server on
    loopback, each read against its shape: a ping's pong, a suggestion, a submission's accepted, a resignation's
    ended, a rematch (its votes, the rematch and each seat's new welcome), a seat opened again elsewhere (replaced),
    a turn clock's forfeit (ended and forfeit) and its timeout bot (timeout)."""
    from deltav.server.limits import Limits
    from deltav.server.rooms import Settings
    from tests.server.helpers import ThreadServer, hello_connect_sync, http

    shapes = _message_shapes()
    assert set(shapes) == {"welcome", "state", "accepted", "error", "chat", "ended", "forfeit", "rematch_vote", "rematch",
                           "suggestion", "timeout", "replaced", "redirect", "pong"}
    seen: dict[str, list[dict]] = {k: [] for k in shapes}

    def take(ws, until: str) -> dict:
        while True:
            msg = json.loads(ws.recv(timeout=30))
            read(shapes[msg["type"]], msg, f"$.{msg['type']}")  # an undeclared type: KeyError names it
            seen[msg["type"]].append(msg)
            if msg["type"] == until:
                return msg

    settings = Settings(grace_seconds=30, bot_workers=0, limits=Limits.for_load_tests())
    with ThreadServer(f"sqlite+aiosqlite:///{tmp_path / 'g.db'}", settings) as srv:
        status, made = http(srv.base, "POST", "/rooms", {"game": "mining", "seats": ["human", "human"]})
        assert status in (200, 201), made
        status, joined = http(srv.base, "POST", f"/rooms/{made['code']}/join", {"name": "Bo"})
        assert status == 200, joined
        urls = [f"{srv.ws}/ws/{made['code']}?token={t}" for t in (made["token"], joined["token"])]
        socks = [hello_connect_sync(u) for u in urls]
        try:
            snaps = [take(ws, "state")["snapshot"] for ws in socks]
            mover = next(i for i, s in enumerate(snaps) if s["to_act"])
            ws = socks[mover]
            ws.send(json.dumps({"type": "ping", "id": 7}))
            assert take(ws, "pong")["id"] == 7
            ws.send(json.dumps({"type": "submit", "action": snaps[mover]["legal"][0]["action"], "step": snaps[mover]["step"],
                                "id": 3}))
            take(ws, "accepted")
            socks[0].send(json.dumps({"type": "resign", "id": "r"}))
            assert take(socks[1], "ended")["ending"]["kind"] == "resign"
            socks[0].send(json.dumps({"type": "rematch"}))
            take(socks[1], "rematch_vote")
            socks[1].send(json.dumps({"type": "rematch"}))
            for s in socks:
                take(s, "rematch")
                take(s, "welcome")  # the new match's welcome: its seat, and the limits as on connecting
            again = hello_connect_sync(urls[0])
            take(again, "state")
            socks.append(again)
            take(socks[0], "replaced")
        finally:
            for s in socks:
                s.close()
        status, made = http(srv.base, "POST", "/rooms", {"game": "tactical", "seats": ["human", "bot:random"]})
        ws = hello_connect_sync(f"{srv.ws}/ws/{made['code']}?token={made['token']}")
        try:
            while not take(ws, "state")["snapshot"]["to_act"]:
                pass
            ws.send(json.dumps({"type": "suggest", "id": "s", "bots": ["bot:random"]}))
            assert take(ws, "suggestion")["candidates"][0]["spec"] == "bot:random"
        finally:
            ws.close()
        for on_timeout, last in (("forfeit", "forfeit"), ("bot", "timeout")):
            status, made = http(srv.base, "POST", "/rooms", {"game": "tactical", "seats": ["human", "bot:random"], "seed": 5,
                                                             "clock": {"turn_seconds": 0.4, "on_timeout": on_timeout}})
            assert status in (200, 201), made
            ws = hello_connect_sync(f"{srv.ws}/ws/{made['code']}?token={made['token']}")
            try:
                take(ws, last)
            finally:
                ws.close()
    assert {k for k, v in seen.items() if not v} == {"error", "chat", "redirect"}, {k: len(v) for k, v in seen.items()}
    assert seen["ended"][-1]["ending"]["kind"] == "forfeit"
