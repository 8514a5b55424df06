"""Damage allocation: the rulebook's size-4 example, the leftover ruling, the default allocation."""

from hypothesis import given, settings
from hypothesis import strategies as st

from deltav.games.deepspace import damage as dmg


def test_size_4_ship_takes_11_as_8_on_thrust_and_3_on_targeting():
    size = 4
    lv = [4, 0, 0, 5, 3]  # thrust 4, weapon targeting 5 damage 3
    partial = [0, 0, 0]
    assert dmg.is_legal(size, lv, partial, 11, 0, 8)
    assert dmg.apply(size, lv, partial, 0, 8) == 2
    assert dmg.is_legal(size, lv, partial, 3, dmg.slot_of("targeting", 0), 3)
    assert dmg.apply(size, lv, partial, dmg.slot_of("targeting", 0), 3) == 3
    assert lv[0] == 2 and lv[3] == 2


def test_default_allocation_reproduces_the_rulebook_example():
    plan = dmg.default_plan(4, [4, 0, 0, 5, 3], [0, 0, 0], 11)
    lv = [4, 0, 0, 5, 3]
    for k, hp in plan:
        dmg.apply(4, lv, [0, 0, 0], k, hp)
    assert lv == [2, 0, 0, 2, 3]


def test_lost_leftover_on_a_ship_stat():
    # 3 hit points on a size-4 ship's thrust: allowed as the whole remainder, and lost
    lv = [2, 0, 0]
    assert dmg.is_legal(4, lv, [0, 0, 0], 3, 0, 3)
    assert dmg.apply(4, lv, [0, 0, 0], 0, 3) == 0 and lv == [2, 0, 0]
    # but not as part of a larger amount (the rest must still be placed)
    assert not dmg.is_legal(4, lv, [0, 0, 0], 7, 0, 3)
    # 11 on a thrust of 3: two levels, 3 lost
    lv = [3, 0, 0]
    assert dmg.is_legal(4, lv, [0, 0, 0], 11, 0, 11)
    assert dmg.apply(4, lv, [0, 0, 0], 0, 11) == 2 and lv == [1, 0, 0]


def test_partial_leftover_keeps_a_counter():
    lv = [2, 0, 0]
    partial = [0, 0, 0]
    assert dmg.apply(4, lv, partial, 0, 3, "partial") == 0 and partial[0] == 3
    assert dmg.apply(4, lv, partial, 0, 2, "partial") == 1 and lv[0] == 1 and partial[0] == 1
    assert not dmg.is_legal(4, lv, partial, 9, 0, 4, "partial")  # only 3 more points fit on that stat


def test_weapon_stats_take_at_most_their_level():
    assert dmg.is_legal(2, [0, 0, 0, 3, 1], [0, 0, 0], 10, 3, 3)
    assert not dmg.is_legal(2, [0, 0, 0, 3, 1], [0, 0, 0], 10, 3, 4)
    assert not dmg.is_legal(2, [0, 0, 0, 3, 1], [0, 0, 0], 2, 3, 3)  # more than pending


ships = st.tuples(
    st.integers(1, 6),
    st.lists(st.integers(0, 8), min_size=3, max_size=3),
    st.lists(st.integers(0, 12), min_size=0, max_size=6),
    st.integers(1, 120),
    st.sampled_from(["lost", "partial"]),
)


@settings(max_examples=150, deadline=None)
@given(ships, st.randoms(use_true_random=False))
def test_any_sequence_of_legal_steps_allocates_everything_or_empties_the_ship(ship, rnd):
    size, stats, weapons, hp, mode = ship
    lv = stats + weapons + ([1] if len(weapons) % 2 else [])
    partial = [0, 0, 0]
    r = hp
    steps = 0
    while r > 0 and any(x > 0 for x in lv):
        opts = dmg.options(size, lv, partial, r, mode)
        assert opts, (size, lv, partial, r)
        for k, h in opts:
            assert dmg.is_legal(size, lv, partial, r, k, h, mode)
        k, h = rnd.choice(opts)
        before = sum(lv)
        dmg.apply(size, lv, partial, k, h, mode)
        assert all(x >= 0 for x in lv) and sum(lv) <= before
        r -= h
        steps += 1
    assert r >= 0
    assert steps <= sum(stats) * size + sum(weapons) + 2


@settings(max_examples=150, deadline=None)
@given(ships)
def test_default_plan_is_legal_and_complete(ship):
    size, stats, weapons, hp, mode = ship
    lv = stats + weapons + ([1] if len(weapons) % 2 else [])
    partial = [0, 0, 0]
    r = hp
    for k, h in dmg.default_plan(size, lv, partial, hp, mode):
        assert dmg.is_legal(size, lv, partial, r, k, h, mode)
        dmg.apply(size, lv, partial, k, h, mode)
        r -= h
    assert r == 0 or all(x == 0 for x in lv)
