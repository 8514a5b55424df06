"""The one phase mechanism (``deltav.core.phases``) on the toy game: the checks on the way in, done once and in one
order (a well-typed value, the seat's turn, the phase's kind, then the phase's rules), the legal-list cache and
validation a game may ask for, and the declared transitions."""

from __future__ import annotations

import pytest

from deltav.core.errors import IllegalAction, MalformedAction
from deltav.core.phases import Phase, PhaseTable, check_transition
from tests.toygame import PHASES, Bid, Step, ToyGame, ToyState


def new():
    return ToyGame.new_initial_state(None, 3)


def refusal(state, player, action):
    before = state.to_json()
    with pytest.raises((IllegalAction, MalformedAction)) as exc:
        state.apply_action(player, action)
    assert state.to_json() == before
    return exc.value


def test_the_checks_on_the_way_in_come_in_one_order():
    s = new()
    # a value that is not well typed is refused first, whoever sends it
    assert isinstance(refusal(s, 7, Bid("2")), MalformedAction)
    assert isinstance(refusal(s, 0, "bid"), MalformedAction)
    # then the seat: no such seat, then the turn
    assert refusal(s, 7, Bid(1)).rule == "protocol.player"
    s.apply_action(0, Bid(1))
    err = refusal(s, 0, Bid(1))
    assert (err.rule, str(err.message)) == ("protocol.turn", "player 0 may not act now (waiting for [1])")
    # then the kind the phase takes (the phase's own rule and sentence), then the phase's rules
    s.apply_action(1, Bid(2))
    p = s.current_players()[0]
    assert (refusal(s, p, Bid(0)).rule, refusal(s, p, Bid(0)).message) == ("toy.phase", "the bidding is over")
    assert refusal(s, p, Step(3)).rule == "toy.step.size"
    while not s.is_terminal():
        s.apply_action(s.current_players()[0], Step(2))
    assert refusal(s, 0, Step(1)).rule == "protocol.game_over"
    assert refusal(s, 2, Step(1)).rule == "protocol.player"
    assert s.current_players() == () and s.legal_actions(0) == [] and PHASES.phase_of(s) is None


def test_each_decision_leads_where_the_table_says():
    s = new()
    s.apply_action(0, Bid(0))
    check_transition(PHASES, "bid", s)
    s.apply_action(1, Bid(0))
    check_transition(PHASES, "bid", s)
    assert s.phase == "race"
    s.phase = "bid"  # as if a race step had led back to the bidding
    with pytest.raises(AssertionError, match="not declared"):
        check_transition(PHASES, "race", s)


def test_a_table_is_checked_when_declared():
    def nothing(*args):
        return []

    with pytest.raises(ValueError, match="declared twice"):
        PhaseTable("phase", (Phase("a", nothing, nothing, nothing), Phase("a", nothing, nothing, nothing)), over="z")
    with pytest.raises(ValueError, match="undeclared"):
        PhaseTable("phase", (Phase("a", nothing, nothing, nothing, then=("b",)),), over="z")
    with pytest.raises(ValueError, match="wrong_kind"):
        PhaseTable("phase", (Phase("a", nothing, nothing, nothing, kinds=(Bid,)),), over="z")
    with pytest.raises(ValueError, match="names nobody who decides"):
        PhaseTable("phase", (Phase("a", None, nothing, nothing),), over="z")
    with pytest.raises(ValueError, match="over= or terminal="):
        PhaseTable("phase", (Phase("a", nothing, nothing, nothing),))


class CachedToy(ToyState):
    """The toy on a table that keeps the legal list and validates against it (what mining asks for)."""

    _legal = None
    calls = 0


def _counting_legal(state, player):
    CachedToy.calls += 1
    return [Step(1), Step(2)]


def _why(state, player, action):
    return IllegalAction("toy.step.unlisted", f"{action.TYPE} {action.size} is not listed")


CACHED = PhaseTable("phase", (
    PHASES.phases["bid"],
    Phase("race", PHASES.phases["race"].players, _counting_legal, PHASES.phases["race"].apply, kinds=(Step,),
          wrong_kind=PHASES.phases["race"].wrong_kind, then=("race",)),
), terminal="res", cache="_legal", validate=_why)
CachedToy.current_players = CACHED.current_players
CachedToy.legal_actions = CACHED.legal_actions
CachedToy.apply_action = CACHED.apply_action


def test_a_cached_table_answers_from_its_list_and_validates_against_it():
    s = new()
    s.__class__ = CachedToy
    s.apply_action(0, Bid(0))
    s.apply_action(1, Bid(0))
    p = s.current_players()[0]
    CachedToy.calls = 0
    listed = s.legal_actions(p)
    assert s.legal_actions(p) == listed and CachedToy.calls == 1  # the second answer is the kept list
    listed.clear()  # a caller's copy: the kept list is untouched
    assert len(s.legal_actions(p)) == 2
    assert refusal(s, p, Step(3)).rule == "toy.step.unlisted"  # validated against the list, before the rules
    s.apply_action(p, s.legal_actions(p)[1])  # the engine's own action: applied at once
    assert s._legal is None and s.pos[p] >= 2
