"""The match core without a server (``deltav.server.match``): every input, every refusal code and its precedence,
clocks as deadlines, endings as data, and the one rebuild from storage (``Match.from_rows``). No socket, no
event loop, no database: the core is driven as the host drives it, with explicit times."""

from __future__ import annotations

import json

import pytest

from deltav.core.protocol import get_game
from deltav.server.match import Accept, ClientError, Finish, Match, seat_names
from deltav.server.store import MatchRow, SeatRow
from deltav.server.tokens import token_hash

T0 = 1_000_000.0  # the match's "now" at the start (epoch seconds)


def row(status: str = "live", clock: dict | None = None, seats=("human", "human"), submissions=(), seed: int = 3,
        **meta) -> MatchRow:
    rows = [SeatRow(i, spec, token_hash(f"t{i}") if spec == "human" and (status == "live" or i == 0) else None,
                    ["ann", "ben", "cy"][i] if spec == "human" else None) for i, spec in enumerate(seats)]
    m = {"live_at": T0, **meta}
    if clock is not None:
        m["clock"] = clock
    subs = list(submissions)
    return MatchRow("KXMPT", 1, "toy", {}, seed, status, rows, meta=m, created_at=T0, submissions=subs,
                    submitted_at=[T0 + i + 1 for i in range(len(subs))], public=True)


def match(*args, grace: float = 60.0, **kw) -> Match:
    return Match.from_rows(get_game, row(*args, **kw), grace)


def frozen(m: Match) -> str:
    return json.dumps([m.seq, m.status, m.session.step, m.session.record.to_json(), m.meta,
                       [m.session.snapshot(v) for v in (0, 1, None)]], sort_keys=True, default=str)


def code(fn) -> str:
    with pytest.raises(ClientError) as exc:
        fn()
    return exc.value.code


BID = {"type": "bid", "amount": 1}


def test_submit_refusals_in_their_order_and_none_changes_anything():
    m = match(status="open")
    before = frozen(m)
    # spectator first, whatever else is wrong; then the message's shape; then the room's status
    assert code(lambda: m.submit(None, {"action": "x"}, T0)) == "spectator"
    assert code(lambda: m.submit(0, {"step": 0}, T0)) == "bad_message"
    assert code(lambda: m.submit(0, {"action": BID, "step": "0"}, T0)) == "bad_message"
    assert code(lambda: m.submit(0, {"action": BID, "step": True}, T0)) == "bad_message"
    assert code(lambda: m.submit(0, {"action": BID, "step": 0}, T0)) == "not_started"
    assert frozen(m) == before

    m = match()
    before = frozen(m)

    def refused(seat, action, step):
        update = m.submit(seat, {"action": action, "step": step, "id": 7}, T0)
        assert update.rows == [] and not update.states and update.reply["id"] == 7 and update.reply["step"] == 0
        return update.reply["code"]

    # the session's refusals: the action decodes first, then the step, then whose turn, then already decided
    assert refused(0, {"type": "nope"}, 5) == "malformed_action"
    assert refused(0, BID, 5) == "stale_step"
    assert refused(0, {"type": "bid", "amount": 9}, 0) == "illegal_action"
    assert frozen(m) == before
    first = m.submit(0, {"action": BID, "step": 0}, T0)
    assert first.reply == {"type": "accepted", "id": None, "step": 0, "buffered": True}
    after_first = frozen(m)
    assert refused(0, BID, 1) == "stale_step"  # the step before "already decided"
    assert refused(0, BID, 0) == "already_decided"
    assert frozen(m) == after_first
    m.submit(1, {"action": {"type": "bid", "amount": 0}, "step": 0}, T0)  # seat 0 bid more: it moves first
    assert m.session.waiting_for() == (0,)
    step = m.session.step

    def refused_at(seat, action, s):
        return m.submit(seat, {"action": action, "step": s}, T0).reply["code"]

    assert refused_at(1, {"type": "step", "size": 1}, step + 1) == "stale_step"  # the step before the turn
    assert refused_at(1, {"type": "step", "size": 1}, step) == "not_your_turn"
    m.resign(1)
    assert code(lambda: m.submit(0, {"action": {"type": "step", "size": 1}, "step": step}, T0)) == "game_over"


def test_an_accepted_submission_is_one_row_then_the_answer_then_every_viewers_state():
    m = match()
    first = m.submit(0, {"action": BID, "step": 0, "id": "a"}, T0 + 5)
    assert first.rows == [Accept(0, 0, BID, T0 + 5)] and first.notify == 0
    assert first.reply["buffered"] and first.states and first.applied == [] and first.wake_bots
    assert m.turn_started == T0  # a choice buffered at a simultaneous node does not restart the turn
    # unknown fields of a message are ignored; accepted.step is the step the next submission must carry
    second = m.submit(1, {"action": {"type": "bid", "amount": 2}, "step": 0, "colour": "red"}, T0 + 9)
    assert second.reply == {"type": "accepted", "id": None, "step": 2, "buffered": False}
    assert second.rows[0].seq == 1 and second.rows[0].action == {"type": "bid", "amount": 2}
    assert [a.index for a in second.applied] == [0, 1] and m.seq == 2 and m.turn_started == T0 + 9
    # the stored row is the session's own encoding of the action, as its record keeps it
    assert [st.action for st in m.session.record.steps] == [BID, {"type": "bid", "amount": 2}]
    # each viewer's new entries: the session's own, encoded once for the viewers that see the same ones
    texts = m.events_texts(second.applied)
    assert json.loads(texts(None)) == m.session.log(None, 0) and texts(0) == texts(1) == texts(None)


def test_resign_and_claim_refusals_in_their_order_and_the_one_forfeit():
    m = match(status="open")
    assert code(lambda: m.resign(None)) == "spectator"
    assert code(lambda: m.resign(0)) == "not_started"
    assert code(lambda: m.claim(None)) == "spectator"
    assert code(lambda: m.claim(0)) == "not_started"
    assert code(lambda: match(grace=0).claim(0)) == "no_claims"
    m = match()
    m.connect(0, T0)
    m.connect(1, T0)
    assert code(lambda: m.claim(0)) == "nobody_absent"
    m.disconnect(1, T0 + 1)
    assert m.grace_until == {1: T0 + 61} and m.deadlines() == [T0 + 61]
    with pytest.raises(ClientError) as running:
        m.claim(0)
    assert running.value.code == "grace_running" and running.value.extra["grace_until"] == {"1": T0 + 61}
    update, late = m.due(T0 + 30)
    assert late is None and not update.states and m.expired == set()
    update, late = m.due(T0 + 61)
    assert update.states and update.live and m.expired == {1} and m.room_info()["claimable"] == [1]
    before = frozen(m)
    ended = m.claim(0)
    assert m.status == "finished" and isinstance(ended.rows[0], Finish) and ended.rows[0].meta["ending"]["seats"] == [1]
    assert [msg["type"] for msg in ended.said] == ["ended", "forfeit"] and ended.said[1]["seat"] == 1
    assert ended.said[0]["ending"]["reason"] == "ben did not come back within 60 s; ann claimed the win"
    assert frozen(m) != before and m.session.snapshot(0)["result"]["winners"] == [0]
    assert code(lambda: m.claim(0)) == "game_over" and code(lambda: m.resign(1)) == "game_over"
    resigned = match().resign(1)
    assert resigned.said == [{"type": "ended", "ending": resigned.rows[0].meta["ending"]}]
    assert resigned.rows[0].meta["ending"]["reason"] == "ben resigned"


def test_grace_for_a_seat_that_never_connected_and_for_one_that_comes_back():
    m = match()
    m.connect(0, T0)
    # seat 1 took its seat over HTTP but never connected: its grace runs from the moment another human is here
    assert m.grace_until == {1: T0 + 60}
    m.disconnect(0, T0 + 1)
    assert m.grace_until == {1: T0 + 60}  # nobody is here to claim: seat 0 gets no grace of its own
    m = match()
    m.connect(0, T0)
    m.connect(1, T0)
    m.disconnect(1, T0 + 2)
    assert m.grace_until == {1: T0 + 62}
    m.connect(1, T0 + 3)
    assert m.grace_until == {} and m.deadlines() == []


def test_the_turn_clock_is_a_deadline_forfeit_or_a_stand_in_once():
    m = match(clock={"turn_seconds": 10, "on_timeout": "forfeit"})
    assert m.deadlines() == [T0 + 10] and m.room_info()["clock"]["seats"] == [0, 1]
    assert m.due(T0 + 9.9)[1] is None and m.status == "live"
    m.submit(0, {"action": BID, "step": 0}, T0 + 5)
    assert m.deadlines() == [T0 + 10] and m.late_seats() == [1]  # a buffered choice does not restart the turn
    update, late = m.due(T0 + 10)
    assert late is None and m.status == "finished" and update.rows[0].meta["ending"]["seats"] == [1]
    assert update.said[0]["ending"]["reason"] == "ben did not decide within the turn time (10 s)"
    assert m.deadlines() == []

    m = match(clock={"turn_seconds": 10, "on_timeout": "bot"})
    update, late = m.due(T0 + 10)
    assert late == 0 and m.status == "live"
    assert m.due(T0 + 11)[1] is None and m.deadlines() == []  # asked once: the host's stand-in is playing it
    played = m.play(0, get_game("toy").action_from_json(BID), 0, T0 + 12)
    assert played.rows[0].bot_state is None and m.late_seats() == [1]
    assert m.due(T0 + 12)[1] == 1  # the next late seat of the simultaneous node at once


def test_from_rows_rebuilds_the_match_as_stored_and_applies_a_stored_ending():
    played = match()
    played.submit(0, {"action": BID, "step": 0}, T0 + 1)
    played.submit(1, {"action": BID, "step": 0}, T0 + 2)
    subs = [(r.player, r.action) for r in played.session.record.steps]
    again = match(submissions=subs)
    assert again.seq == 2 and again.session.record.to_json() == played.session.record.to_json()
    assert again.turn_started == T0 + 2 and again.session.names == seat_names(again.seats) == ["ann", "ben"]
    ended = played.resign(0).rows[0].meta
    gone = match(status="finished", submissions=subs, **{"ending": ended["ending"]})
    assert gone.session.is_over() and gone.session.snapshot(None)["result"]["winners"] == [1]


def test_a_rematch_rotates_the_seats_draws_a_new_seed_and_keeps_the_clock_and_clients():
    m = match(clock={"turn_seconds": 30, "on_timeout": "bot"}, clients={"0": ["a"], "1": ["b"]})
    m.connect(0, T0)
    m.connect(1, T0)
    m.resign(0)
    assert code(lambda: m.rematch(None)) == "spectator"
    assert m.rematch(0) is False and m.room_info()["rematch_votes"] == [0]
    assert m.rematch(1) is True
    nxt = m.next_match(now=T0 + 100)
    fresh = Match.from_rows(get_game, nxt, 60.0)
    assert fresh.no == 2 and fresh.status == "live" and fresh.seed != m.seed and fresh.public
    assert [s.name for s in fresh.seats] == ["ben", "ann"] and fresh.seats[0].token_hash == token_hash("t1")
    assert fresh.clock == m.clock and fresh.room_info()["clock"]["turn_seconds"] == 30
    assert fresh.deadlines() == [T0 + 130]  # the clock runs from the moment the rematch went live
    assert fresh.meta["clients"] == {"0": ["b"], "1": ["a"]} and fresh.meta["played"] == [0, 1]
    assert code(lambda: match().rematch(0)) == "not_finished"


def test_chat_lines_are_checked_and_trimmed():
    m = match()
    assert code(lambda: m.chat(None, "hi")) == "spectator"
    assert code(lambda: m.chat(0, 5)) == "bad_message"
    assert code(lambda: m.chat(0, " \n ")) == "chat_empty"
    assert code(lambda: m.chat(0, "x" * 301)) == "chat_too_long"
    assert m.chat(1, "  good   luck ") == ("ben", "good luck")


def test_suggest_refusals_in_their_order_and_the_work_is_the_seats_own_decision():
    """``suggest``: checked (nothing changes), then the work built from the asking seat's own view and legal
    actions, each bot with an RNG derived from the room, match, step and spec (never the match seed)."""
    people = match()
    before = frozen(people)
    assert code(lambda: people.suggest(None, {})) == "spectator"
    assert code(lambda: people.suggest(0, {"bots": "bot:easy"})) == "bad_message"
    assert code(lambda: people.suggest(0, {"bots": ["bot:random"] * 5})) == "over_budget"
    assert code(lambda: people.suggest(0, {"bots": ["bot:nope"]})) == "bad_candidates"
    assert code(lambda: people.suggest(0, {"bots": ["bot:random"]})) == "no_bot_help"
    assert code(lambda: people.suggest(0, {})) == "no_bot_help"  # neither bots nor plan: the hard bot's hint
    plan = people.suggest(1, {"plan": {"ship": "x"}, "id": 4}).work  # a plan is the seat's own: between people too
    assert plan.bots == [] and plan.plan == {"ship": "x"} and plan.view == people.session.state.view(1)
    assert plan.ref == 4 and plan.seat == 1 and plan.step == people.session.step
    assert frozen(people) == before

    m = match(seats=("human", "bot:random"))
    assert code(lambda: match(status="open", seats=("human", "bot:random")).suggest(0, {"bots": ["random"]})) == "not_live"
    m.submit(0, {"action": BID, "step": 0}, T0)
    assert 0 not in m.session.waiting_for()
    assert code(lambda: m.suggest(0, {"bots": ["random"]})) == "not_your_turn"
    m = match(seats=("human", "bot:random"))
    work = m.suggest(0, {"bots": ["random", "bot:random"], "id": "q"}).work
    assert [b.spec for b, _ in work.bots] == ["bot:random", "bot:random"] and work.plan is None
    own = m.session.decision(0, None)
    for bot, decision in work.bots:
        assert decision.player == 0 and decision.view == own.view and decision.legal_actions == own.legal_actions
        assert decision.rng is bot.rng
    again = m.suggest(0, {"bots": ["random"]}).work
    assert again.bots[0][1].rng.random() == work.bots[0][1].rng.random()  # the same request, the same RNG
    answer = m.suggested(work, [{"spec": "bot:random", "action": BID, "text": "t"}]).reply
    assert answer == {"type": "suggestion", "id": "q", "step": 0, "candidates": [{"spec": "bot:random", "action": BID,
                                                                                 "text": "t"}]}
    assert m.suggested(plan, None, {"found": True}).reply == {"type": "suggestion", "id": 4, "step": 0,
                                                               "plan": {"found": True}}


def test_two_seats_never_share_a_name():
    """A person and two easy bots at one table: each text says which bot (before, both were "Easy bot", and the
    result marked both rows of the scores table as the winner's)."""
    seats = [SeatRow(0, "human", None, None), SeatRow(1, "bot:easy", None, None), SeatRow(2, "bot:easy", None, None)]
    assert seat_names(seats) == ["Player 1", "Easy bot 1", "Easy bot 2"]
    twins = [SeatRow(0, "human", None, "Ann"), SeatRow(1, "human", None, "Ann"), SeatRow(2, "bot:hard", None, None)]
    assert seat_names(twins) == ["Ann 1", "Ann 2", "Hard bot"]
    m = Match.from_rows(get_game, row(seats=("human", "bot:random")), 60.0)
    assert m.session.names == ["ann", "Random bot"]
    rows = row(seats=("bot:random", "bot:random"))
    assert Match.from_rows(get_game, rows, 60.0).session.names == ["Random bot 1", "Random bot 2"]
