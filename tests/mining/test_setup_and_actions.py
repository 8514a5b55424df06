"""Set-up and the four actions: move rockets (bumping, the alien freezing), prospect, survey, buy a rocket."""

from __future__ import annotations

import pytest

from deltav.core.errors import IllegalAction, OptionError
from deltav.games.mining.messages import (
    BuyRocket,
    Declare,
    EndLooks,
    EndMoves,
    Look,
    Move,
    Pass,
    Prospect,
    RevealIncident,
    Survey,
)
from deltav.games.mining.phases import PHASES
from deltav.games.mining.scenarios import STATION
from deltav.games.mining.visibility import squares_of
from tests.mining.helpers import GAME, new, place, play, put_rocket, types


def rule_of(st, p, action) -> str:
    before = st.to_json()
    with pytest.raises(IllegalAction) as err:
        st.apply_action(p, action)
    assert st.to_json() == before
    return err.value.rule


@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup(n):
    st = GAME.new_initial_state({"players": n}, 3)
    assert st.squares[STATION] == -1
    assert sorted(t for t in st.squares if t >= 0) == list(range(48))
    for p in range(n):
        assert st.rockets_at(p, STATION) == 1 and st.shipyards[p] == 4
        assert st.unspent_counters(p) == [5 * p + m for m in range(5)]
    assert PHASES[st.phase] == "action" and st.turn == 1


def test_first_player_is_random_and_seeded():
    firsts = {GAME.new_initial_state({"players": 4}, seed).current for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert GAME.new_initial_state({"players": 4}, 9).to_json() == GAME.new_initial_state({"players": 4}, 9).to_json()


def test_player_count_option_is_checked():
    with pytest.raises(OptionError):
        GAME.resolve_options({"players": 5})
    with pytest.raises(OptionError):
        GAME.resolve_options({"bump": "some"})


def test_move_from_station_then_back_and_each_rocket_once():
    st = new(mandatory_contract_attempt=False)
    play(st, 0, Move(STATION, 10))
    assert st.rockets_at(0, 10) == 1 and PHASES[st.phase] == "attempt"  # no rocket left to move: action over
    play(st, 0, Pass())
    play(st, 1, Prospect())
    play(st, 1, Pass())
    put_rocket(st, 0, 11)
    play(st, 0, Move(10, STATION))
    assert PHASES[st.phase] == "moving"
    assert rule_of(st, 0, Move(STATION, 10)) == "mining.move.already_moved"  # the rocket that just came back
    play(st, 0, Move(11, STATION))
    assert PHASES[st.phase] == "attempt" and st.rockets_at(0, STATION) == 2


def test_no_asteroid_to_asteroid_moves_by_default():
    st = new()
    put_rocket(st, 0, 10)
    put_rocket(st, 0, STATION)
    play(st, 0, Move(STATION, 12))
    assert rule_of(st, 0, Move(10, 11)) == "mining.move.via_station"
    play(st, 0, EndMoves())
    st2 = new(asteroid_to_asteroid=True)
    put_rocket(st2, 0, 10)
    play(st2, 0, Move(10, 11))
    assert st2.rockets_at(0, 11) == 1


def test_bumping_removes_both_rockets_and_own_rockets_do_not_bump():
    st = new(players=3)
    put_rocket(st, 1, 10)
    put_rocket(st, 2, 10)
    put_rocket(st, 0, 17)
    legal = st.legal_actions(0)
    assert Move(STATION, 10, 1) in legal and Move(STATION, 10, 2) in legal and Move(STATION, 10) not in legal
    assert rule_of(st, 0, Move(STATION, 10)) == "mining.move.bump"
    ev = play(st, 0, Move(STATION, 10, 2))
    assert "rockets-bumped" in types(ev)
    assert st.rockets_at(0, 10) == 0 and st.rockets_at(2, 10) == 0 and st.rockets_at(1, 10) == 1
    assert st.shipyards[0] == 4 and st.shipyards[2] == 4  # both back in their shipyards
    st2 = new()
    put_rocket(st2, 0, 10)
    put_rocket(st2, 0, STATION)
    ev = play(st2, 0, Move(STATION, 10))
    assert "rockets-bumped" not in types(ev) and st2.rockets_at(0, 10) == 2


def test_bump_all_option():
    st = new(players=3, bump="all")
    put_rocket(st, 1, 10)
    put_rocket(st, 2, 10)
    play(st, 0, Move(STATION, 10))
    assert not st.any_rocket_at(10)


def test_alien_freezes_rockets_and_moving_onto_it_is_allowed():
    st = new()
    put_rocket(st, 0, 10)
    st.alien = 10
    st._legal = None
    assert rule_of(st, 0, Move(10, STATION)) == "mining.move.frozen"
    assert all(not (isinstance(a, Move) and a.frm == 10) for a in st.legal_actions(0))
    play(st, 0, Move(STATION, 10))  # allowed; the rocket is now frozen too
    assert st.rockets_at(0, 10) == 2


def test_prospect_is_secret_and_may_reveal_one_incident():
    st = new()
    place(st, {10: ("alphatite", 5), 11: ("sabotage",), 12: ("rocket_acquisition",)})
    for s in (10, 11, 12):
        put_rocket(st, 0, s)
    ev = play(st, 0, Prospect())
    seen = [e for e in ev if e.TYPE == "tile-seen"]
    assert [e.square for e in seen] == [10, 11, 12] and all(e.to == (0,) for e in seen)
    looked = [e for e in ev if e.TYPE == "looked"][0]
    assert looked.to_json() == {"type": "looked", "player": 0, "squares": [10, 11, 12], "how": "prospect"}
    v1 = st.view(1)
    assert squares_of(v1)[10]["tile"] is None and squares_of(v1)[10]["looked_by"] == [0]
    assert squares_of(st.view(0))[10]["tile"]["kind"] == "alphatite"
    legal = st.legal_actions(0)
    assert RevealIncident(11) in legal and RevealIncident(12) in legal and RevealIncident(10) not in legal
    ev = play(st, 0, RevealIncident(11))
    assert "incident-taken" in types(ev) and "rockets-to-station" in types(ev)
    assert st.rockets_at(0, STATION) == 2 and st.squares[11] == -1
    assert PHASES[st.phase] == "attempt"  # only one incident per prospect: the choice is over
    assert [st.cfg.kinds[t] for t, _ in st.hands[0]] == [7]


def test_prospect_choice_is_offered_even_without_incident_so_nothing_leaks():
    st = new()
    place(st, {10: ("alphatite", 1)})
    put_rocket(st, 0, 10)
    play(st, 0, Prospect())
    assert st.legal_actions(0) == [Pass()]


def test_survey_costs_a_bribe_and_excludes_alien_and_opponent_tiles():
    st = new()
    put_rocket(st, 1, 2)
    st.alien = 3
    st._legal = None
    play(st, 0, Survey("b0-alphatite"))
    assert rule_of(st, 0, Look(3)) == "mining.survey.alien"
    assert rule_of(st, 0, Look(2)) == "mining.survey.opponent"
    ev = play(st, 0, Look(0))
    assert [e.TYPE for e in ev] == ["looked", "tile-seen"]
    assert rule_of(st, 0, EndLooks()) == "mining.survey.incomplete"
    assert rule_of(st, 0, Look(8)) == "mining.survey.line"
    play(st, 0, Look(5))
    play(st, 0, Look(6))  # three in row 0: the survey ends by itself
    assert PHASES[st.phase] == "attempt" and st.spent & 1
    assert st.view(0)["bribes"][0]["spent"] is True


def test_a_spent_bribe_cannot_pay_again():
    st = new()
    st.spent |= 1
    st._legal = None
    assert rule_of(st, 0, Survey("b0-alphatite")) == "mining.bribe.spent"
    assert rule_of(st, 0, Survey("b1-alphatite")) == "mining.bribe.not_held"


def test_survey_of_a_short_line():
    st = new()
    for s in range(7):  # row 0: only squares 0 and 1 stay eligible
        if s > 1:
            put_rocket(st, 1, s)
    for s in (7, 14, 21, 28, 35, 42):
        put_rocket(st, 1, s, from_station=False) if st.shipyards[1] else None
    st.alien = 7
    st._legal = None
    play(st, 0, Survey("b0-betamite"))
    play(st, 0, Look(0))
    play(st, 0, Look(1))
    assert PHASES[st.phase] == "attempt"  # no third eligible tile in row 0


def test_buy_a_rocket_until_the_shipyard_is_empty():
    st = new()
    play(st, 0, BuyRocket())
    assert st.rockets_at(0, STATION) == 2 and st.shipyards[0] == 3
    st.shipyards[0] = 0
    st.phase = 1
    st._legal = None
    assert BuyRocket() not in st.legal_actions(0)
    assert rule_of(st, 0, BuyRocket()) == "mining.buy.shipyard_empty"


def test_acting_out_of_turn_is_refused():
    st = new()
    assert rule_of(st, 1, Prospect()) == "protocol.turn"
    assert rule_of(st, 0, Declare("C01")) == "mining.action.wrong_kind"
