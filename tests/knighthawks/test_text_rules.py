"""Rules the text states plainly (issue 18): every ADF/MR use of a severely damaged ship is checked for
break-up, repairing a power short brings back the screens it shut off, and electrical fires roll at the start
of the opponent's combat step by default."""

from __future__ import annotations

from deltav.games.knighthawks import damage as dm
from deltav.games.knighthawks import messages as m
from deltav.games.knighthawks import repair as rep
from deltav.games.knighthawks.combat import operating_defenses
from deltav.games.knighthawks.rulings import DEFAULT
from deltav.games.knighthawks.ships import ship_of_class
from tests.knighthawks.helpers import make_state, ship
from tests.knighthawks.test_game import apply, pass_turns

FOE = ship("b", 1, "destroyer", (10, -4), facing=3)


def checks(events, sid):
    return [e for e in events if e.TYPE == "breakup_check" and e.ship == sid]


def plot_and_move(s, action):
    """Apply player 0's last plot and end its movement (it ends by itself when nothing is left to decide)."""
    ev = apply(s, action)
    if s.stage == "move" and s.current_players() == [0]:
        ev += apply(s, m.EndMovement())
    return ev


# --- break-up: "whenever a severely damaged ship accelerates, decelerates or turns" ----------------------------

def test_entering_orbit_is_a_deceleration_checked_for_breakup():
    s = make_state([ship("z", 0, "frigate", (1, 0), facing=1, speed=2), FOE], planets=[("P", (0, 0))], first=0)
    s.ship("z").dmg = 30  # 40 hull points: 10 past half
    got = checks(plot_and_move(s, m.Orbit("z", False)), "z")
    assert len(got) == 1 and got[0].chance == 10 * 2  # speed 2 cut to 0: 2 ADF points
    assert got[0].broke == (got[0].roll <= 20)


def test_entering_orbit_from_a_stop_needs_no_check():
    s = make_state([ship("z", 0, "frigate", (1, 0), facing=1, speed=0), FOE], planets=[("P", (0, 0))], first=0)
    s.ship("z").dmg = 30
    assert checks(plot_and_move(s, m.Orbit("z", False)), "z") == []


def test_rotating_in_orbit_is_checked_like_rotating_in_open_space():
    orbiting = make_state([ship("z", 0, "frigate", (1, 0), facing=1, orbit={"planet": "P", "clockwise": False}),
                           FOE], planets=[("P", (0, 0))], first=0)
    stopped = make_state([ship("z", 0, "frigate", (-5, 3), facing=1), FOE], planets=[("P", (0, 0))], first=0)
    for s in (orbiting, stopped):
        s.ship("z").dmg = 30
    got = checks(plot_and_move(orbiting, m.Course("z", 0, 3)), "z")  # two hexsides
    ref = checks(plot_and_move(stopped, m.Course("z", 0, 3)), "z")
    assert len(ref) == 1 and ref[0].chance == 20
    assert len(got) == 1 and got[0].chance == 20
    if not got[0].broke:
        assert orbiting.ship("z").facing == 3 and orbiting.ship("z").orbit is not None


def test_holding_orbit_without_rotating_needs_no_check():
    s = make_state([ship("z", 0, "frigate", (1, 0), facing=1, orbit={"planet": "P", "clockwise": False}), FOE],
                   planets=[("P", (0, 0))], first=0)
    s.ship("z").dmg = 30
    assert checks(plot_and_move(s, m.Course("z", 0, 1)), "z") == []


def test_rotating_while_docked_is_checked():
    s = make_state([ship("st", 0, "armed_station", (-6, 0)), ship("f", 0, "frigate", (-6, 0), docked="st"), FOE],
                   first=0)
    s.ship("f").dmg = 25  # 5 past half of 40
    got = checks(plot_and_move(s, m.Course("f", 0, 3)), "f")  # three hexsides
    assert len(got) == 1 and got[0].chance == 15


def test_a_docked_ship_broken_apart_is_destroyed_with_its_host_damaged():
    for seed in range(1, 60):
        s = make_state([ship("st", 0, "armed_station", (-6, 0)), ship("f", 0, "frigate", (-6, 0), docked="st"),
                        FOE], first=0, seed=seed)
        s.ship("f").dmg = 39  # 19 past half: 3 hexsides give 57%
        ev = plot_and_move(s, m.Course("f", 0, 3))
        if checks(ev, "f")[0].broke:
            assert s.ship("f").status == 1 and s.ship("st").dmg == 20  # half the frigate's hull points
            assert s.ship("f").facing == 0  # destroyed before it rotated
            return
    raise AssertionError("no seed broke the frigate apart")


def test_maneuver_points_are_pure_arithmetic():
    assert dm.maneuver_points(3, 0) == 3
    assert dm.maneuver_points(2, 5, 1) == 4  # the rules' example: accelerate by 3 and turn once
    assert dm.maneuver_points(0, 0, 0, 2) == 2
    assert dm.maneuver_points(0, 0) == 0


# --- power short circuit: "Repairing a power short circuit will remove all effects of the hit" ---------------

def test_repairing_a_short_brings_back_the_screen_it_shut_off():
    sh = ship_of_class("hc", "heavy_cruiser")
    sh.screen = "PS"
    assert "PS" in operating_defenses(sh)
    eff = dm.classify(sh, 72)
    assert eff.kind == "short"
    dm.apply_effect(sh, eff, 0, DEFAULT)
    assert "PS" not in operating_defenses(sh) and sh.icms_available() == 0
    rep.apply_success(sh, "short")
    assert "PS" in operating_defenses(sh) and sh.icms_available() > 0


def test_a_repaired_short_restores_the_screen_in_play():
    s = make_state([ship("a", 0, "heavy_cruiser", (-8, 0)), ship("b", 1, "destroyer", (8, 0), facing=3)], first=0)
    apply(s, m.Screen("a", "PS"))
    dm.apply_effect(s.ship("a"), dm.classify(s.ship("a"), 72), 0, DEFAULT)
    assert "PS" not in operating_defenses(s.ship("a"))
    pass_turns(s, lambda st: st.stage == "repair" and st.repair_player == 0)
    apply(s, m.Repair("a", "short", 90))
    pass_turns(s, lambda st: st.stage == "move")
    a = s.ship("a")
    assert not a.short  # this seed's repair roll succeeds
    assert a.screen == "PS" and "PS" in operating_defenses(a)
    assert s.view(1)["ships"][0]["damaged_systems"]["short"]  # the repair itself stays secret


# --- electrical fire: "at the start of his opponent's combat step every turn" --------------------------------

def test_fire_rolls_in_the_opponents_combat_phase_by_default():
    far = [ship("a", 0, "destroyer", (-8, 0)), ship("b", 1, "destroyer", (8, 0), facing=3)]
    s = make_state(far, first=0)
    s.ship("a").fire = True
    assert [e for e in apply(s, m.EndMovement()) if e.TYPE == "damage" and e.source == "fire"] == []
    ev = apply(s, m.EndMovement())  # player 1's turn: its combat step starts with player 0's fire
    fire = [e for e in ev if e.TYPE == "damage" and e.source == "fire"]
    assert len(fire) == 1 and fire[0].ship == "a"
