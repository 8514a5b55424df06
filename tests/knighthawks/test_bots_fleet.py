"""The hard bot's fleet-battle additions: the planet/edge doom check (``fleet.doomed``) and the captain's plan
with it (``_SafeCaptain``), on hand-made positions."""

from __future__ import annotations

from deltav.core.match import play_match
from deltav.games.knighthawks import KnightHawks
from deltav.games.knighthawks import messages as m
from deltav.games.knighthawks.bots.admiral import Admiral
from deltav.games.knighthawks.bots.planet_safety import doomed
from deltav.games.knighthawks.bots.plans import _SafeCaptain
from deltav.games.knighthawks.bots.scripted import ScriptedCaptain
from deltav.games.knighthawks.movement import advance, start_plot
from tests.knighthawks.helpers import make_state, ship
from tests.knighthawks.test_bots_levels import decision


def _planet_state(q, r, facing, speed):
    return make_state([ship("v", 0, "destroyer", (q, r), facing=facing, speed=speed),
                       ship("e", 1, "destroyer", (4, -1), facing=3, speed=2)], planets=[("P", (0, 0))], first=0)


def _end(state, sid, course, plan):
    st = start_plot(state.ship(sid).pos, course.facing)
    for t in plan[1]:
        st = advance(state.map, st, t, course.speed)
    return st


def test_doomed_two_hexes_from_the_planet_heading_at_it_too_fast_to_stop():
    m_ = _planet_state(-6, 2, 0, 3).map
    # (-2, 2) facing 1 (toward (-1, 1), a gravity-ring hex heading straight at the planet): at speed 5 with
    # ADF 3 the ship must enter it next turn and crash; at speed 2 it may stop
    assert doomed(m_, (-2, 2), 1, 5, 3, 3)
    assert not doomed(m_, (-2, 2), 1, 2, 3, 3)
    assert not doomed(m_, (-2, 2), 4, 5, 3, 3)  # heading away
    assert not doomed(m_, (-9, 2), 0, 2, 2, 2)  # far from the planet


def test_doomed_at_the_edge_when_every_move_leaves_the_map():
    m_ = _planet_state(-6, 2, 0, 3).map  # radius 12
    assert doomed(m_, (-10, 2), 3, 8, 2, 1, stay=True)  # outward at 8, ADF 2: at least 6 hexes off the edge
    assert not doomed(m_, (-10, 2), 3, 2, 2, 1, stay=True)  # slow: it can stop
    assert not doomed(m_, (-10, 2), 0, 8, 2, 1, stay=True)  # heading inward
    assert not doomed(m_, (-10, 2), 3, 8, 2, 1)  # no planet near: the crash check alone is clear


def test_safe_captain_does_not_end_where_its_momentum_crashes_it_next_turn():
    """A position where the captain's plan ends two hexes from the planet heading at it at speed 7: the safe
    captain's plan ends somewhere it can still steer clear."""
    for q, r, f, sp in ((-6, 2, 2, 5), (-6, 4, 4, 5)):
        s = _planet_state(q, r, f, sp)
        courses = [a for a in decision(s).legal_actions if isinstance(a, m.Course)]
        cap = ScriptedCaptain()
        a = cap._plot(s, 0, s.ship("v"), courses)
        st = _end(s, "v", a, cap.plan)
        assert st.end == "" and doomed(s.map, st.pos, st.facing, a.speed, 3, 3)  # the captain's mistake
        safe = _SafeCaptain()
        b = safe._plot(s, 0, s.ship("v"), courses)
        st2 = _end(s, "v", b, safe.plan)
        assert b in courses and st2.end == ""
        assert not doomed(s.map, st2.pos, st2.facing, b.speed, 3, 3)


def test_hard_fleet_battle_games_are_legal_and_replay():
    opts = {"scenario": "fleet_battle", "turn_limit": 3}
    r1 = play_match(KnightHawks, opts, 8, [Admiral(), ScriptedCaptain()])[0]
    r2 = play_match(KnightHawks, opts, 8, [Admiral(), ScriptedCaptain()])[0]
    assert [st.action for st in r1.steps] == [st.action for st in r2.steps]


def test_hard_fleet_fire_is_the_captains_by_default():
    """In the fleet battle the hard bot fires, intercepts and repairs by the captain's rules from both seats
    (``fleet_fire="captain"``, the default since the issue-18 rules: the weaker fleet's exact fire measured
    weaker there, docs/bots-knighthawks.md). Checked at every fire decision of the first turns."""
    s = KnightHawks.new_initial_state({"scenario": "fleet_battle"}, 5)
    hard = [Admiral(), Admiral()]
    fires = 0
    steps = 0
    while not s.is_terminal() and s.turn <= 4 and steps < 3000:
        steps += 1
        p = s.current_players()[0]
        d = decision(s, steps)
        a = hard[p].act(d)
        if any(isinstance(x, m.Assign) for x in d.legal_actions):
            assert a == ScriptedCaptain().act(decision(s, steps))
            fires += 1
        s.apply_action(p, a)
    assert fires


def test_fleet_settings_leave_the_smaller_scenarios_unchanged():
    """The round-2 fleet settings act only with more than ``fleet_limit`` ships a side: in the skirmish, the
    escort and the station assault the admiral plays exactly as with round 1's settings."""
    old = {"focus_when": "weaker", "fleet_fire": "captain", "fleet_breakup": 0.5, "doom": 0.0}
    for scenario in ("skirmish", "escort", "station_assault"):
        opts = {"scenario": scenario, "turn_limit": 3}
        for seats in ((0, 1), (1, 0)):
            new_agents = [Admiral(), ScriptedCaptain()]
            old_agents = [Admiral(**old), ScriptedCaptain()]
            a = play_match(KnightHawks, opts, 4, [new_agents[i] for i in seats])[0]
            b = play_match(KnightHawks, opts, 4, [old_agents[i] for i in seats])[0]
            assert [st.action for st in a.steps] == [st.action for st in b.steps]
