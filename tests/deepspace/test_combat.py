"""Attack and damage rolls: the rulebook's worked examples and the exact odds of design note 2.4."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from deltav.core.rng import Rng
from deltav.games.deepspace.combat import (
    attack_total,
    damage_from_rolls,
    explosion_power,
    hits_from_rolls,
    roll_attack,
    roll_damage,
)
from deltav.games.deepspace.odds import expected_damage, expected_shot, hit_table, p_hit, p_hit_fraction


def test_worked_example_targeting_5_damage_4_at_range_12():
    # attack: the attacker rolls 8: 8 x 5 - 12 = 28; the defender rolls 6: 6 x 4 = 24 -> hit
    assert attack_total(5, 8, 12) == 28
    assert hits_from_rolls(5, 4, 12, 8, 6)
    assert not hits_from_rolls(5, 4, 12, 8, 8)  # 28 < 32
    # damage: the example's totals are a damage roll of 16 (2d6 = 4, x damage 4) against an endurance roll of
    # 15 (2d6 = 3, x endurance 5): 16 - 15 = 1 hit point
    assert damage_from_rolls(4, 5, 4, 3) == 1


def test_worked_example_as_literally_worded_is_inconsistent():
    # The text says the damage die roll is "an 8" and the endurance roll "a 6 again", but then gives totals of
    # 16 and 15, which 8 x 4 and 6 x 5 are not; with those literal rolls the formula gives 2 (docs/deepspace.md)
    assert damage_from_rolls(4, 5, 8, 6) == 32 - 30 == 2


def test_ties_hit_and_damage_is_never_negative():
    assert hits_from_rolls(2, 2, 0, 6, 6)
    assert not hits_from_rolls(2, 2, 1, 6, 6)
    assert damage_from_rolls(1, 10, 2, 12) == 0


def test_cruiser_self_destruct_example():
    # remaining stat total 10: 2d6 x 10 rolls 70 (a 7); the dreadnought's endurance 6 rolls 42 (a 7): 28 HP
    assert explosion_power([2, 0, 3, 4, 1]) == 10
    assert damage_from_rolls(explosion_power([2, 0, 3, 4, 1]), 6, 7, 7) == 28


TABLE_2_4 = [
    [0.678, 0.561, 0.439, 0.217, 0.015],
    [0.556, 0.444, 0.336, 0.159, 0.012],
    [0.912, 0.877, 0.836, 0.731, 0.465],
    [0.123, 0.060, 0.023, 0.002, 0.000],
]


def test_hit_probability_table_of_design_note_2_4():
    got = hit_table()
    for row, want in zip(got, TABLE_2_4):
        assert [round(x, 3) for x in row] == want


@pytest.mark.parametrize(
    "d,en,want", [(4, 5, 3.36), (5, 5, 6.86), (10, 5, 36.2), (10, 0, 70.0), (20, 10, 72.3)]
)
def test_expected_damage_of_design_note_2_4(d, en, want):
    assert round(expected_damage(d, en), 1 if want >= 10 else 2) == want


def test_p_hit_is_exact_over_36_x_36_outcomes():
    # 5 vs 4 at range 0: count the outcomes by hand
    ways = sum(
        (6 - abs(a - 7)) * (6 - abs(e - 7)) for a in range(2, 13) for e in range(2, 13) if 5 * a >= 4 * e
    )
    assert p_hit_fraction(5, 4, 0).numerator * 1296 // p_hit_fraction(5, 4, 0).denominator == ways


@given(st.integers(0, 30), st.integers(0, 30), st.integers(0, 60))
def test_p_hit_is_a_probability_falling_with_range(t, e, r):
    p = p_hit(t, e, r)
    assert 0.0 <= p <= 1.0
    assert p_hit(t, e, r + 1) <= p
    assert expected_shot(t, 5, e, 5, r) <= expected_damage(5, 5) + 1e-12


def test_rolled_attacks_match_the_exact_odds_roughly():
    rng = Rng(7)
    n = 20000
    hits = sum(roll_attack(rng, 5, 4, 5)[0] for _ in range(n))
    assert abs(hits / n - p_hit(5, 4, 5)) < 0.02
    total = sum(roll_damage(rng, 5, 5)[0] for _ in range(n))
    assert abs(total / n - expected_damage(5, 5)) < 0.3
