"""The seeded generator: reproducible, exact ranges, state in JSON."""

from __future__ import annotations

from collections import Counter

import pytest

from deltav.core.rng import Rng, derive_seed


def test_same_seed_same_stream_and_clone_is_independent():
    a, b = Rng(5), Rng(5)
    assert [a.d6() for _ in range(50)] == [b.d6() for _ in range(50)]
    c = a.clone()
    x = [a.d100() for _ in range(10)]
    assert [c.d100() for _ in range(10)] == x
    assert a.state == c.state


def test_json_round_trip():
    a = Rng(123)
    a.d6()
    b = Rng.from_json(a.to_json())
    assert [a.two_d6() for _ in range(20)] == [b.two_d6() for _ in range(20)]
    with pytest.raises(ValueError):
        Rng.from_json("zz")


def test_dice_ranges_and_uniformity():
    r = Rng(9)
    counts = Counter(r.d6() for _ in range(60000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(abs(c - 10000) < 400 for c in counts.values())
    assert {r.d10() for _ in range(2000)} == set(range(1, 11))
    assert {r.d100() for _ in range(20000)} == set(range(1, 101))
    two = Counter(r.two_d6() for _ in range(36000))
    assert abs(two[7] - 6000) < 300 and abs(two[2] - 1000) < 150


def test_shuffle_is_a_permutation_and_seeded():
    items = list(range(48))
    a, b = list(items), list(items)
    Rng(1).shuffle(a)
    Rng(1).shuffle(b)
    assert a == b and sorted(a) == items and a != items


def test_derived_seeds_differ():
    seeds = {derive_seed(7, "seat", p) for p in range(4)} | {derive_seed(7, "game", 0)}
    assert len(seeds) == 5
    assert derive_seed(7, "seat", 1) == derive_seed(7, "seat", 1)


def test_below_rejects_bad_bounds():
    with pytest.raises(ValueError):
        Rng(1).below(0)


def test_shuffle_takes_the_draws_of_below_from_the_end():
    """The inlined shuffle is Fisher-Yates with ``below(i + 1)`` for each i from the end, draw for draw."""
    for seed in range(300):
        for size in (0, 1, 2, 3, 7, 40, 101):
            a, b = Rng(seed), Rng(seed)
            xs = list(range(size))
            ys = list(range(size))
            a.shuffle(xs)
            for i in range(size - 1, 0, -1):
                j = b.below(i + 1)
                ys[i], ys[j] = ys[j], ys[i]
            assert xs == ys and a.state == b.state
