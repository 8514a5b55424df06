"""Endings outside the rules: ``Session.end(kind, seats, reason)`` (resign, forfeit), the record's ``ending``
(written, read, replayed, tampering found), older records (no ``ending``; a forfeit in ``meta``) still reading
and replaying, refusals that change nothing, and ``deltav replay`` printing the ending."""

from __future__ import annotations

import json

import pytest

from deltav import cli
from deltav.core.errors import IllegalAction, RecordError
from deltav.core.protocol import get_game
from deltav.core.records import MatchRecord, replay
from deltav.core.session import Session, SessionError

ENDING_KEYS = {"kind", "seats", "winners", "step", "reason"}


def toy(seed: int = 3, names=None) -> Session:
    return Session(get_game("toy"), {}, seed, ["human", "human"], names)


def frozen(s: Session) -> tuple:
    return (json.dumps(s.state.to_json(), sort_keys=True), json.dumps(s.record.to_json(), sort_keys=True),
            s.step, s.waiting_for(), s.ending, [json.dumps(s.snapshot(p), sort_keys=True) for p in (0, 1, None)])


def walk(s: Session, steps: int) -> None:
    """Play the first legal action of each deciding seat until ``steps`` actions were applied."""
    while s.step < steps and not s.is_over():
        for p in s.deciding():
            s.submit(p, s.snapshot(p)["legal"][0]["action"])


def test_a_resignation_ends_the_match_and_every_other_seat_wins():
    s = toy(names=["Ann", "Ben"])
    walk(s, 4)
    at = s.step
    ending = s.end("resign", [1], "Ben resigned")
    assert ending == {"kind": "resign", "seats": [1], "winners": [0], "step": at, "reason": "Ben resigned"}
    assert s.is_over() and s.ending == ending and s.deciding() == () and s.legal_actions(0) == []
    for viewer in (0, 1, None):
        snap = s.snapshot(viewer)
        assert snap["status"] == "over" and snap["to_act"] is False and snap["legal"] == [] and snap["deciding"] == []
        assert snap["result"] == {"winners": [0], "reason": "resign", "scores": None, "seats": [1],
                                  "detail": "Ben resigned"}
        assert snap["returns"] == [1.0, -1.0]
    rec = s.record.to_json()
    assert rec["ending"] == ending and rec["result"]["reason"] == "resign" and rec["returns"] == [1.0, -1.0]
    assert len(rec["steps"]) == at  # the steps played, nothing more
    with pytest.raises(IllegalAction) as exc:
        s.submit(0, {"type": "step", "size": 1})
    assert exc.value.rule == "protocol.game_over"


def test_a_forfeit_at_a_simultaneous_node_voids_the_buffered_choice():
    s = toy()
    s.submit(0, {"type": "bid", "amount": 2})
    assert s.has_submitted(0)
    s.end("forfeit", [1], "Player 2 did not decide within the turn time (60 s)")
    assert s.step == 0 and s.record.steps == [] and not s.has_submitted(0)
    assert s.snapshot(0)["submitted"] is None and s.result()["winners"] == [0]


def test_three_seats_one_resigns_the_two_others_win():
    s = Session(get_game("mining"), {"players": 3}, 4, ["human"] * 3)
    walk(s, 5)
    ending = s.end("resign", [2], "Player 3 resigned")
    assert ending["winners"] == [0, 1] and s.returns() == [1.0, 1.0, -1.0]
    replay(MatchRecord.from_json(json.loads(json.dumps(s.record.to_json()))))


@pytest.mark.parametrize("kind,seats,reason,rule", [
    ("resign", [None], "a spectator", "session.seat"),
    ("resign", [2], "not a seat of the match", "session.seat"),
    ("resign", [-1], "not a seat of the match", "session.seat"),
    ("resign", [True], "a boolean is not a seat", "session.seat"),
    ("draw", [0], "not a kind of ending", "session.ending"),
    ("resign", [], "nobody", "session.ending"),
    ("resign", 0, "not a list", "session.ending"),
    ("resign", [0], None, "session.ending"),
])
def test_refusals_change_nothing(kind, seats, reason, rule):
    s = toy()
    walk(s, 3)
    before = frozen(s)
    with pytest.raises(SessionError) as exc:
        s.end(kind, seats, reason)
    assert exc.value.rule == rule
    assert frozen(s) == before


def test_a_finished_match_cannot_end_again():
    s = toy()
    walk(s, 10_000)
    assert s.state.is_terminal()
    before = frozen(s)
    with pytest.raises(IllegalAction) as exc:
        s.end("resign", [0], "too late")
    assert exc.value.rule == "protocol.game_over" and frozen(s) == before
    ended = toy()
    ended.end("resign", [0], "Player 1 resigned")
    before = frozen(ended)
    with pytest.raises(IllegalAction) as exc:
        ended.end("forfeit", [1], "again")
    assert exc.value.rule == "protocol.game_over" and frozen(ended) == before


def test_the_record_round_trips_and_replays_with_its_ending(tmp_path):
    s = toy(names=["Ann", "Ben"])
    walk(s, 6)
    s.end("resign", [0], "Ann resigned")
    path = s.record.save(tmp_path / "r.json")
    loaded = MatchRecord.load(path)
    assert loaded.ending == s.ending and loaded.to_json() == s.record.to_json()
    replay(loaded)
    again = Session.replay(loaded)
    assert again.ending == s.ending and again.snapshot(None)["result"] == s.snapshot(None)["result"]
    assert again.snapshot(None)["status"] == "over"


@pytest.mark.parametrize("change,where", [
    (lambda e: e.update(winners=[0, 1]), "$.ending"),
    (lambda e: e.update(step=e["step"] - 1), "$.ending.step"),
    (lambda e: e.update(seats=[5]), "$.ending.seats"),
    (lambda e: e.update(kind="forfeit"), "recorded result"),
    (lambda e: e.update(reason="someone else"), "recorded result"),
])
def test_a_tampered_ending_does_not_verify(change, where):
    s = toy()
    walk(s, 6)
    s.end("resign", [0], "Player 1 resigned")
    doc = json.loads(json.dumps(s.record.to_json()))
    change(doc["ending"])
    record = MatchRecord.from_json(doc)
    with pytest.raises(RecordError) as exc:
        replay(record)
    assert where in str(exc.value)
    if where != "recorded result":  # an ending that cannot end this match: the session refuses it too
        with pytest.raises(RecordError):
            Session.replay(record)


def test_an_ending_after_a_finished_game_or_of_a_bad_shape_is_refused():
    s = toy()
    walk(s, 10_000)
    doc = json.loads(json.dumps(s.record.to_json()))
    doc["ending"] = {"kind": "resign", "seats": [0], "winners": [1], "step": len(doc["steps"]), "reason": "late"}
    with pytest.raises(RecordError, match="already over"):
        replay(MatchRecord.from_json(doc))
    doc["ending"] = {"kind": "resign", "seats": [0]}
    with pytest.raises(RecordError, match=r"\$\.ending"):
        MatchRecord.from_json(doc)
    doc["ending"] = {"kind": "quit", "seats": [0], "winners": [1], "step": 0, "reason": ""}
    with pytest.raises(RecordError, match=r"\$\.ending\.kind"):
        MatchRecord.from_json(doc)


def test_older_records_still_read_and_replay():
    s = toy()
    walk(s, 10_000)
    doc = json.loads(json.dumps(s.record.to_json()))
    assert "ending" not in doc  # a match ended by its rules writes the format it always did
    replay(MatchRecord.from_json(doc))
    cut = toy()  # a forfeit as older servers stored it: the steps played, result null, the forfeit in meta
    walk(cut, 5)
    old = json.loads(json.dumps(cut.record.to_json()))
    old["meta"] = {"forfeit": {"seat": 1, "reason": "seat 1 did not come back within 60 s", "winners": [0],
                               "step": 5}}
    record = MatchRecord.from_json(old)
    assert record.ending is None
    replay(record)
    assert not Session.replay(record).is_over()


def test_deltav_replay_prints_the_ending(tmp_path, capsys):
    s = toy(names=["Ann", "Ben"])
    walk(s, 4)
    s.end("resign", [1], "Ben resigned")
    path = s.record.save(tmp_path / "resigned.json")
    assert cli.main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "verified" in out and "ended by resign at step 4: Ben lost, Ann won (Ben resigned)" in out
    old = toy()
    walk(old, 4)
    doc = old.record.to_json()
    doc["meta"] = {"forfeit": {"seat": 1, "reason": "seat 1 did not come back within 60 s", "winners": [0], "step": 4}}
    (tmp_path / "old.json").write_text(json.dumps(doc))
    assert cli.main(["replay", str(tmp_path / "old.json")]) == 0
    assert "ended by forfeit at step 4: Player 2 lost, Player 1 won" in capsys.readouterr().out


def test_a_played_match_of_every_real_game_can_be_resigned_and_replayed():
    for gid in ("tactical", "mining", "deepspace", "knighthawks"):
        game = get_game(gid)
        s = Session(game, {}, 2, ["human"] * game.num_players(game.resolve_options({})))
        walk(s, 8)
        s.end("resign", [0], "Player 1 resigned")
        assert set(s.ending) == ENDING_KEYS and s.snapshot(None)["status"] == "over"
        replay(MatchRecord.from_json(json.loads(json.dumps(s.record.to_json()))))
