"""Candidates in the Python client: a seat made with ``candidates`` asks the server (a ``suggest`` message) what the
named built-in bots would play from its own view whenever it must decide, and gets them in that snapshot's state
message (deterministic, legal, computed on the bot workers); other viewers get none; a bad list is refused; in a
match between people each candidate is the server's refusal."""

from __future__ import annotations

import pytest

from deltav.client import Refused, Seat, create_room, join_room
from deltav.core.protocol import Decision, get_game
from deltav.core.rng import Rng, derive_seed
from deltav.server.bot_workers import make_bot_agent
from deltav.server.rooms import Settings
from tests.server.helpers import ThreadServer


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    db = tmp_path_factory.mktemp("cand") / "cand.db"
    with ThreadServer(f"sqlite+aiosqlite:///{db}", Settings(grace_seconds=0, bot_workers=0, chosen_seeds="any")) as srv:
        yield srv


def expected(code: str, match: int, snap: dict, spec: str) -> dict:
    game = get_game(snap["game"])
    legal = [game.action_from_json(e["action"]) for e in snap["legal"]]
    rng = Rng(derive_seed(0, "suggest", code, match, snap["step"], spec))
    decision = Decision(game, snap["seat"], snap["view"], legal, rng, game.resolve_options(snap["options"]))
    return make_bot_agent(game.id, spec).act(decision).to_json()


def test_candidates_come_with_the_snapshots_where_the_seat_decides(live):
    room = create_room(live.base, "mining", ["human", "bot:random"], {"scenario": "standard"}, seed=11)
    specs = ["bot:easy", "random"]
    with Seat(live.base, room["code"], room["token"], candidates=specs) as a, Seat(live.base, room["code"]) as watcher:
        checked = 0
        for _ in range(40):
            a.next_state()
            if a.snapshot["to_act"] and a.state["room"]["status"] == "live":
                got = a.state["candidates"]
                assert [c["spec"] for c in got] == ["bot:easy", "bot:random"]
                legal = [e["action"] for e in a.snapshot["legal"]]
                for c in got:
                    assert c["action"] in legal and c["text"]
                    assert c["action"] == expected(room["code"], 1, a.snapshot, c["spec"])
                checked += 1
                a.submit(got[0]["action"])
            else:
                assert "candidates" not in a.state
            if checked >= 4 or a.snapshot["status"] == "over":
                break
        watcher.sync()
        assert "candidates" not in watcher.state
        assert checked >= 3


def test_between_people_each_candidate_is_the_refusal(live):
    room = create_room(live.base, "mining", ["human", "human"], {"scenario": "standard"}, seed=11)
    other = join_room(live.base, room["code"])
    with Seat(live.base, room["code"], room["token"], candidates=["bot:easy"]) as a, \
            Seat(live.base, room["code"], other["token"]) as b:
        for _ in range(10):
            state = a.sync()
            if a.snapshot["to_act"]:
                break
            b.sync()
            b.submit(b.snapshot["legal"][0]["action"])
        assert state["candidates"] == [{"spec": "bot:easy", "error": "no_bot_help"}]


@pytest.mark.parametrize("raw,code", [(["bot:nope"], "bad_candidates"), (["random"] * 5, "over_budget"),
                                      (["mcts:iterations=zero"], "bad_candidates")])
def test_a_bad_candidate_list_is_refused_at_the_first_decision(live, raw, code):
    room = create_room(live.base, "tactical", ["human", "bot:easy"], {"scenario": "duel"})
    with pytest.raises(Refused) as e, Seat(live.base, room["code"], room["token"], candidates=raw) as s:
        while True:
            s.next_state()
    assert e.value.code == code
