"""``Session.snapshot_full()``: the envelope of an observer who knows everything, only once the match is over
(by its rules or an ending), with ``State.full_view()`` and every event, private ones included."""

from __future__ import annotations

import json

import pytest

from deltav.core.protocol import get_game, json_tokens
from deltav.core.rng import Rng
from deltav.core.session import Session, SessionError


def walk(s: Session, steps: int, seed: int = 0) -> None:
    rng = Rng(seed)
    while s.step < steps and not s.is_over():
        for p in s.deciding():
            s.submit(p, rng.choice(s.snapshot(p)["legal"])["action"])


def test_refused_while_the_match_is_played_and_nothing_changes():
    s = Session(get_game("toy"), {}, 3, ["human", "human"])
    walk(s, 3)
    before = json.dumps([s.state.to_json(), s.record.to_json(), s.snapshot(None)], sort_keys=True)
    with pytest.raises(SessionError) as exc:
        s.snapshot_full()
    assert exc.value.rule == "session.not_over"
    assert json.dumps([s.state.to_json(), s.record.to_json(), s.snapshot(None)], sort_keys=True) == before


def test_a_finished_match_shows_everything():
    s = Session(get_game("toy"), {}, 3, ["human", "human"])
    walk(s, 10_000)
    env = s.snapshot_full()
    assert env["status"] == "over" and env["seat"] is None and env["legal"] == []
    assert env["view"]["cards"] == s.state.cards and env["view"]["card"] is None
    assert set(env) == set(s.snapshot(None))


def test_an_ended_match_shows_every_tile_and_every_private_event():
    game = get_game("mining")
    s = Session(game, {}, 6, ["human", "human"])
    walk(s, 60)
    secrets = s.state.secret_tokens(None) | s.state.secret_tokens(0) | s.state.secret_tokens(1)
    assert secrets
    s.end("resign", [0], "Player 1 resigned")
    env = s.snapshot_full(since=0)
    assert secrets <= json_tokens(env["view"])
    assert not secrets & json_tokens(s.snapshot(None)["view"])  # the spectator's envelope is unchanged
    private = [e for e in env["log"] if e["event"].get("to") is not None]
    assert private and len(env["log"]) > len(s.log(None, 0))
    assert env["log"] == s.log_full(0)
