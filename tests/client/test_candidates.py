"""Candidates: a seat that asks for them gets, in each snapshot where it must decide, what the named built-in
bots would play from its own view (deterministic, legal, computed on the bot workers); other messages and
other viewers get none; a bad list is refused on connecting."""

from __future__ import annotations

import pytest

from deltav.client import Refused, Seat, create_room, join_room
from deltav.core.protocol import Decision, get_game
from deltav.core.rng import Rng, derive_seed
from deltav.server.bots import make_bot_agent
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
    rng = Rng(derive_seed(0, "candidates", code, match, snap["step"], spec))
    decision = Decision(game, snap["seat"], snap["view"], legal, rng, game.resolve_options(snap["options"]))
    return make_bot_agent(game.id, spec).act(decision).to_json()


def test_candidates_come_with_the_snapshots_where_the_seat_decides(live):
    room = create_room(live.base, "mining", ["human", "human"], {"scenario": "standard"}, seed=11)
    other = join_room(live.base, room["code"])
    specs = ["bot:easy", "random"]
    with Seat(live.base, room["code"], room["token"], candidates=specs) as a, \
            Seat(live.base, room["code"], other["token"]) as b, Seat(live.base, room["code"]) as watcher:
        checked = 0
        for _ in range(12):
            a.sync()
            b.sync()
            watcher.sync()
            assert "candidates" not in b.state and "candidates" not in watcher.state
            if a.snapshot["to_act"]:
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
                b.submit(b.snapshot["legal"][0]["action"])
        assert checked >= 3


@pytest.mark.parametrize("raw", [["bot:nope"], ["random"] * 5, ["mcts:iterations=zero"]])
def test_a_bad_candidate_list_is_refused_on_connecting(live, raw):
    room = create_room(live.base, "tactical", ["human", "bot:easy"], {"scenario": "duel"})
    with pytest.raises(Refused) as e, Seat(live.base, room["code"], room["token"], candidates=raw) as s:
        s.next_state()
    assert e.value.code == "bad_candidates"
