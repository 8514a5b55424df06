"""Velocity vectors and thrust costs, checked against the rulebook's speed and turn examples."""

from hypothesis import given
from hypothesis import strategies as st

from deltav.core.hexgrid import length
from deltav.games.deepspace.movement import (
    LABEL_VECTORS,
    breakdown,
    components,
    from_components,
    label,
    thrust_cost,
    velocities_within,
)

A, B, C, D, E, F = LABEL_VECTORS


def times(v, k):
    return (v[0] * k, v[1] * k)


def test_speed_up_4_to_8_costs_4():
    assert thrust_cost(times(A, 4), times(A, 8)) == 4
    assert breakdown(times(A, 4), times(A, 8)) == (4, 0, 0)


def test_stop_from_8_costs_8():
    assert thrust_cost(times(A, 8), (0, 0)) == 8
    assert breakdown(times(A, 8), (0, 0)) == (0, 8, 0)


def test_turn_60_degrees_at_speed_4_costs_4():
    for other in (B, F):
        assert thrust_cost(times(A, 4), times(other, 4)) == 4
        assert breakdown(times(A, 4), times(other, 4)) == (0, 0, 4)


def test_turn_120_degrees_or_more_at_speed_4_costs_8():
    for other in (C, D, E):
        assert thrust_cost(times(A, 4), times(other, 4)) == 8


def test_rulebook_directions_are_clockwise_from_the_top():
    # A is the top hexside; A + C = B (two components 120 degrees apart make the one between)
    assert A == (0, -1)
    assert from_components({"A": 1, "C": 1}) == B
    assert from_components({"A": 2, "D": 2}) == (0, 0)  # opposite components cancel
    assert label(from_components({"A": 3, "B": 2})) == "3A+2B"
    assert label((0, 0)) == "rest"


vec = st.tuples(st.integers(-30, 30), st.integers(-30, 30))


@given(vec, vec)
def test_thrust_cost_is_the_hex_distance_and_the_breakdown_sums_to_it(v0, v1):
    cost = thrust_cost(v0, v1)
    assert cost == length((v1[0] - v0[0], v1[1] - v0[1]))
    assert cost == thrust_cost(v1, v0)
    up, down, turn = breakdown(v0, v1)
    assert up + down + turn == cost and min(up, down, turn) >= 0 and not (up and down)


@given(vec)
def test_components_are_at_most_two_adjacent_and_sum_back(v):
    parts = components(v)
    assert len(parts) <= 2
    assert from_components(dict(parts)) == v
    assert sum(n for _, n in parts) == length(v)


@given(st.tuples(st.integers(-5, 5), st.integers(-5, 5)), st.integers(0, 7))
def test_velocities_within_thrust_are_complete(v0, thrust):
    vs = velocities_within(v0, thrust)
    assert len(vs) == 3 * thrust * (thrust + 1) + 1 == len(set(vs))
    assert all(thrust_cost(v0, v) <= thrust for v in vs)
