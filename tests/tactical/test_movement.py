"""Vector movement, exactly as design/tactical.md 1.6-1.7 (pure course function and the movement phase)."""

from __future__ import annotations

import pytest

from deltav.core import hexgrid
from deltav.core.hexgrid import DIRECTIONS, analyze_line
from deltav.games.tactical.mapdata import default_map
from deltav.games.tactical.messages import EndAstrogation, Order
from deltav.games.tactical.movement import compute_course, detect_orbit

from .helpers import end_turn, new_state, place

M = default_map()


def course(pos, vel, burn=None, pending=(), fuel=20, landed=False, overload=None, can_overload=True, **kw):
    return compute_course(M, pos, vel, fuel, tuple(pending), landed, can_overload, burn, overload, **kw)


# --- 1.2 practical consequences ---------------------------------------------------------------------------


def test_free_mars_orbit_with_no_fuel():
    pos, vel, pending = (-8, -6), (1, 0), (4,)
    expected = [((-8, -5), (0, 1)), ((-9, -4), (-1, 1)), ((-10, -4), (-1, 0)), ((-10, -5), (0, -1)),
                ((-9, -6), (1, -1)), ((-8, -6), (1, 0))]
    for want_pos, want_vel in expected:
        c = course(pos, vel, pending=pending, fuel=0)
        assert (c.destination, c.velocity, c.outcome, c.fuel_spent) == (want_pos, want_vel, "normal", 0)
        assert detect_orbit(M, c.destination, c.velocity, c.pending, frozenset()) == "Mars"
        pos, vel, pending = c.destination, c.velocity, c.pending
    assert pending == (4,)


@pytest.mark.parametrize("body, start, vel, grav", [("Mercury", (2, 2), (1, 0), 4), ("Luna", (10, -8), (1, 0), 4)])
def test_free_orbits_around_other_single_hex_bodies(body, start, vel, grav):
    pos, v, pending = start, vel, (grav,)
    seen = []
    for _ in range(6):
        c = course(pos, v, pending=pending, fuel=0)
        assert c.outcome == "normal" and c.velocity != (0, 0)
        pos, v, pending = c.destination, c.velocity, c.pending
        seen.append(pos)
        assert M.gravity[pos][1] == body
    assert pos == start and len(set(seen)) == 6


def test_venus_hover_stays_forever():
    c = course((-5, 6), (1, -1), pending=(4,))
    assert (c.destination, c.velocity, c.pending, c.outcome) == ((-5, 6), (0, 0), (), "normal")
    for _ in range(3):
        c = course(c.destination, c.velocity, pending=c.pending)
        assert (c.destination, c.velocity, c.pending) == ((-5, 6), (0, 0), ())


def test_hovering_on_a_base_hex_counts_as_landed():
    c = course((-9, -6), (0, 0))
    assert c.outcome == "landing" and c.body == "Mars"


# --- takeoff ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "burn, dest, outcome, pending",
    [(0, (-7, -6), "normal", ()), (1, (-7, -7), "normal", ()), (2, (-8, -7), "normal", ()),
     (3, (-9, -6), "normal", (5,)), (4, None, "crash", None), (5, (-8, -5), "normal", (3,))],
)
def test_mars_base_takeoff_in_six_directions(burn, dest, outcome, pending):
    c = course((-8, -6), (0, 0), burn=burn, landed=True)
    assert c.outcome == outcome and c.fuel_spent == 1
    if outcome == "crash":
        assert c.crash_hex == (-9, -5) and c.body == "Mars"
    else:
        assert c.destination == dest and c.pending == pending and c.velocity == DIRECTIONS[burn]


def test_takeoff_is_free_under_the_alternative_ruling():
    c = course((-8, -6), (0, 0), burn=0, landed=True, takeoff_costs_fuel=False)
    assert c.fuel_spent == 0 and c.destination == (-7, -6)


def test_landed_ship_without_burn_stays_landed():
    c = course((-8, -6), (0, 0), landed=True)
    assert (c.destination, c.outcome, c.fuel_spent, c.velocity) == ((-8, -6), "landing", 0, (0, 0))


def test_landed_ship_keeps_its_velocity_on_takeoff():
    # Escape pilgrims start landed at Terra (7,-7) carrying v(-2,1): their first burn adds to it
    c = course((7, -7), (-2, 1), burn=0, landed=True, fuel=10)
    assert c.destination == (6, -6) and c.velocity == (-1, 1)


# --- landing ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("burn", range(6))
def test_landing_from_mars_orbit_with_any_burn_direction(burn):
    c = course((-8, -6), (1, 0), burn=burn, pending=(4,), land=True)
    assert c.outcome == "landing" and c.shortcut and c.destination == (-8, -6) and c.fuel_spent == 1
    assert c.velocity == (0, 0) and c.pending == ()


@pytest.mark.parametrize("burn", range(6))
def test_landing_from_venus_orbit_goes_to_the_nearest_base(burn):
    # (-5,6) is a Venus ring hex between the bases (-5,7) and (-5,5): a tie, settled by where the burn points
    # (ruling 8: the base nearest to the hex after the burn; still tied, map order picks (-5,7))
    assert detect_orbit(M, (-5, 6), (1, 0), (4,), frozenset()) == "Venus"
    c = course((-5, 6), (1, 0), burn=burn, pending=(4,), land=True)
    dq, dr = DIRECTIONS[burn]
    post = (-5 + 1 + dq, 6 + dr)
    near5, near7 = hexgrid.distance(post, (-5, 5)), hexgrid.distance(post, (-5, 7))
    assert c.outcome == "landing" and c.body == "Venus"
    assert c.destination == ((-5, 5) if near5 < near7 else (-5, 7))
    # from a ring hex next to a single base, that base
    c = course((-6, 8), (1, 0), burn=burn, pending=(3,), land=True)
    if detect_orbit(M, (-6, 8), (1, 0), (3,), frozenset()) == "Venus":
        assert c.destination in ((-5, 7), (-7, 9)) and c.outcome == "landing"


def test_one_fuel_touch_down_without_the_land_flag():
    # (c) of 1.6 step 8: speed 1 in Mars gravity, drift stays in the ring, one burn ending on a base
    c = course((-8, -6), (1, 0), burn=5, pending=(4,))
    assert c.destination == (-8, -4) or c.outcome in ("landing", "normal", "crash")
    c = course((-8, -6), (1, 0), burn=3, pending=(4,))
    assert c.destination == (-9, -5) and c.outcome == "crash"
    c = course((-8, -6), (1, 0), burn=1, pending=(4,))
    assert c.destination == (-7, -6) and c.outcome == "normal"
    c = course((-8, -6), (1, 0), burn=2, pending=(4,))
    assert c.destination == (-8, -6) and c.outcome == "landing"


def test_brake_to_land_on_a_base():
    c = course((-9, -6), (1, -1), burn=4, pending=())
    assert c.destination == (-9, -6) and c.velocity == (0, 0) and c.outcome == "landing"


def test_asteroid_base_and_bare_body_need_speed_zero():
    c = course((-5, -10), (-1, 0), burn=0)  # velocity cancelled: stays at (-5,-10)
    assert c.velocity == (0, 0) and c.outcome == "normal"
    c = course((-5, -10), (-1, 0))  # arrives at the Ceres base at speed 1: no landing
    assert c.destination == (-6, -10) and c.outcome == "normal"
    c = course((-6, -10), (0, 0))  # stopped on the asteroid base: landed
    assert c.outcome == "landing" and c.body == "Ceres"
    c = course((-6, -10), (-1, 0), burn=0)
    assert c.outcome == "landing"
    c = course((-6, -10), (-1, 0))  # moving into Ceres itself at speed 1: crash
    assert c.outcome == "crash" and c.body == "Ceres"


def test_sol_is_always_a_crash():
    c = course((1, 0), (-1, 0), pending=(4,))
    assert c.outcome in ("normal", "crash")
    c = course((0, 1), (-1, 0))
    assert c.outcome == "crash" and c.body == "Sol"


# --- gravity ----------------------------------------------------------------------------------------------


def test_gravity_is_deferred_to_the_next_move():
    # entering (-8,-5) (Mars, W) queues a deflection applied only on the following move
    c = course((-8, -7), (0, 1))
    assert c.destination == (-8, -6) and c.pending == (4,)
    c2 = course(c.destination, c.velocity, pending=c.pending)
    assert c2.destination == (-9, -4)  # (-8,-6) + (0,1) + SW
    assert c2.crash_hex is None or c2.outcome == "crash"


def test_every_gravity_hex_entered_deflects_once():
    # a fast pass through two Sol gravity rings queues two deflections
    c = course((2, -3), (0, 3))
    dirs = [e[1] for e in c.entered]
    assert c.pending == tuple(dirs) and len(dirs) >= 2


def test_weak_gravity_at_luna_over_two_moves():
    # move 1: enter (10,-8) (Luna weak, dir 4); ignoring it means no deflection on move 2
    c = course((11, -9), (-1, 1))
    assert c.destination == (10, -8) and c.ignorable == ((10, -8),) and c.pending == (4,)
    kept = course(c.destination, c.velocity, pending=c.pending)
    assert kept.destination == (8, -6)  # (10,-8) + (-1,1) + SW
    c_ign = course((11, -9), (-1, 1), ignore_weak=((10, -8),))
    assert c_ign.pending == () and c_ign.entered[0][4] is True
    ignored = course(c_ign.destination, c_ign.velocity, pending=c_ign.pending)
    assert ignored.destination == (9, -7) or ignored.outcome == "crash"


def test_second_consecutive_weak_hex_of_one_body_is_mandatory():
    c = course((11, -8), (-2, 0), ignore_weak=((10, -8), (9, -8)))
    hexes = [e[0] for e in c.entered]
    assert hexes[:2] == [(10, -8), (9, -8)]
    assert c.entered[0][4] is True and c.entered[1][4] is False
    assert c.ignorable == ((10, -8),)


# --- grazing ----------------------------------------------------------------------------------------------


def test_edge_grazing_line_analysis():
    a = analyze_line((0, 0), (2, -1))
    assert a.definite == ((0, 0), (2, -1))
    assert a.ambiguous == (((1, -1), (1, 0)),)


def test_grazing_a_planet_is_not_a_crash_under_our_ruling():
    # design note 1.15.2: (-8,-5) v(0,-1) + Mars pull -> (-9,-6) runs along the Mars hexside
    c = course((-8, -5), (0, -1), pending=(3,))
    assert c.destination == (-9, -6) and c.outcome == "normal" and c.contact == [(-8, -5), (-9, -6)]
    c = course((-8, -5), (0, -1), pending=(3,), grazing_is_contact=True)
    assert c.outcome == "crash" and c.crash_hex == (-9, -5)


def test_grazing_a_gravity_hex_does_not_enter_it():
    # (0,0) -> (2,-1) grazes (1,-1)/(1,0): (1,0) is a Sol gravity hex, yet nothing is queued from it
    assert (1, 0) in M.gravity
    c = course((0, 0), (2, -1))
    assert all(e[0] != (1, 0) for e in c.entered)


# --- the movement phase -----------------------------------------------------------------------------------


def test_resupply_at_friendly_base_and_not_at_enemy_base():
    s = new_state("biplanetary")
    place(s, "p0s0", (-8, -6), (1, 0), pending=(4,), fuel=3, overload_used=True, disabled=0)
    s.apply_action(0, Order("p0s0", 0, None, True))
    end_turn(s, 0)
    sh = s.ship("p0s0")
    assert sh.landed and sh.fuel == 20 and not sh.overload_used
    s = new_state("biplanetary")
    place(s, "p1s0", (-8, -6), (1, 0), pending=(4,), fuel=3)
    s.active_player = 1
    s.apply_action(1, Order("p1s0", 0, None, True))
    end_turn(s, 1)
    sh = s.ship("p1s0")
    assert sh.landed and sh.fuel == 2 and s.is_terminal() and s.result().winners == (1,)


def test_off_map_elimination():
    s = new_state("biplanetary")
    place(s, "p0s0", (16, 0), (3, 0))
    events = end_turn(s, 0)
    assert s.ship("p0s0").destroyed and s.ship("p0s0").cause == "off_map"
    assert any(e.TYPE == "ship_destroyed" and e.cause == "off_map" for e in events)
    assert s.is_terminal() and s.result().winners == (1,)


def test_bi_planetary_win_by_landing_on_target():
    s = new_state("biplanetary")
    place(s, "p0s0", (-5, 6), (1, 0), pending=(4,))
    s.apply_action(0, Order("p0s0", 2))  # any one-fuel burn in orbit of the target lands (auto-land)
    s.apply_action(0, EndAstrogation())
    assert s.is_terminal() and s.result().winners == (0,) and "Venus" in s.result().reason


def test_turns_alternate_and_count():
    s = new_state("biplanetary")
    assert (s.active_player, s.turn) == (0, 1)
    end_turn(s, 0)
    assert (s.active_player, s.turn) == (1, 1)
    end_turn(s, 1)
    assert (s.active_player, s.turn) == (0, 2)


def test_turn_limit_ends_in_a_draw():
    s = new_state("biplanetary", turn_limit=2)
    for _ in range(2):
        end_turn(s, 0)
        end_turn(s, 1)
    assert s.is_terminal() and s.result().winners == ()


def test_grand_tour_checkpoints_and_victory():
    s = new_state("grand_tour", seed=0)
    p = s.active_player
    sid = f"p{p}s0"
    pl = s.players[p]
    pl.visited = ("Sol", "Mercury", "Venus", "Terra", "Mars", "Jupiter", "Io")
    # fly through Callisto's gravity (-4,-15)
    place(s, sid, (-3, -15), (-1, 0))
    end_turn(s, p)
    assert "Callisto" in s.players[p].visited
    assert not s.is_terminal()


def test_grand_tour_return_leg_lands_automatically():
    s = new_state("grand_tour", seed=0)
    p = s.active_player
    home = s.players[p].home
    s.players[p].visited = tuple(s.rules.checkpoints)
    sid = f"p{p}s0"
    if home == "Mars":
        place(s, sid, (-8, -6), (1, 0), pending=(4,))
    else:
        place(s, sid, (10, -7), (0, -1), pending=(3,))
    s.apply_action(p, EndAstrogation())
    assert s.is_terminal() and s.result().winners == (p,) and "Grand Tour" in s.result().reason
    assert s.ship(sid).landed and s.ship(sid).fuel == 20  # landed at a home base: resupplied


def test_overload_may_point_anywhere():
    c = course((0, -5), (1, 0), burn=0, overload=2)
    assert c.destination == (2, -6) and c.fuel_spent == 2 and c.overloaded
    c = course((0, -5), (1, 0), burn=0, overload=3)  # burn and overload cancel: a 2-fuel coast
    assert c.destination == (1, -5) and c.fuel_spent == 2


def test_full_maintenance_at_a_friendly_base():
    s = new_state("duel")
    s.active_player = 0
    sh = place(s, "p0s0", (2, 2), (1, 0), pending=(4,), fuel=4, overload_used=True, disabled=2, cargo_used=20,
               nukes=1, control="own")
    # (2,2) orbits Mercury; P0 controls the base (2,3): a one-burn landing there resupplies
    sh.disabled = 0  # a disabled ship could not burn to land
    s.apply_action(0, Order("p0s0", 5, None, True))
    events = end_turn(s, 0)
    assert sh.landed and sh.pos == (2, 3)
    assert (sh.fuel, sh.overload_used, sh.cargo_used, sh.nukes, sh.disabled) == (20, False, 0, 0, 0)
    assert any(e.TYPE == "ship_resupplied" for e in events)


def test_orbital_base_resupply_keeps_the_overload_used():
    from deltav.games.tactical.model import Ship
    from deltav.games.tactical.shiptypes import ship_types

    s = new_state("duel")
    s.active_player = 0
    base = Ship("b", 0, ship_types()["orbitalBase"], (-8, -5), (1, 0))
    base.emplaced = True
    s.ships.append(base)
    s._index["b"] = base
    base.pos, base.vel = (-8, -5), (-1, 1)
    # the frigate coasts from (-7,-6) to (-8,-5) with v(-1,1): the base's hex and course
    sh = place(s, "p0s0", (-7, -6), (-1, 1), fuel=3, overload_used=True)
    events = end_turn(s, 0)
    assert sh.pos == (-8, -5) and sh.fuel == 20 and sh.overload_used
    assert any(e.TYPE == "ship_resupplied" for e in events)


# --- the stored display path (issue 18) ---------------------------------------------------------------------


def test_primary_line_follows_the_design_note_example():
    from deltav.games.tactical.movement import primary_line

    assert primary_line((0, 0), (2, -1)) == ((0, 0), (1, 0), (2, -1))  # design note 1.2


def test_ship_moved_path_is_the_reference_primary_line_of_the_absolute_endpoints():
    # (-8,-1) -> (-5,0) grazes at its midpoint: the reference nudges both absolute endpoints, and floating point
    # then rounds the middle step to (-6,-1); the same nudge added to the offset (3, 1) gives (-7, 0)
    s = new_state("biplanetary")
    s._opts = {}
    place(s, "p0s0", (-8, -1), (3, 1), fuel=10)
    events = end_turn(s, 0)
    moved = next(e for e in events if e.TYPE == "ship_moved")
    assert moved.path == ("-8,-1", "-7,-1", "-6,-1", "-6,0", "-5,0")
    assert moved.destination == "-5,0"


def test_the_display_path_is_the_primary_line_from_start_to_destination_computed_when_read():
    from deltav.games.tactical.movement import primary_line

    m = default_map()
    seen = set()
    for pos, vel, pend, landed in (((10, 0), (1, -1), (), False), ((-8, -6), (0, 0), (), True),
                                   ((-8, -6), (1, 0), (4,), False), ((0, 3), (2, -1), (), False),
                                   ((3, -3), (-1, 2), (), False)):
        for burn in (None, 0, 1, 2, 3, 4, 5):
            for land in (False, True):
                for grazing in (False, True):
                    c = compute_course(m, pos, vel, 20, pend, landed, True, burn, None, (), land, frozenset(),
                                       grazing)
                    assert c._path is None or (landed and burn is None)  # not computed until read
                    want = [pos] if (landed and burn is None) else primary_line(pos, c.destination)
                    assert c.path == want and c.to_json()["path"] == [list(h) for h in want]
                    seen.add((c.outcome, c.shortcut))
    assert {("normal", False), ("landing", True), ("landing", False)} <= seen
