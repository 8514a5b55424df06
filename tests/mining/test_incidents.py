"""Incidents (Mineral Scan, Sabotage, Rocket Acquisition, Pirate Attack, Meteor Storm, Alien Encounter), the
reaction windows, the turn-acquired restriction and the three end conditions."""

from __future__ import annotations

import pytest

from deltav.core.errors import IllegalAction
from deltav.games.mining import MiningGame, flow
from deltav.games.mining.messages import (
    BuyRocket,
    Declare,
    Discard,
    EndLooks,
    Look,
    Move,
    MoveAlien,
    Pass,
    Prospect,
    Replace,
    Reveal,
    RevealIncident,
    Sabotage,
    SabotageMove,
    Steal,
    Survey,
)
from deltav.games.mining.phases import BIT, PHASES
from deltav.games.mining.scenarios import STATION
from deltav.games.mining.visibility import squares_of
from tests.mining.helpers import give, new, place, play, put_rocket, types


def rule_of(st, p, action) -> str:
    before = st.to_json()
    with pytest.raises(IllegalAction) as err:
        st.apply_action(p, action)
    assert st.to_json() == before
    return err.value.rule


def restart(st):
    """Start player 0's turn again (after changing holdings, so the windows see them)."""
    flow.start_turn(st, [])
    st._legal = None


def test_mineral_scan_looks_under_rockets_plus_one_per_rocket_in_play():
    st = new()
    scan = give(st, 0, "mineral_scan")
    place(st, {10: ("pirate_attack",), 20: ("sabotage",)})
    put_rocket(st, 0, 10)
    ev = play(st, 0, Discard(scan))
    assert [e.square for e in ev if e.TYPE == "tile-seen"] == [10]
    assert PHASES[st.phase] == "scan" and st.scan_left == 2  # one rocket on the station, one on square 10
    play(st, 0, Look(20))
    play(st, 0, Look(30))
    assert PHASES[st.phase] == "reveal-choice"
    assert st.legal_actions(0) == [RevealIncident(10), Pass()]  # square 20 has no rocket of player 0
    play(st, 0, RevealIncident(10))
    assert PHASES[st.phase] == "action" and len(st.hands[0]) == 1  # back to choosing the turn's action
    play(st, 0, BuyRocket())


def test_mineral_scan_counting_asteroid_rockets_only():
    st = new(scan_counts_station_rockets=False)
    scan = give(st, 0, "mineral_scan")
    put_rocket(st, 0, 10)
    play(st, 0, Discard(scan))
    assert st.scan_left == 1
    play(st, 0, EndLooks())
    assert PHASES[st.phase] == "reveal-choice"


def test_sabotage_removes_an_opponent_rocket_and_may_move_in():
    st = new()
    sab = give(st, 0, "sabotage")
    put_rocket(st, 1, 10)
    play(st, 0, Discard(sab))
    legal = st.legal_actions(0)
    assert set(legal) == {Sabotage(1, 10), Sabotage(1, STATION)}
    ev = play(st, 0, Sabotage(1, 10))
    assert types(ev) == ["rocket-removed"] and st.shipyards[1] == 4 + 0 and st.rockets_at(1, 10) == 0
    assert st.legal_actions(0) == [SabotageMove(STATION), Pass()]
    play(st, 0, SabotageMove(STATION))
    assert st.rockets_at(0, 10) == 1 and PHASES[st.phase] == "action"


def test_sabotage_option_protects_station_and_frozen_rockets():
    st = new(sabotage_any_rocket=False)
    sab = give(st, 0, "sabotage")
    put_rocket(st, 1, 10)
    put_rocket(st, 1, 11)
    st.alien = 11
    play(st, 0, Discard(sab))
    assert st.legal_actions(0) == [Sabotage(1, 10)]


def test_rocket_acquisition():
    st = new()
    acq = give(st, 0, "rocket_acquisition")
    ev = play(st, 0, Discard(acq))
    assert types(ev) == ["incident-discarded", "rocket-placed"]
    assert st.rockets_at(0, STATION) == 2 and st.shipyards[0] == 3 and PHASES[st.phase] == "action"
    assert st.view(None)["discarded"][0]["kind"] == "rocket_acquisition"


def test_an_incident_cannot_be_used_on_the_turn_it_was_taken():
    st = new()
    acq = give(st, 0, "rocket_acquisition", acquired_turn=st.turn)
    assert Discard(acq) not in st.legal_actions(0)
    assert rule_of(st, 0, Discard(acq)) == "mining.incident.same_turn"
    assert rule_of(st, 0, Discard("t00")) == "mining.incident.not_held"
    st2 = new(incident_cooldown=False)
    acq = give(st2, 0, "rocket_acquisition", acquired_turn=st2.turn)
    play(st2, 0, Discard(acq))


def test_an_incident_taken_by_prospecting_waits_for_a_later_turn():
    st = new()
    place(st, {10: ("rocket_acquisition",)})
    put_rocket(st, 0, 10)
    play(st, 0, Prospect())
    play(st, 0, RevealIncident(10))
    tid = st.cfg.ids[st.hands[0][0][0]]
    assert PHASES[st.phase] == "attempt" and Discard(tid) not in st.legal_actions(0)
    assert rule_of(st, 0, Discard(tid)) == "mining.incident.same_turn"


def test_pirate_attack_window_stops_the_action_but_not_the_attempt():
    st = new()
    pirate = give(st, 1, "pirate_attack")
    restart(st)
    assert PHASES[st.phase] == "pirate-window" and st.current_players() == [1]
    assert st.legal_actions(1) == [Discard(pirate), Pass()]
    assert rule_of(st, 0, Prospect()) == "protocol.turn"
    ev = play(st, 1, Discard(pirate))
    assert ev[0].to_json() == {"type": "incident-discarded", "player": 1, "tile": pirate, "kind": "pirate_attack",
                               "target": 0}
    assert st.legal_actions(0) == [Pass()]
    assert rule_of(st, 0, Move(STATION, 10)) == "mining.pirate.no_action"
    play(st, 0, Pass())
    assert PHASES[st.phase] == "attempt" and Declare("C01") in st.legal_actions(0)


def test_pirate_window_pass_lets_the_action_happen():
    st = new(players=3)
    give(st, 1, "pirate_attack")
    give(st, 2, "pirate_attack") if st.cfg.kinds.count(9) > 1 else None
    restart(st)
    while PHASES[st.phase] == "pirate-window":
        play(st, st.current_players()[0], Pass())
    assert Prospect() in st.legal_actions(0)


def test_meteor_storm_window_stops_the_attempt():
    st = new()
    meteor = give(st, 1, "meteor_storm")
    play(st, 0, Prospect())
    assert PHASES[st.phase] == "meteor-window" and st.current_players() == [1]
    play(st, 1, Discard(meteor))
    assert st.legal_actions(0) == [Pass()]
    assert rule_of(st, 0, Declare("C01")) == "mining.meteor.no_attempt"
    play(st, 0, Pass())
    assert st.current == 1


def test_windows_ask_everyone_when_skip_empty_windows_is_off():
    st = new(players=3, skip_empty_windows=False)
    assert PHASES[st.phase] == "pirate-window" and st.queue == (1, 2)
    assert st.legal_actions(1) == [Pass()]


def alien_setup(**opts):
    st = new(**opts)
    place(st, {10: ("alien_encounter",)})
    put_rocket(st, 0, 10)
    put_rocket(st, 1, 10)
    return st


def test_alien_encounter_moves_the_alien_and_steals():
    st = alien_setup()
    meteor = give(st, 1, "meteor_storm")
    play(st, 0, Prospect())
    ev = play(st, 0, RevealIncident(10))
    assert types(ev) == ["tile-revealed", "rockets-to-station", "alien-encounter"]
    assert st.faceup & BIT[10] and st.squares[10] >= 0 and st.rockets_at(1, STATION) == 2
    assert PHASES[st.phase] == "alien-move" and MoveAlien(STATION) not in st.legal_actions(0)
    play(st, 0, MoveAlien(12))
    assert st.alien == 12
    legal = st.legal_actions(0)
    assert Steal(meteor, 1) in legal and Steal("b1-alphatite", 1) in legal  # each names its victim
    assert not [a for a in legal if isinstance(a, Steal) and a.item == "b0-alphatite"]
    ev = play(st, 0, Steal("b1-gammatite", 1))
    assert ev[0].to_json() == {"type": "stolen", "thief": 0, "victim": 1, "item": "b1-gammatite"}
    assert st.holders[st.cfg.counter_index["b1-gammatite"]] == 0
    assert PHASES[st.phase] == "meteor-window"  # the opponent's Meteor Storm is still there
    # the face-up alien tile cannot be looked at or revealed
    assert squares_of(st.view(None))[10]["status"] == "face_up"


def test_two_tiles_of_a_kind_in_one_hand_are_one_choice_and_each_steal_names_its_victim():
    """No two legal actions read alike: of an opponent's two Mineral Scans one is offered ("Steal Ben's Mineral
    Scan"), two opponents' tiles of a kind are different choices ("Steal Cleo's Sabotage"); a record naming the other tile, or no
    victim, still applies, a wrong victim is refused."""
    st = alien_setup(players=3, scenario="variant-b")  # two tiles of each incident
    scan1, scan2 = give(st, 1, "mineral_scan"), give(st, 1, "mineral_scan")
    sab1, sab2 = give(st, 1, "sabotage"), give(st, 2, "sabotage")
    play(st, 0, Prospect())
    play(st, 0, RevealIncident(10))
    play(st, 0, Pass())  # the alien stays off the board
    tiles = [a for a in st.legal_actions(0) if isinstance(a, Steal) and a.item.startswith("t")]
    assert tiles == [Steal(scan1, 1), Steal(sab1, 1), Steal(sab2, 2)]
    d = MiningGame.describer({"players": 3, "scenario": "variant-b"}, ["Ann", "Ben", "Cleo"])
    assert [d(a) for a in tiles] == ["Steal Ben's Mineral Scan", "Steal Ben's Sabotage", "Steal Cleo's Sabotage"]
    assert d(Steal("b1-gammatite", 1)) == "Steal Ben's Gammatite counter"
    assert rule_of(st, 0, Steal(scan2, 2)) == "mining.alien.steal"  # Cleo does not hold it
    ev = st.apply_action(0, Steal(scan2))  # the unlisted twin, as a record from before names it
    assert ev[0].to_json() == {"type": "stolen", "thief": 0, "victim": 1, "item": scan2}
    assert [st.cfg.ids[t] for t, _ in st.hands[1]] == [scan1, sab1]


def test_a_record_whose_steals_name_no_victim_still_replays():
    """Records made before a steal named its victim write {"type": "steal", "item": ...}: they replay, event for
    event, to the same result."""
    from deltav.core.agent import RandomAgent
    from deltav.core.match import play_match
    from deltav.core.records import MatchRecord, replay

    rec, _, _ = play_match(MiningGame, {"players": 4, "scenario": "variant-b"}, 0, [RandomAgent() for _ in range(4)])
    doc = rec.to_json()
    steals = [s["action"] for s in doc["steps"] if s["action"]["type"] == "steal"]
    assert steals and all("victim" in a for a in steals)
    for a in steals:
        del a["victim"]
    final = replay(MatchRecord.from_json(doc))
    assert final.result().to_json() == rec.result


def test_two_tiles_of_a_kind_in_your_hand_are_one_discard():
    st = new(scenario="variant-b")
    scan1, scan2 = give(st, 0, "mineral_scan"), give(st, 0, "mineral_scan")
    discards = [a for a in st.legal_actions(0) if isinstance(a, Discard)]
    assert discards == [Discard(scan1)]
    st.apply_action(0, Discard(scan2))  # the twin is the same choice
    assert [st.cfg.ids[t] for t, _ in st.hands[0]] == [scan1]


def test_a_stolen_bribe_is_usable_by_the_thief_and_costs_the_thief():
    st = alien_setup()
    play(st, 0, Prospect())
    play(st, 0, RevealIncident(10))
    play(st, 0, Pass())  # the alien stays off the board
    play(st, 0, Steal("b1-betamite", 1))
    place(st, {11: ("gammatite", 3)})
    play(st, 0, Declare("C05"))
    play(st, 0, Reveal(11))
    assert Replace("b1-betamite") in st.legal_actions(0)
    play(st, 0, Replace("b1-betamite"))
    assert st.scores()[0] == -2 and st.scores()[1] == 0


def test_a_stolen_bribe_can_be_discarded_by_option():
    st = alien_setup(stolen_bribe="discarded")
    play(st, 0, Prospect())
    play(st, 0, RevealIncident(10))
    play(st, 0, Pass())
    play(st, 0, Steal("b1-betamite", 1))
    assert st.holders[st.cfg.counter_index["b1-betamite"]] == -1 and len(st.unspent_counters(1)) == 4


def test_a_stolen_incident_is_not_usable_on_that_turn():
    st = alien_setup()
    acq = give(st, 1, "rocket_acquisition")
    play(st, 0, Prospect())
    play(st, 0, RevealIncident(10))
    play(st, 0, Pass())
    play(st, 0, Steal(acq, 1))
    assert Discard(acq) not in st.legal_actions(0)


def test_the_fifth_alien_encounter_ends_the_game_at_once():
    st = alien_setup()
    st.aliens = 4
    play(st, 0, Prospect())
    ev = play(st, 0, RevealIncident(10))
    assert types(ev)[-1] == "game-ended" and st.is_terminal()
    assert st.result().reason == "the fifth Alien Encounter was revealed" and st.alien == -1
    assert st.current_players() == [] and st.legal_actions(0) == []


def test_an_alien_revealed_in_an_attempt_fails_it():
    st = new()
    place(st, {10: ("alphatite", 2), 11: ("alien_encounter",)})
    play(st, 0, Prospect())
    play(st, 0, Declare("C05"))
    play(st, 0, Reveal(10))
    play(st, 0, Reveal(11))
    play(st, 0, MoveAlien(10))
    ev = play(st, 0, Pass())  # steal nothing
    assert "attempt-failed" in types(ev) and st.current == 1 and st.alien == 10


def test_end_when_the_last_contract_is_fulfilled():
    st = new(bid_up=False)
    for i in range(11):
        st.contract_owners[i] = 1
    place(st, {10: ("alphatite", 5), 11: ("betamite", 5), 12: ("betamite", 4), 13: ("gammatite", 5),
               14: ("deltamite", 5)})
    play(st, 0, Prospect())
    play(st, 0, Declare("C12"))
    for s in (10, 11, 12, 13):
        play(st, 0, Reveal(s))
    ev = play(st, 0, Reveal(14))
    assert st.is_terminal() and st.result().reason == "the last contract was fulfilled"
    assert ev[-1].to_json()["winners"] == [0] and st.result().scores == (24, 0)


def _shrink_board(st, keep):
    for s in range(49):
        if s != STATION and s not in keep and st.squares[s] >= 0:
            st._remove_tile(s)
    st._legal = None


def test_end_when_no_tile_is_free_at_the_end_of_a_turn():
    st = new()
    place(st, {10: ("alphatite", 1), 11: ("betamite", 1), 12: ("alien_encounter",)})
    _shrink_board(st, {10, 11, 12})
    st.faceup |= BIT[12]
    put_rocket(st, 1, 10)
    st.alien = 11
    play(st, 0, Prospect())
    ev = play(st, 0, Pass())
    assert st.is_terminal() and "no tile is left" in st.result().reason and types(ev)[-1] == "game-ended"
    assert st.result().winners == (0, 1)  # all tied: a shared win
    st2 = new(alien_tiles_count_for_end=True)
    place(st2, {10: ("alphatite", 1), 11: ("betamite", 1), 12: ("alien_encounter",)})
    _shrink_board(st2, {10, 11, 12})
    st2.faceup |= BIT[12]
    put_rocket(st2, 1, 10)
    st2.alien = 11
    play(st2, 0, Prospect())
    play(st2, 0, Pass())
    assert not st2.is_terminal()


def test_tie_breaks_through_a_finished_game():
    st = new(full_tie="draw")
    _shrink_board(st, {10})
    put_rocket(st, 1, 10)
    t = [x for x in range(48) if st.cfg.kinds[x] == 0]
    st.collected[0] = [(t[0], 0), (t[2], 0)]  # 1 + 2 points
    st.collected[1] = [(t[4], 0)]  # 3 points
    play(st, 0, Prospect())
    play(st, 0, Pass())
    assert st.result().winners == ()  # same points, same (zero) contracts, same unspent bribes: a draw
    st = new()
    _shrink_board(st, {10})
    put_rocket(st, 1, 10)
    st.collected[0] = [(t[0], 0), (t[2], 0)]
    st.collected[1] = [(t[4], 0)]
    st.contract_owners[0] = 1
    play(st, 0, Prospect())
    play(st, 0, Pass())
    assert st.result().winners == (1,)  # more contracts
    st = new()
    _shrink_board(st, {10})
    put_rocket(st, 1, 10)
    st.collected[0] = [(t[4], 0), (t[3], 0)]  # 3 + 2 - 2 (one spent bribe) = 3
    st.collected[1] = [(t[4 + 1], 0)]  # 3
    st.spent |= 1  # player 0 spent one counter: 4 unspent
    st.holders[5] = -1  # player 1 lost two counters to thefts (stolen_bribe="discarded"): 3 unspent
    st.holders[6] = -1
    play(st, 0, Prospect())
    play(st, 0, Pass())
    assert st.scores() == [3, 3] and st.result().winners == (0,)  # same points and contracts; 4 unspent beat 3


def test_turn_limit_option_ends_the_game():
    st = new(max_turns=1, mandatory_contract_attempt=False)
    play(st, 0, Prospect())
    play(st, 0, Pass())
    assert st.is_terminal() and "turn limit" in st.result().reason


def test_survey_may_not_look_under_the_alien_tile_or_a_face_up_alien():
    st = new()
    place(st, {3: ("alien_encounter",)})
    st.faceup |= BIT[3]
    st.alien = 4
    st._legal = None
    play(st, 0, Survey("b0-deltamite"))
    assert rule_of(st, 0, Look(3)) == "mining.survey.not_face_down"
    assert rule_of(st, 0, Look(4)) == "mining.survey.alien"


def test_a_pirated_player_may_still_discard_incidents_and_attempt():
    st = new()
    pirate = give(st, 1, "pirate_attack")
    acq = give(st, 0, "rocket_acquisition")
    restart(st)
    play(st, 1, Discard(pirate))
    assert set(st.legal_actions(0)) == {Discard(acq), Pass()}
    play(st, 0, Discard(acq))
    assert st.rockets_at(0, STATION) == 2 and st.legal_actions(0) == [Pass()]


def test_sabotage_follow_up_onto_the_alien_square_freezes_the_rocket():
    st = new()
    sab = give(st, 0, "sabotage")
    put_rocket(st, 1, 10)
    st.alien = 10
    play(st, 0, Discard(sab))
    play(st, 0, Sabotage(1, 10))
    play(st, 0, SabotageMove(STATION))
    assert st.rockets_at(0, 10) == 1
    assert all(not (isinstance(a, Move) and a.frm == 10) for a in st.legal_actions(0))
    assert rule_of(st, 0, Move(10, STATION)) == "mining.move.frozen"


def test_mineral_scan_in_the_attempt_phase_returns_to_the_attempt():
    st = new()
    scan = give(st, 0, "mineral_scan")
    play(st, 0, Prospect())
    play(st, 0, Discard(scan))
    assert PHASES[st.phase] == "scan" and st.scan_left == 1
    play(st, 0, Look(0))
    assert PHASES[st.phase] == "attempt" and Declare("C01") in st.legal_actions(0)


def test_the_sabotage_follow_up_is_a_move_like_any_other_and_bumps():
    """"If a rocket ends its movement on an asteroid tile occupied by an opponent's rocket, both rockets are
    immediately removed": the follow-up move of a Sabotage too. Player 1 has two rockets on square 10; player 0
    sabotages one and moves in from the station: its rocket and player 1's other rocket both go home."""
    st = new()
    sab = give(st, 0, "sabotage")
    put_rocket(st, 1, 10)
    put_rocket(st, 1, 10)
    play(st, 0, Discard(sab))
    play(st, 0, Sabotage(1, 10))
    assert st.rockets_at(1, 10) == 1
    legal = st.legal_actions(0)
    assert legal == [SabotageMove(STATION, 1), Pass()]
    assert rule_of(st, 0, SabotageMove(STATION)) == "mining.move.bump"  # the bumped opponent must be named
    yards = list(st.shipyards)
    ev = play(st, 0, SabotageMove(STATION, 1))
    assert "rockets-bumped" in types(ev)
    assert st.rockets_at(0, 10) == 0 and st.rockets_at(1, 10) == 0 and st.rockets_at(0, STATION) == 0
    assert st.shipyards == [yards[0] + 1, yards[1] + 1]
    for s in range(49):  # no square holds rockets of two players
        assert sum(1 for q in range(2) if st.rockets_at(q, s)) <= 1 or s == STATION


def test_the_sabotage_follow_up_bumps_every_opponent_rocket_under_bump_all():
    st = new(players=3, bump="all")
    sab = give(st, 0, "sabotage")
    put_rocket(st, 1, 10)
    put_rocket(st, 1, 10)
    put_rocket(st, 1, 10)
    play(st, 0, Discard(sab))
    play(st, 0, Sabotage(1, 10))
    assert st.legal_actions(0) == [SabotageMove(STATION), Pass()]
    play(st, 0, SabotageMove(STATION))
    assert st.rockets_at(0, 10) == 0 and st.rockets_at(1, 10) == 0


def test_the_sabotage_follow_up_onto_an_emptied_square_lands():
    st = new()
    sab = give(st, 0, "sabotage")
    put_rocket(st, 1, 10)
    play(st, 0, Discard(sab))
    play(st, 0, Sabotage(1, 10))
    assert st.legal_actions(0) == [SabotageMove(STATION), Pass()]
    ev = play(st, 0, SabotageMove(STATION))
    assert "rockets-bumped" not in types(ev) and st.rockets_at(0, 10) == 1


def test_refusals_name_the_specific_rule():
    st = new()
    pirate = give(st, 0, "pirate_attack")
    acq = give(st, 0, "rocket_acquisition")
    assert rule_of(st, 0, Discard(pirate)) == "mining.incident.opponents_turn"
    st.shipyards[0] = 0
    st._rk_add(0, STATION, 4)
    st._legal = None
    assert rule_of(st, 0, Discard(acq)) == "mining.acquisition.shipyard_empty"
    st2 = new()
    sab = give(st2, 0, "sabotage")
    st2._rk_add(1, STATION, -1)  # player 1 has no rocket in play: nothing to sabotage
    st2.shipyards[1] += 1
    st2._legal = None
    assert rule_of(st2, 0, Discard(sab)) == "mining.sabotage.no_target"
    st3 = new(sabotage_any_rocket=False)
    sab = give(st3, 0, "sabotage")
    put_rocket(st3, 1, 10)
    play(st3, 0, Discard(sab))
    assert rule_of(st3, 0, Sabotage(0, STATION)) == "mining.sabotage.own"
    assert rule_of(st3, 0, Sabotage(5, 10)) == "mining.sabotage.victim"
    assert rule_of(st3, 0, Sabotage(1, 11)) == "mining.sabotage.no_rocket"
    assert rule_of(st3, 0, Sabotage(1, STATION)) == "mining.sabotage.protected"
    st4 = alien_setup()
    play(st4, 0, Prospect())
    play(st4, 0, RevealIncident(10))
    assert rule_of(st4, 0, MoveAlien(STATION)) == "mining.alien.station"
    play(st4, 0, MoveAlien(12))
    assert rule_of(st4, 0, Steal("b0-alphatite")) == "mining.alien.steal_own"
    st4.spent |= 1 << st4.cfg.counter_index["b1-betamite"]
    st4._legal = None
    assert rule_of(st4, 0, Steal("b1-betamite")) == "mining.alien.steal_spent"
