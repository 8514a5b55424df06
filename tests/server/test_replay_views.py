"""The replay route's views of a finished match on a real server: ``&view=full`` (the default: everything, since
nothing is secret once a match is over), ``spectator`` and a seat's own; bad values refused with a clear 400
naming the field; and a live match's sockets never get the full view (not even after the end)."""

from __future__ import annotations

from contextlib import ExitStack

import pytest

from deltav.core.protocol import json_tokens
from deltav.server.limits import Limits
from deltav.server.rooms import Settings
from tests.server.helpers import ThreadServer, choose, http
from tests.server.test_endings import Sock, room
from tests.server.test_live import CLIENT_SEED
from tests.toygame import CARDS


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("replays") / "replays.db"
    with ThreadServer(f"sqlite+aiosqlite:///{db}", Settings(grace_seconds=0, bot_workers=0, chosen_seeds="any",
                                                                     limits=Limits.for_load_tests())) as srv:
        yield srv


def test_a_live_match_never_sends_the_full_view_and_its_replay_shows_everything(server):
    code, tokens = room(server, seed=9)
    seen: dict = {0: [], 1: [], None: []}
    with ExitStack() as stack:
        socks = {p: Sock(stack, server, code, t) for p, t in enumerate(tokens)}
        spy = Sock(stack, server, code)
        over = False
        while not over:
            for seat, sock in socks.items():
                msg = sock.state()
                seen[seat].append(msg)
                snap = msg["snapshot"]
                over = snap["status"] == "over"
                if over:
                    break
                if snap["to_act"]:
                    sock.send({"type": "submit", "step": snap["step"],
                               "action": choose(CLIENT_SEED, seat, snap["step"], snap["legal"])})
                    sock.until(lambda m: m["type"] in ("accepted", "error"))
        spy.state(lambda m: m["snapshot"]["status"] == "over")
        spy.send({"type": "sync", "since": 0})  # after the end too: the spectator's view, not the full one
        seen[None].append(spy.state())
        seen[None].append(spy.last)
    status, record = http(server.base, "GET", f"/rooms/{code}/record")
    first = [e for s in record["steps"] for e in s["events"]]
    assert status == 200 and first
    status, full = http(server.base, "GET", f"/rooms/{code}/replay?step=100000")
    assert status == 200 and full["view"] == "full"
    cards = full["snapshot"]["view"]["cards"]
    assert sorted(cards) == sorted(set(cards)) and set(cards) <= set(CARDS)
    for viewer, messages in seen.items():
        for msg in messages:
            assert "cards" not in msg["snapshot"]["view"]
            others = {c for p, c in enumerate(cards) if p != viewer}
            # the view, the log and the new events: a seat's or a spectator's only, to the end (the summary of
            # a finished match may show everything: nothing is secret then)
            shown = [msg["snapshot"]["view"], msg["snapshot"].get("log"), msg["events"], msg["snapshot"]["legal"]]
            assert not others & json_tokens(shown), f"viewer {viewer} was sent another seat's card"
            assert msg["snapshot"]["summary"] is None or msg["snapshot"]["status"] == "over"
    status, spec = http(server.base, "GET", f"/rooms/{code}/replay?step=100000&view=spectator")
    assert spec["view"] == "spectator" and "cards" not in spec["snapshot"]["view"]
    assert spec["snapshot"]["view"]["card"] is None
    for seat in (0, 1):
        status, own = http(server.base, "GET", f"/rooms/{code}/replay?step=0&view={seat}")
        assert status == 200 and own["view"] == seat and own["snapshot"]["seat"] == seat
        assert own["snapshot"]["view"]["card"] == cards[seat] and own["snapshot"]["legal"] == []
        assert cards[1 - seat] not in json_tokens(own)
    status, start = http(server.base, "GET", f"/rooms/{code}/replay?step=0")
    assert start["snapshot"]["view"]["cards"] == cards  # every position of a finished match, not only the end


@pytest.mark.parametrize("bad", ["2", "-1", "everyone", "0x1", "full%20"])
def test_a_bad_view_is_refused_naming_the_field(server, bad):
    code, tokens = room(server, seed=4)
    with ExitStack() as stack:
        Sock(stack, server, code, tokens[1]).send({"type": "resign"})
        Sock(stack, server, code).state(lambda m: m["snapshot"]["status"] == "over")
    status, body = http(server.base, "GET", f"/rooms/{code}/replay?view={bad}")
    assert status == 400 and body["error"] == "bad_request" and body["field"] == "view"
    assert "full, spectator or a seat number 0..1" in body["message"]


def test_the_full_replay_of_a_mining_match_shows_every_tile_and_private_event(server):
    code, tokens = room(server, "mining", {"scenario": "standard"}, seed=6)
    with ExitStack() as stack:
        socks = {p: Sock(stack, server, code, t) for p, t in enumerate(tokens)}
        steps = 0
        while steps < 60:
            for seat, sock in socks.items():
                snap = sock.state()["snapshot"]
                steps = snap["step"]
                if snap["to_act"]:
                    sock.send({"type": "submit", "step": snap["step"],
                               "action": choose(CLIENT_SEED, seat, snap["step"], snap["legal"])})
                    sock.until(lambda m: m["type"] in ("accepted", "error"))
        socks[0].send({"type": "resign"})
        socks[0].until(lambda m: m["type"] == "ended")
    status, full = http(server.base, "GET", f"/rooms/{code}/replay?step=100000")
    view = full["snapshot"]["view"]
    face_down = [s for s, st in enumerate(view["status"]) if st == "face_down"]
    assert status == 200 and face_down and all(view["tiles"][s] is not None for s in face_down)
    status, spec = http(server.base, "GET", f"/rooms/{code}/replay?step=100000&view=spectator")
    assert sum(t is not None for t in spec["snapshot"]["view"]["tiles"]) < sum(t is not None for t in view["tiles"])
    private = [e for i in range(len(full["positions"]))
               for e in http(server.base, "GET", f"/rooms/{code}/replay?step={full['positions'][i]}")[1]["events"]
               if e["event"].get("to") is not None]
    assert private
