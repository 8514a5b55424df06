"""The transport-free Session: envelopes, refusals that change nothing, simultaneous buffering, replay, and
per-viewer event filtering, on the toy game and the four real games."""

from __future__ import annotations

import json

import pytest

from deltav.core.agent import RandomAgent
from deltav.core.errors import IllegalAction, MalformedAction, RecordError
from deltav.core.match import play_match
from deltav.core.protocol import get_game, json_tokens
from deltav.core.records import MatchRecord, replay
from deltav.core.rng import Rng, derive_seed
from deltav.core.session import LOG_TAIL, Session, SessionError
from tests.secret_check import leaks, secret_history

REAL_GAMES = ("tactical", "mining", "deepspace", "knighthawks")
ENVELOPE = {"game", "options", "seats", "names", "seat", "step", "status", "deciding", "to_act", "legal", "submitted",
            "view", "result", "returns", "summary", "log"}


def toy(seed: int = 3) -> Session:
    return Session(get_game("toy"), {}, seed, ["alice", "bob"])


def frozen(s: Session) -> tuple:
    """Everything a refusal must leave unchanged."""
    return (json.dumps(s.state.to_json(), sort_keys=True), json.dumps(s.record.to_json(), sort_keys=True),
            s.step, s.waiting_for(), [json.dumps(s.snapshot(p), sort_keys=True) for p in (0, 1, None)])


def test_envelope_of_a_seat_and_of_a_spectator():
    s = toy()
    env = s.snapshot(0)
    assert set(env) == ENVELOPE
    assert env["game"] == "toy" and env["seat"] == 0 and env["step"] == 0 and env["status"] == "playing"
    assert env["seats"] == ["alice", "bob"] and env["options"] == {"scenario": "standard"}
    assert env["deciding"] == [{"seat": 0, "submitted": False}, {"seat": 1, "submitted": False}]
    assert env["to_act"] is True and env["submitted"] is None
    assert [x["action"] for x in env["legal"]] == [{"type": "bid", "amount": a} for a in range(3)]
    assert all(isinstance(x["text"], str) and x["text"] for x in env["legal"])
    assert env["view"] == s.state.view(0) and env["view"]["card"] == s.state.cards[0]
    spec = s.snapshot(None)
    assert spec["seat"] is None and spec["to_act"] is False and spec["legal"] == []
    assert spec["view"]["card"] is None
    assert not (json_tokens(spec) & s.state.secret_tokens(None))
    with pytest.raises(SessionError) as exc:
        s.snapshot(2)
    assert exc.value.rule == "session.seat"


def test_stale_and_future_steps_are_refused_and_change_nothing():
    s = toy()
    s.submit(0, {"type": "bid", "amount": 1}, expected_step=0)
    s.submit(1, {"type": "bid", "amount": 0}, expected_step=0)
    assert s.step == 2
    mover = s.deciding()[0]
    before = frozen(s)
    for bad in (0, 1, 3):
        with pytest.raises(SessionError) as exc:
            s.submit(mover, {"type": "step", "size": 1}, expected_step=bad)
        assert exc.value.rule == "session.stale_step" and "step 2" in exc.value.message
        assert frozen(s) == before
    with pytest.raises(MalformedAction) as exc2:
        s.submit(mover, {"type": "step", "size": 1}, expected_step="2")
    assert exc2.value.field == "expected_step"
    assert frozen(s) == before
    out = s.submit(mover, {"type": "step", "size": 1}, expected_step=2)
    assert out.step == 3 and len(out.applied) == 1
    # the same submission again (a doubled click) is stale now
    with pytest.raises(SessionError):
        s.submit(mover, {"type": "step", "size": 1}, expected_step=2)


def test_a_seat_that_may_not_act_is_refused():
    s = toy()
    s.submit(0, {"type": "bid", "amount": 2})
    s.submit(1, {"type": "bid", "amount": 0})
    mover = s.deciding()[0]
    other = 1 - mover
    before = frozen(s)
    with pytest.raises(IllegalAction) as exc:
        s.submit(other, {"type": "step", "size": 1})
    assert exc.value.rule == "protocol.turn"
    for seat in (2, -1, True, "0"):
        with pytest.raises(SessionError) as exc2:
            s.submit(seat, {"type": "step", "size": 1})
        assert exc2.value.rule == "session.seat"
    assert frozen(s) == before


def test_the_turn_is_checked_once_by_the_state_with_its_own_error():
    """The session adds no turn check of its own (core/session.py's docstring): a seat out of turn gets the phase
    table's ``protocol.turn`` and its sentence, before its action is judged by the rules (the mover's own legal
    action, sent by the other seat), and once the game is over every seat gets ``protocol.game_over``."""
    s = toy()
    s.submit(0, {"type": "bid", "amount": 2})
    s.submit(1, {"type": "bid", "amount": 0})
    mover = s.deciding()[0]
    other = 1 - mover
    before = frozen(s)
    with pytest.raises(IllegalAction) as exc:
        s.submit(other, s.legal_actions(mover)[0].to_json())
    assert (exc.value.rule, exc.value.message) == ("protocol.turn", f"player {other} may not act now (waiting for [{mover}])")
    with pytest.raises(IllegalAction) as exc2:
        s.state.clone().apply_action(other, s.legal_actions(mover)[0])
    assert (exc2.value.rule, exc2.value.message) == (exc.value.rule, exc.value.message)  # the state's own error
    assert frozen(s) == before
    rng = Rng(4)
    while not s.is_over():
        for p in s.deciding():
            s.submit_action(p, rng.choice(s.legal_actions(p)))
    before = frozen(s)
    for seat in (0, 1):
        with pytest.raises(IllegalAction) as exc3:
            s.submit(seat, {"type": "step", "size": 1})
        assert (exc3.value.rule, exc3.value.message) == ("protocol.game_over", "the game is over")
    assert frozen(s) == before


def test_a_seat_outside_a_simultaneous_node_is_refused_and_nothing_is_buffered():
    """Deep Space Combat's melee (three seats): a node where two seats decide at once; the third seat's
    submission (one of a decider's legal actions) is refused with ``protocol.turn`` before and after a decider's
    choice is buffered, and changes nothing (the buffered choice stays, unseen)."""
    game = get_game("deepspace")
    opts = game.resolve_options({"scenario": "melee"})
    s = Session(game, opts, 3, ["human"] * 3)
    rng = Rng(1)
    while not 2 <= len(s.deciding()) < 3:
        assert not s.is_over()
        for p in s.deciding():
            s.submit_action(p, rng.choice(s.legal_actions(p)))
    first, second = s.deciding()[:2]
    out_of_turn = ({0, 1, 2} - set(s.deciding())).pop()

    def state_of():
        return (json.dumps(s.state.to_json(), sort_keys=True), json.dumps(s.record.to_json(), sort_keys=True),
                s.step, s.waiting_for(), [json.dumps(s.snapshot(p), sort_keys=True) for p in (0, 1, 2, None)])

    for buffered in (False, True):
        if buffered:
            assert s.submit_action(first, s.legal_actions(first)[0]).buffered == first
        before = state_of()
        with pytest.raises(IllegalAction) as exc:
            s.submit(out_of_turn, s.legal_actions(second)[0].to_json())
        assert exc.value.rule == "protocol.turn"
        assert exc.value.message == f"player {out_of_turn} may not act now (waiting for {list(s.deciding())})"
        assert state_of() == before
    assert s.submit_action(second, s.legal_actions(second)[0]).applied


def test_malformed_and_illegal_actions_are_refused_with_the_field_or_rule():
    s = toy()
    before = frozen(s)
    for bad, field in (("{not json", "action"), (b"\xff", "action"), ("[1, 2]", "action"), ({"type": "fly"}, "type"),
                       ({"type": "bid"}, "amount"), ({"type": "bid", "amount": "1"}, "amount"), (None, "action")):
        with pytest.raises(MalformedAction) as exc:
            s.submit(0, bad)
        assert exc.value.rule == "protocol.malformed"
        assert field in exc.value.field, (bad, exc.value.field)
    with pytest.raises(IllegalAction) as exc2:
        s.submit(0, {"type": "bid", "amount": 7})
    assert exc2.value.rule == "toy.bid.range"
    with pytest.raises(IllegalAction) as exc3:
        s.submit(0, '{"type": "step", "size": 1}')
    assert exc3.value.rule == "toy.phase"
    assert frozen(s) == before


def test_simultaneous_choices_are_buffered_unseen_and_applied_in_seat_order():
    s = toy()
    seat1_before = s.snapshot(1)
    spec_before = s.snapshot(None)
    out = s.submit(0, {"type": "bid", "amount": 2}, expected_step=0)
    assert out.buffered == 0 and out.applied == [] and s.step == 0
    # seat 1 and the spectator see only that seat 0 has decided
    for viewer, before in ((1, seat1_before), (None, spec_before)):
        now = s.snapshot(viewer)
        assert now["deciding"] == [{"seat": 0, "submitted": True}, {"seat": 1, "submitted": False}]
        assert {k: v for k, v in now.items() if k != "deciding"} == {k: v for k, v in before.items() if k != "deciding"}
    mine = s.snapshot(0)
    assert mine["submitted"]["action"] == {"type": "bid", "amount": 2} and mine["legal"] == [] and not mine["to_act"]
    assert s.snapshot(1)["submitted"] is None
    before = frozen(s)
    with pytest.raises(SessionError) as exc:
        s.submit(0, {"type": "bid", "amount": 1})
    assert exc.value.rule == "session.already_decided"
    with pytest.raises(IllegalAction):
        s.submit(1, {"type": "bid", "amount": 9})  # checked against the position before it is buffered
    assert frozen(s) == before
    out = s.submit(1, {"type": "bid", "amount": 1}, expected_step=0)
    assert [a.player for a in out.applied] == [0, 1] and out.step == 2
    # the other submission order gives the identical record
    t = toy()
    t.submit(1, {"type": "bid", "amount": 1})
    t.submit(0, {"type": "bid", "amount": 2})
    assert t.record.to_json() == s.record.to_json()
    assert t.state.to_json() == s.state.to_json()


def random_match(gid: str, opts: dict, seed: int, check=None) -> Session:
    """A match played through ``Session.submit`` with JSON from the snapshots, choosing as RandomAgent does (so
    the record must equal play_match's with RandomAgents)."""
    game = get_game(gid)
    s = Session(game, opts, seed, ["random"] * game.num_players(game.resolve_options(opts)))
    rngs = [Rng(derive_seed(seed, "seat", p)) for p in range(s.num_players)]
    while not s.is_over():
        for p in s.deciding():
            env = s.snapshot(p)
            if check:
                check(s, env)
            choice = rngs[p].choice(env["legal"])
            s.submit(p, json.dumps(choice["action"]), expected_step=env["step"])
    return s


def test_toy_match_through_json_equals_play_match():
    for seed in range(5):
        s = random_match("toy", {}, seed)
        record, _, _ = play_match(get_game("toy"), {}, seed, [RandomAgent(), RandomAgent()])
        assert s.record.to_json() == record.to_json()
        replay(s.record)


@pytest.mark.parametrize("gid", REAL_GAMES)
def test_real_game_through_json_equals_play_match_and_hides_secrets(gid):
    game = get_game(gid)
    opts = game.resolve_options({})
    sent: list[tuple[int, int | None, dict]] = []

    def check(s: Session, env: dict) -> None:
        # every viewer's envelope (with its whole log) every third step, checked once the match is over
        if s.step % 3 == 0:
            sent.extend((s.step, v, s.snapshot(v, since=0)) for v in (*range(s.num_players), None))

    s = random_match(gid, opts, 11, check)
    n = s.num_players
    record, _, _ = play_match(game, opts, 11, [RandomAgent() for _ in range(n)], ["random"] * n)
    assert s.record.to_json() == record.to_json()
    history = secret_history(s.record, (*range(n), None))
    assert sent and [x for step, v, env in sent for x in leaks(env, step, v, history)] == []
    for _step, viewer, env in sent:  # only events whose audience includes the viewer
        for entry in env["log"]:
            to = entry["event"].get("to")
            assert to is None or (viewer is not None and viewer in to)
    again = Session.replay(MatchRecord.from_json(json.loads(json.dumps(s.record.to_json()))))
    assert again.record.to_json() == s.record.to_json() and again.state.to_json() == s.state.to_json()
    assert again.snapshot(None) == s.snapshot(None)


def test_replay_equals_the_record_and_finds_tampering():
    s = random_match("toy", {}, 7)
    again = Session.replay(s.record)
    assert again.record.to_json() == s.record.to_json() and again.is_over()
    bad = MatchRecord.from_json(s.record.to_json())
    bad.steps[3].events[0]["position"] = 99
    with pytest.raises(RecordError) as exc:
        Session.replay(bad)
    assert exc.value.step == 3
    bad = MatchRecord.from_json(s.record.to_json())
    bad.steps[0].action["amount"] = 9
    with pytest.raises(RecordError) as exc:
        Session.replay(bad)
    assert exc.value.step == 0


def test_resume_from_submissions_keeps_a_buffered_choice():
    s = toy()
    s.submit(1, {"type": "bid", "amount": 2})
    r = Session.resume(get_game("toy"), {}, 3, ["alice", "bob"], [(1, {"type": "bid", "amount": 2})])
    assert r.waiting_for() == (0,) and r.snapshot(1) == s.snapshot(1)
    s.submit(0, {"type": "bid", "amount": 0})
    r.submit(0, {"type": "bid", "amount": 0})
    assert r.record.to_json() == s.record.to_json()


def test_the_log_is_bounded_and_incremental_and_filtered_for_spectators():
    s = random_match("toy", {}, 2)
    full = s.log(0, since=0)
    assert len(s.snapshot(0)["log"]) == min(LOG_TAIL, len(full))
    assert s.log(0, since=s.step - 1) == [x for x in full if x["step"] >= s.step - 1]
    # the toy's bids are announced publicly; the spectator log equals the public events of the record
    public = [e for st in s.record.steps for e in st.events if e.get("to") is None]
    assert [x["event"] for x in s.log(None, since=0)] == public


def test_mining_private_events_reach_their_seat_only():
    game = get_game("mining")
    found = False
    for seed in range(1, 6):
        s = random_match("mining", {}, seed)
        private = [(st_i, e) for st_i, st in enumerate(s.record.steps) for e in st.events if e.get("to")]
        if not private:
            continue
        found = True
        i, e = private[0]
        who = e["to"][0]
        assert e in [x["event"] for x in s.log(who, since=0)]
        assert e not in [x["event"] for x in s.log(None, since=0)]
        others = [q for q in range(s.num_players) if q not in e["to"]]
        for q in others:
            assert e not in [x["event"] for x in s.log(q, since=0)]
        out_events = [x for x in s.log(who, since=i) if x["step"] == i]
        assert out_events
        break
    assert found, f"no private event in 5 {game.id} matches"


def test_a_games_annotations_ride_on_its_legal_actions():
    toy_game = get_game("toy")

    class Annotated(toy_game):  # the hook a game overrides (the tactical course preview, say)
        @classmethod
        def annotate_legal(cls, state, player, actions, view=None):
            return [{"bid_of": a.amount} if a.amount else None for a in actions]

    s = Session(Annotated, {}, 3, ["alice", "bob"])
    legal = s.snapshot(0)["legal"]
    assert [x.get("note") for x in legal] == [None, {"bid_of": 1}, {"bid_of": 2}]
    assert "note" not in toy()._legal_entries(0)[0]


def test_board_hook_gives_the_tactical_board_and_none_elsewhere():
    assert get_game("toy").board({}) is None
    doc = get_game("tactical").board({"scenario": "duel"})
    assert doc["format"] == "deltav-tactical-board/1" and doc["scenario"]["id"] == "duel"


@pytest.mark.parametrize("game_id", ["toy", "mining"])
def test_each_viewers_log_and_view_follow_every_step(game_id):
    """The per-viewer log index and the view kept for a step's snapshots give what a scan of every event and a
    fresh view give, at every step of a whole match, for each seat and a spectator."""
    game = get_game(game_id)
    s = Session(game, {}, 5)
    rng = Rng(11)
    viewers = [None, *range(s.num_players)]
    while not s.is_over():
        for v in viewers:
            snap = s.snapshot(v)
            assert snap["view"] == s.state.view(v)
            every = [r for r in s._log if r[1].visible_to(v)]
            assert [e["event"] for e in snap["log"]] == [r[1].to_json() for r in every[-LOG_TAIL:]]
            for since in (0, max(0, s.step - 3), s.step):
                got = s.log(v, since)
                assert [(e["step"], e["event"]) for e in got] == [(r[0], r[1].to_json()) for r in every
                                                                  if r[0] >= since]
        seat = s.waiting_for()[0]
        legal = s.legal_actions(seat)
        s.submit_action(seat, rng.choice(legal), expected_step=s.step)


def test_the_outcome_carries_the_action_as_the_record_keeps_it_and_a_snapshot_may_leave_its_log_out():
    """The server stores ``Outcome.action`` (the session's one encoding of the submitted action) and sends a
    snapshot without its log to a socket that has it (``with_log=False``): the same envelope but ``log``."""
    s = toy()
    first = s.submit(0, '{"type": "bid", "amount": 2}')  # a simultaneous node: buffered
    assert first.buffered == 0 and first.action == {"type": "bid", "amount": 2}
    assert s.snapshot(0)["submitted"]["action"] == first.action
    second = s.submit(1, {"type": "bid", "amount": 1})
    assert second.applied and second.action == {"type": "bid", "amount": 1}
    assert [st.action for st in s.record.steps] == [first.action, second.action]
    for viewer in (0, 1, None):
        bare = s.snapshot(viewer, with_log=False)
        assert "log" not in bare and {**bare, "log": s.log(viewer)} == s.snapshot(viewer)
    single = s.submit_action(s.waiting_for()[0], s.legal_actions(s.waiting_for()[0])[0])
    assert single.action == s.record.steps[-1].action


def test_one_decoder_for_untrusted_actions_the_servers_and_apply_json():
    """``Session.submit`` (what the server calls with a client's action) and ``State.apply_json`` decode with the
    same bounded reader (``protocol.read_action``): the same refusals, naming the same field, for objects and text."""
    from deltav.core.protocol import read_action

    deep = {"type": "bid", "amount": 1, "x": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}
    bad = [deep, json.dumps(deep), '{"type": "bid", "amount": 1e999}', '{"type": "bid", "amount": 123456789012345678901234}',
           b'{"type": "bid", "amount": 1, "\xff": 2}', {"type": "bid", "amount": "1"}, {"type": "nope"}, "[1, 2"]
    for obj in bad:
        s = toy()
        with pytest.raises(MalformedAction) as by_session:
            s.submit(0, obj)
        with pytest.raises(MalformedAction) as by_state:
            s.state.clone().apply_json(0, obj)
        with pytest.raises(MalformedAction) as by_reader:
            read_action(s.game, obj)
        assert by_session.value.field == by_state.value.field == by_reader.value.field, obj
    s = toy()
    text = s.state.clone().apply_json(0, '{"type": "bid", "amount": 1}')
    assert text == s.state.clone().apply_json(0, {"type": "bid", "amount": 1})
    assert read_action(s.game, '{"type": "bid", "amount": 1}') == read_action(s.game, {"type": "bid", "amount": 1})
