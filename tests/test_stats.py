"""deltav.stats: Wilson intervals and exact binomial tests, checked against exact rational arithmetic."""

from fractions import Fraction
from math import comb

import pytest

from deltav.stats import binomial_one_sided_p, binomial_pmf, binomial_two_sided_p, wilson_interval


def exact_tail(k: int, n: int, p: Fraction) -> Fraction:
    return sum((comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1)), Fraction(0))


@pytest.mark.parametrize("k,n,p", [(0, 5, Fraction(1, 2)), (3, 5, Fraction(1, 2)), (5, 5, Fraction(1, 2)),
                                   (7, 10, Fraction(1, 3)), (30, 60, Fraction(1, 4)), (58, 100, Fraction(1, 2))])
def test_one_sided_p_matches_exact_arithmetic(k, n, p):
    assert binomial_one_sided_p(k, n, float(p)) == pytest.approx(float(exact_tail(k, n, p)), rel=1e-9)


def test_long_series_do_not_overflow():
    # 1,343 wins of 2,531 decided games: the figure of a real 3,000-game series (the old float version overflowed)
    p = binomial_one_sided_p(1343, 2531)
    assert p == pytest.approx(float(exact_tail(1343, 2531, Fraction(1, 2))), rel=1e-6)
    assert 0.0005 < p < 0.005
    assert binomial_one_sided_p(50_000, 100_000) == pytest.approx(0.5, abs=0.01)
    assert binomial_one_sided_p(60_000, 100_000) < 1e-300


def test_pmf_sums_to_one_and_handles_certain_outcomes():
    for n, p in [(1, 0.5), (10, 0.1), (2000, 0.25)]:
        assert sum(binomial_pmf(n, p)) == pytest.approx(1.0, rel=1e-9)
    assert binomial_pmf(3, 0.0) == [1.0, 0.0, 0.0, 0.0]
    assert binomial_pmf(3, 1.0) == [0.0, 0.0, 0.0, 1.0]
    assert binomial_one_sided_p(0, 10) == 1.0
    assert binomial_one_sided_p(3, 0) == 1.0


def test_two_sided_p_is_symmetric_at_one_half():
    assert binomial_two_sided_p(2, 10) == pytest.approx(binomial_two_sided_p(8, 10))
    assert binomial_two_sided_p(5, 10) == pytest.approx(1.0)
    assert binomial_two_sided_p(1200, 2000) < 1e-10


def test_wilson_interval_contains_the_rate_and_narrows():
    lo, hi = wilson_interval(60, 100)
    assert lo < 0.6 < hi
    lo2, hi2 = wilson_interval(600, 1000)
    assert lo < lo2 < 0.6 < hi2 < hi
    assert wilson_interval(0, 0) == (0.0, 1.0)
