"""Real sockets: a real uvicorn on 127.0.0.1 (port 0) and the ``websockets`` client. A full match of every game
between two socket clients with a spectator watching, the secret check on every message any of them received,
a drop and reconnect, and a server killed with SIGKILL mid-match whose record comes out identical to an
uninterrupted match."""

from __future__ import annotations

import asyncio

import pytest

from deltav.core.records import MatchRecord, replay
from deltav.server.rooms import Settings
from tests.server.helpers import (
    ProcessServer,
    Seen,
    ThreadServer,
    http,
    play_seat,
    received_log,
    record_difference,
    reference_record,
    secret_leaks,
    visible_events,
)

# one scenario per game, with a simultaneous node where the game has one (tactical fleet purchases are in
# fleet_action; deepspace design-duel builds fleets secretly and at once)
MATCHES = [
    ("tactical", {"scenario": "duel"}),
    ("tactical", {"scenario": "fleet_action"}),
    ("mining", {"scenario": "standard"}),
    ("deepspace", {"scenario": "design-duel"}),
    ("knighthawks", {"scenario": "skirmish"}),
]
CLIENT_SEED = 99
NAMES = ["ann", "ben"]  # the names two_seat_room gives
DROP_AT = 8  # every match above lasts longer than this


def two_seat_room(base: str, gid: str, options: dict, seed: int) -> tuple[str, list[str]]:
    code, body = http(base, "POST", "/rooms", {"game": gid, "options": options, "seats": ["human", "human"],
                                               "seed": seed, "name": "ann"})
    assert code == 201, body
    code2, joined = http(base, "POST", f"/rooms/{body['code']}/join", {"name": "ben"})
    assert code2 == 200 and joined["seat"] == 1, joined
    return body["code"], [body["token"], joined["token"]]


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    db = tmp_path_factory.mktemp("live") / "live.db"
    with ThreadServer(f"sqlite+aiosqlite:///{db}", Settings(grace_seconds=0, bot_workers=0, chosen_seeds="any")) as srv:
        yield srv


@pytest.mark.parametrize("gid,options", MATCHES, ids=[f"{g}-{o['scenario']}" for g, o in MATCHES])
def test_a_full_match_over_sockets_with_a_spectator_and_no_secret_leaks(live, gid, options):
    seed = 1234
    code, tokens = two_seat_room(live.base, gid, options, seed)
    url = f"{live.ws}/ws/{code}"
    seen = [Seen(0), Seen(1), Seen(None)]

    async def main():
        return await asyncio.gather(
            play_seat(url, tokens[0], 0, CLIENT_SEED, seen[0]),
            play_seat(url, tokens[1], 1, CLIENT_SEED, seen[1]),
            play_seat(url, None, None, CLIENT_SEED, seen[2]),
        )

    results = asyncio.run(main())
    assert results == ["over", "over", "over"]
    status, record = http(live.base, "GET", f"/rooms/{code}/record")
    assert status == 200
    replay(MatchRecord.from_json(record))
    assert record_difference(record, reference_record(gid, options, seed, ["human", "human"], CLIENT_SEED, names=NAMES)) is None
    assert secret_leaks(record, seen) == []
    assert all(len(v.messages) > 3 for v in seen)
    # the spectator saw only public events
    for _, msg in seen[2].messages:
        if msg["type"] == "state":
            assert all(e["event"].get("to") is None for e in msg["snapshot"].get("log", []) + msg["events"])
    # each event reached each viewer once: the log whole on connecting, then every later state message only the
    # entries its action added, so what the viewer keeps is the record's visible events, none twice, none missing
    for v in seen:
        states = [m for _, m in v.messages if m["type"] == "state"]
        assert [i for i, m in enumerate(states) if "log" in m["snapshot"]] == [0]
        got = [(e["step"], e["event"]) for e in received_log(states)]
        visible = visible_events(record, v.seat)
        assert got == visible[len(visible) - len(got):]
        assert {s for s, _ in visible if s >= states[0]["snapshot"]["step"]} <= {s for s, _ in got}


@pytest.mark.parametrize("gid,options", MATCHES, ids=[f"{g}-{o['scenario']}" for g, o in MATCHES])
def test_a_drop_and_reconnect_continues_the_match(live, gid, options):
    seed = 77
    code, tokens = two_seat_room(live.base, gid, options, seed)
    url = f"{live.ws}/ws/{code}"
    seen = [Seen(0), Seen(1), Seen(0)]

    async def main():
        first = asyncio.create_task(play_seat(url, tokens[0], 0, CLIENT_SEED, seen[0], stop_at_step=DROP_AT))
        other = asyncio.create_task(play_seat(url, tokens[1], 1, CLIENT_SEED, seen[1]))
        assert await first == "stopped"  # seat 0 drops its socket mid-match
        await asyncio.sleep(0.2)
        again = await play_seat(url, tokens[0], 0, CLIENT_SEED, seen[2])  # ...and comes back with its token
        return again, await other

    assert asyncio.run(main()) == ("over", "over")
    reconnect_states = [m for _, m in seen[2].messages if m["type"] == "state"]
    assert reconnect_states[0]["snapshot"]["step"] >= DROP_AT  # the full snapshot at once: never out of step
    status, record = http(live.base, "GET", f"/rooms/{code}/record")
    assert record_difference(record, reference_record(gid, options, seed, ["human", "human"], CLIENT_SEED, names=NAMES)) is None
    assert secret_leaks(record, seen) == []


def test_sigkill_mid_match_loses_no_accepted_action(tmp_path):
    gid, options, seed = "knighthawks", {"scenario": "skirmish"}, 5
    db = f"sqlite+aiosqlite:///{tmp_path / 'kill.db'}"
    srv = ProcessServer(db, "--bot-workers", "0", "--grace", "0", "--chosen-seeds", "any")
    try:
        code, tokens = two_seat_room(srv.base, gid, options, seed)
        seen = [Seen(0), Seen(1)]

        async def until(step):
            url = f"{srv.ws}/ws/{code}"
            return await asyncio.gather(play_seat(url, tokens[0], 0, CLIENT_SEED, seen[0], stop_at_step=step),
                                        play_seat(url, tokens[1], 1, CLIENT_SEED, seen[1]))

        async def kill_at(step):
            # both play; as soon as seat 0 has seen the step, the server dies mid-stream
            url = f"{srv.ws}/ws/{code}"
            t1 = asyncio.create_task(play_seat(url, tokens[0], 0, CLIENT_SEED, seen[0]))
            t2 = asyncio.create_task(play_seat(url, tokens[1], 1, CLIENT_SEED, seen[1]))
            while not (seen[0].last and seen[0].last["snapshot"]["step"] >= step):
                await asyncio.sleep(0.005)
            srv.kill()
            return await t1, await t2

        assert asyncio.run(kill_at(60)) == ("lost", "lost")
        told = [m["step"] for v in seen for _, m in v.messages if m["type"] == "accepted"]
        stored_before = max(seen[0].last["snapshot"]["step"], seen[1].last["snapshot"]["step"], *told)
        srv = ProcessServer(db, "--bot-workers", "0", "--grace", "0", "--chosen-seeds", "any")  # the same database
        code_h, room = http(srv.base, "GET", f"/rooms/{code}")
        assert code_h == 200 and room["step"] >= stored_before  # everything anyone was told is still there
        results = asyncio.run(until(None))
        assert results[1] == "over"
        assert secret_leaks(reference_record(gid, options, seed, ["human", "human"], CLIENT_SEED, names=NAMES), seen) == []
        status, record = http(srv.base, "GET", f"/rooms/{code}/record")
        assert status == 200
        replay(MatchRecord.from_json(record))
        want = reference_record(gid, options, seed, ["human", "human"], CLIENT_SEED, names=NAMES)
        assert record_difference(record, want) is None
    finally:
        srv.stop()
