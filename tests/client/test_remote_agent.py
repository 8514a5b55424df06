"""A remote ``deltav agent`` process plays full matches on a real ``deltav serve`` started by the test: a
built-in bot in every game (its record equals the one ``play_match`` gives the same bots with the same seed,
so the remote bot got exactly a local bot's Decision), the docs' example program over the JSON-lines
protocol, refusals answered again, and the Python client's sync wrapper with a dropped connection."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from deltav.agents import make_agent
from deltav.client import Refused, Seat, ServerError, create_room, join_room, room_record
from deltav.core.match import play_match
from deltav.core.protocol import get_game
from deltav.core.records import MatchRecord, replay
from deltav.games import load_all
from tests.server.helpers import ROOT, ProcessServer

SEARCH = "ismcts:iterations=6,max_depth=4,pool=4,max_seconds=1000"  # samples worlds with game.determinize
MATCHES = [  # game, options, the remote seat's bot, the server's bot
    ("tactical", {"scenario": "duel"}, SEARCH, "bot:easy"),
    ("mining", {"scenario": "standard"}, "bot:normal", "bot:easy"),  # normal forgets and relearns (observe)
    ("deepspace", {"scenario": "skirmish"}, "bot:easy", "bot:random"),
    ("knighthawks", {"scenario": "skirmish"}, SEARCH, "bot:easy"),
]
SEED = 4242

EXAMPLE_BOT = textwrap.dedent('''\
    import json, random, sys

    rng = random.Random(7)
    for line in sys.stdin:
        snapshot = json.loads(line)
        if snapshot["to_act"]:
            choice = rng.choice(snapshot["legal"])
            print(json.dumps(choice["action"]), flush=True)
''')


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("agent") / "agent.db"
    # one test program makes more rooms a minute from loopback than a person would: no per-address limits here
    srv = ProcessServer(f"sqlite+aiosqlite:///{db}", "--bot-workers", "0", "--grace", "0", "--chosen-seeds", "any",
                        "--no-client-limits")
    yield srv
    srv.stop()


def agent_argv(server, code: str, *args: str) -> list[str]:
    return [sys.executable, "-m", "deltav.cli", "agent", "--server", server.base, "--room", code, "--quiet", *args]


ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src")}


def agent(server, code: str, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(agent_argv(server, code, *args), capture_output=True, text=True, env=ENV, cwd=str(ROOT),
                          timeout=timeout)


@pytest.mark.parametrize("gid,options,remote,local", MATCHES, ids=[m[0] for m in MATCHES])
def test_a_remote_bot_plays_a_full_match_exactly_as_a_local_bot(server, gid, options, remote, local):
    """Two remote agents, one holding the creator's token, one joining the free seat."""
    room = create_room(server.base, gid, ["human", "human"], options, seed=SEED)
    first = subprocess.Popen(agent_argv(server, room["code"], "--token", room["token"], "--bot", remote,
                                        "--seed", str(SEED)), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env=ENV, cwd=str(ROOT))
    out = agent(server, room["code"], "--join", "--bot", local, "--seed", str(SEED))
    got, err = first.communicate(timeout=300)
    assert first.returncode == 0, err
    assert out.returncode == 0, out.stderr
    assert "match over" in got and "match over" in out.stdout and "as seat 1; token" in out.stderr
    record = room_record(server.base, room["code"])
    replay(MatchRecord.from_json(record))  # the record verifies
    load_all()
    game = get_game(gid)
    agents = [make_agent(gid, spec.removeprefix("bot:")) for spec in (remote, local)]
    mine, _, _ = play_match(game, options, SEED, agents)
    assert record["steps"] == mine.to_json()["steps"]
    assert record["result"] == mine.result


def test_the_example_program_plays_over_json_lines(server, tmp_path):
    bot = tmp_path / "bot.py"
    bot.write_text(EXAMPLE_BOT)
    room = create_room(server.base, "tactical", ["bot:easy", "human"], {"scenario": "duel"}, seed=5)
    out = agent(server, room["code"], "--token", room["token"], "--command", f"{sys.executable} {bot}")
    assert out.returncode == 0, out.stderr
    record = room_record(server.base, room["code"])
    replay(MatchRecord.from_json(record))
    assert any(s["player"] == 1 for s in record["steps"])


REFUSED_THEN_LEGAL = textwrap.dedent('''\
    import json, sys

    seen = []
    for line in sys.stdin:
        snapshot = json.loads(line)
        if not snapshot["to_act"]:
            print(json.dumps({"over": snapshot["status"], "refusals": seen}), file=sys.stderr)
            continue
        if "refusal" not in snapshot:
            print(json.dumps({"type": "no-such-action"}), flush=True)   # refused: malformed_action
        else:
            seen.append(snapshot["refusal"]["code"])
            print(len(snapshot["legal"]) - 1, flush=True)                # an index into legal
''')


def test_a_refused_answer_is_asked_again_with_the_refusal(server, tmp_path):
    bot = tmp_path / "bot.py"
    bot.write_text(REFUSED_THEN_LEGAL)
    room = create_room(server.base, "knighthawks", ["human", "bot:easy"], {"scenario": "skirmish"}, seed=9)
    out = agent(server, room["code"], "--token", room["token"], "--command", f"{sys.executable} {bot}")
    assert out.returncode == 0, out.stderr
    assert '"over": "over"' in out.stderr and "malformed_action" in out.stderr
    replay(MatchRecord.from_json(room_record(server.base, room["code"])))


def test_a_program_that_breaks_the_protocol_is_reported(server, tmp_path):
    bot = tmp_path / "bot.py"
    bot.write_text("import sys\nsys.stdin.readline()\nprint('not json', flush=True)\n")
    room = create_room(server.base, "tactical", ["human", "bot:easy"], {"scenario": "duel"}, seed=9)
    out = agent(server, room["code"], "--token", room["token"], "--command", f"{sys.executable} {bot}")
    assert out.returncode == 1
    assert "not JSON" in out.stderr


def test_the_sync_client_refusals_and_a_reconnection(server):
    room = create_room(server.base, "mining", ["human", "human"], {"scenario": "standard"}, seed=3)
    other = join_room(server.base, room["code"], name="ben")
    with Seat(server.base, room["code"], room["token"]) as a, Seat(server.base, room["code"], other["token"]) as b:
        a.sync()
        b.sync()
        mover = a if a.snapshot["to_act"] else b
        snap = mover.snapshot
        with pytest.raises(Refused) as stale:
            mover.submit(snap["legal"][0]["action"], snap["step"] + 1)
        assert stale.value.code == "stale_step"
        with pytest.raises(Refused) as bad:
            mover.submit({"type": "move", "frm": 99, "to": 0, "bump": None}, snap["step"])
        assert bad.value.code in ("illegal_action", "malformed_action")
        # play both seats turn about, dropping seat a's socket once: it reconnects with its token
        for i in range(30):
            a.sync()
            b.sync()
            mover = a if a.snapshot["to_act"] else b
            s = mover.snapshot
            assert s["to_act"]
            mover.submit(s["legal"][0]["action"], s["step"])
            if i == 5:
                a._run(a.aseat.ws.close())
        assert a.sync()["snapshot"]["step"] == b.sync()["snapshot"]["step"] == 30
        assert a.aseat.reconnects == 1


def test_the_client_keeps_the_log_the_server_sends_once(server):
    """A state message carries the snapshot's log whole only on connecting (or a sync); after an action only its
    new entries: the client appends them, so ``.snapshot["log"]`` is always the newest entries, as a sync says."""
    room = create_room(server.base, "mining", ["human", "human"], {"scenario": "standard"}, seed=5)
    other = join_room(server.base, room["code"], name="ben")
    with Seat(server.base, room["code"], room["token"]) as a, Seat(server.base, room["code"], other["token"]) as b:
        a.sync()
        b.sync()
        for _ in range(25):  # without a sync between moves: each state after a move has only the new entries
            mover = a if a.snapshot["to_act"] else b
            s = mover.snapshot
            mover.submit(s["legal"][0]["action"], s["step"])
            for seat in (a, b):
                while seat.snapshot["step"] <= s["step"]:
                    seat.next_state()
        kept = [dict(e) for e in a.snapshot["log"]]
        assert kept and kept == a.sync()["snapshot"]["log"]
        kept = [dict(e) for e in b.snapshot["log"]]
        assert kept == b.sync()["snapshot"]["log"]


def test_bad_rooms_and_tokens_are_server_errors(server):
    with pytest.raises(ServerError) as e:
        join_room(server.base, "ZZZZZ")
    assert e.value.code == "unknown_room"
    room = create_room(server.base, "tactical", ["human", "bot:easy"], {"scenario": "duel"})
    with pytest.raises(Refused) as t, Seat(server.base, room["code"], "not-a-token") as s:
        s.next_state()
    assert t.value.code == "bad_token"
    out = agent(server, room["code"], "--bot", "bot:easy")
    assert out.returncode == 2 and "--token" in out.stderr


FOLLOW_THE_CANDIDATE = textwrap.dedent('''\
    import json, sys

    for line in sys.stdin:
        snapshot = json.loads(line)
        if snapshot["to_act"]:
            assert [c["spec"] for c in snapshot["candidates"]] == ["bot:easy"], snapshot.get("candidates")
            print(json.dumps(snapshot["candidates"][0]["action"]), flush=True)
''')


def test_a_program_can_follow_the_candidates(server, tmp_path):
    bot = tmp_path / "bot.py"
    bot.write_text(FOLLOW_THE_CANDIDATE)
    room = create_room(server.base, "deepspace", ["human", "bot:easy"], {"scenario": "skirmish"}, seed=2)
    out = agent(server, room["code"], "--token", room["token"], "--command", f"{sys.executable} {bot}",
                "--candidates", "bot:easy")
    assert out.returncode == 0, out.stderr
    replay(MatchRecord.from_json(room_record(server.base, room["code"])))
