"""Movement: speed changes, turns, gravity crash and deflection, planets blocking, orbits."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from deltav.games.knighthawks import movement as mv

OPEN = mv.MapInfo.build(20, [])
PLANET = mv.MapInfo.build(20, [("P", (0, 0))])


def run(m, pos, facing, turns, total=None):
    s = mv.start_plot(pos, facing)
    total = total if total is not None else len(turns)
    for t in turns:
        s = mv.advance(m, s, t, total)
        if s is None or s.end:
            return s
    return s


def test_speed_options():
    assert list(mv.speed_options(5, 2)) == [3, 4, 5, 6, 7]  # the rules' example
    assert list(mv.speed_options(3, 3)) == [0, 1, 2, 3, 4, 5, 6]  # may stop: old speed <= ADF
    assert 0 not in mv.speed_options(4, 3)
    assert list(mv.speed_options(4, 0)) == [4]  # ADF 0: no speed change


def test_turn_one_hexside_per_hex_up_to_mr():
    s = run(OPEN, (0, 0), 0, [0, 0, 1, 0, 1])
    assert s.pos == (5, -2) and s.facing == 2 and s.turns == 2
    st0 = mv.start_plot((0, 0), 0)
    assert mv.turn_choices(st0, 0, 0, False) == (0,)
    done = mv.PlotState((0, 0), 0, 2, 2, 0, None, False, False, "", ((0, 0),))
    assert mv.turn_choices(done, 2, 0, False) == (0,)  # MR used up
    assert mv.turn_choices(st0, 2, -1, False) == (-1,)  # navigation hit: forced
    assert mv.turn_choices(st0, 2, 0, True) == (1, -1)  # evading: must turn


def test_planet_blocks_movement():
    assert mv.advance(PLANET, mv.start_plot((-2, 0), 0), 0, 3) is not None
    # a ship in the ring facing the planet cannot enter it
    assert mv.advance(PLANET, mv.start_plot((-1, 0), 0), 0, 2) is None
    crash = mv.advance(PLANET, mv.start_plot((-1, 0), 0), 0, 2, planet_crash=True)
    assert crash.end == "crash"


def test_gravity_crash_heading_straight_in():
    s = run(PLANET, (-3, 0), 0, [0, 0, 0], total=4)
    assert s.end == "crash" and s.pos == (-1, 0)
    # a turn in the ring hex cannot save it
    s1 = mv.advance(PLANET, mv.start_plot((-3, 0), 0), 0, 4)
    caught = mv.advance(PLANET, s1, 1, 4)
    assert caught.end == "crash" and caught.pos == (-1, 0) and caught.turns == 0


def test_gravity_deflects_a_ship_passing_by():
    # passing "under" the planet heading east along r = 1: turned one hexside to the left (toward it)
    s = run(PLANET, (-3, 1), 0, [0, 0, 0, 0, 0, 0])
    assert s.gturns == 1
    assert s.facing == 1
    # a turn away from the planet in the ring cancels the deflection: the ship keeps a straight course
    s2 = run(PLANET, (-3, 1), 0, [0, -1, 1, 0, 0, 0])
    assert s2.gturns == 0


def test_gravity_no_deflection_when_the_move_ends_in_the_ring():
    s = run(PLANET, (-3, 1), 0, [0, 0, 0])
    assert s.gturns == 0 and s.pos == (0, 1)


def test_leaving_the_battle():
    m = mv.MapInfo.build(3, [])
    s = run(m, (2, 0), 0, [0, 0, 0])
    assert s.end == "exit" and s.pos == (3, 0)


def test_completable_sees_a_trap():
    # a ship one hex from the ring heading at the planet at speed 3 with no MR: only a crash
    st0 = mv.start_plot((-2, 0), 0)
    assert mv.completable(PLANET, st0, 3, 0, 0, False)  # the crash ends the move: legal (if unwise)
    # in the ring facing the planet with no MR: no way to continue
    assert not mv.completable(PLANET, mv.start_plot((-1, 0), 0), 2, 0, 0, False)
    assert mv.completable(PLANET, mv.start_plot((-1, 0), 1), 2, 0, 0, False)


def test_orbit_steps_around_the_planet_in_six_turns():
    pos = (1, 0)
    seen = [pos]
    for _ in range(6):
        pos = mv.orbit_step((0, 0), pos, clockwise=False)
        seen.append(pos)
    assert seen[-1] == (1, 0) and len(set(seen[:-1])) == 6
    assert mv.orbit_step((0, 0), (1, 0), clockwise=False) == (1, -1)
    assert mv.orbit_step((0, 0), (1, 0), clockwise=True) == (0, 1)


@given(st.lists(st.sampled_from((-1, 0, 1)), min_size=1, max_size=12), st.integers(0, 5))
def test_property_open_space_paths_are_contiguous(turns, facing):
    s = run(OPEN, (0, 0), facing, turns)
    assert s is not None and s.done == len(turns)
    for a, b in zip(s.path, s.path[1:]):
        assert max(abs(a[0] - b[0]), abs(a[1] - b[1]), abs(a[0] + a[1] - b[0] - b[1])) == 1
    assert s.turns == sum(1 for t in turns if t)
