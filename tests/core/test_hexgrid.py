"""Hex math: the conventions of design/tactical.md 1.1 and the exact line analysis (our grazing ruling)."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from deltav.core import hexgrid as hx

coord = st.integers(min_value=-40, max_value=40)
hexes = st.tuples(coord, coord)


def test_directions_are_e_ne_nw_w_sw_se():
    assert hx.DIRECTIONS == ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
    assert hx.DIRECTION_NAMES == ("E", "NE", "NW", "W", "SW", "SE")
    for d in range(6):
        assert hx.add(hx.direction(d), hx.direction(hx.opposite(d))) == (0, 0)


def test_round_half_up_is_not_bankers_rounding():
    assert hx.round_half_up(0.5) == 1
    assert hx.round_half_up(2.5) == 3
    assert hx.round_half_up(-0.5) == 0
    assert hx.round_half_up(-1.5) == -1
    assert round(2.5) == 2  # what we avoid


def test_reference_line_example():
    # design/tactical.md 1.1: (0,0) -> (2,-1)
    assert hx.line((0, 0), (2, -1)) == [(0, 0), (1, 0), (2, -1)]
    assert hx.line((0, 0), (2, -1), sign=-1) == [(0, 0), (1, -1), (2, -1)]
    a = hx.analyze_line((0, 0), (2, -1))
    assert a.definite == ((0, 0), (2, -1))
    assert a.ambiguous == (((1, -1), (1, 0)),)


def test_graze_along_a_kk_direction_is_found_exactly():
    # v(1,1): the reference's nudge is parallel to the line, so it cannot see this graze; we can.
    a = hx.analyze_line((3, 3), (4, 4))
    assert a.ambiguous == (((3, 4), (4, 3)),)
    assert a.definite == ((3, 3), (4, 4))
    b = hx.analyze_line((0, 0), (-2, -2))
    assert len(b.ambiguous) == 2 and len(b.definite) == 3


def test_straight_lines_have_no_graze():
    for d in range(6):
        v = hx.scale(hx.direction(d), 5)
        a = hx.analyze_line((1, 2), hx.add((1, 2), v))
        assert a.ambiguous == ()
        assert a.definite == tuple(hx.add((1, 2), hx.scale(hx.direction(d), i)) for i in range(6))


@given(hexes, hexes)
def test_distance_is_a_metric(a, b):
    assert hx.distance(a, b) == hx.distance(b, a) >= 0
    assert (hx.distance(a, b) == 0) == (a == b)
    assert hx.distance(a, b) == hx.length(hx.sub(a, b))


@given(hexes, hexes, hexes)
def test_triangle_inequality(a, b, c):
    assert hx.distance(a, c) <= hx.distance(a, b) + hx.distance(b, c)


@given(hexes, hexes)
def test_line_length_and_adjacency(a, b):
    for sign in (1, -1):
        path = hx.line(a, b, sign)
        assert len(path) == hx.distance(a, b) + 1
        assert path[0] == a and path[-1] == b
        for p, q in zip(path, path[1:]):
            assert hx.distance(p, q) == 1


@given(hexes, hexes)
def test_exact_analysis_agrees_with_the_nudged_traces(a, b):
    an = hx.analyze_line(a, b)
    primary, alternate = hx.line(a, b, 1), hx.line(a, b, -1)
    assert len(an.steps) == len(primary)
    for i, step in enumerate(an.steps):
        assert 1 <= len(step) <= 2
        if len(step) == 1:
            # a definite hex: every correct trace passes through it
            assert primary[i] == step[0] or alternate[i] == step[0]
        else:
            # a graze: both hexes touch the line; they are neighbours
            assert hx.distance(step[0], step[1]) == 1
    assert set(an.definite) <= set(primary) | set(alternate)


@given(hexes, st.integers(min_value=0, max_value=6))
def test_ring_size_and_distance(c, radius):
    ring = hx.ring(c, radius)
    assert len(ring) == (6 * radius if radius else 1)
    assert len(set(ring)) == len(ring)
    assert all(hx.distance(c, h) == radius for h in ring)
    assert len(hx.spiral(c, radius)) == 1 + 3 * radius * (radius + 1)


@given(hexes)
def test_neighbours_and_rotation(h):
    ns = hx.neighbours(h)
    assert len(set(ns)) == 6 and all(hx.distance(h, n) == 1 for n in ns)
    for d in range(6):
        assert hx.rotate(hx.direction(d), 1) == hx.direction(d + 1)
        assert hx.rotate(hx.direction(d), 6) == hx.direction(d)


@given(hexes)
def test_pixel_round_trip(h):
    x, y = hx.pixel(h, 10.0)
    assert hx.from_pixel(x, y, 10.0) == h


def test_pixel_centres_flat_top():
    x, y = hx.pixel((1, 0), 1.0)
    assert math.isclose(x, 1.5) and math.isclose(y, math.sqrt(3) / 2)
    assert hx.pixel((0, -1), 1.0)[1] < 0  # north is up (negative y)


def test_keys():
    assert hx.key((-3, 7)) == "-3,7"
    assert hx.parse_key("-3,7") == (-3, 7)
