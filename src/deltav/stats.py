"""Statistics for match series: Wilson score intervals and exact binomial tests (standard library only).

This module owns numbers about results; it knows no game.
"""

from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (draws may count as half a success)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def binomial_pmf(n: int, p: float) -> list[float]:
    """P(X = i) for i = 0..n, X ~ Binomial(n, p), computed in log space so that any n works (the direct
    ``comb(n, i) * p**i`` overflows a float beyond about a thousand trials)."""
    if p <= 0.0 or p >= 1.0:
        hit = 0 if p <= 0.0 else n
        return [1.0 if i == hit else 0.0 for i in range(n + 1)]
    lp, lq, ln = math.log(p), math.log1p(-p), math.lgamma(n + 1)
    return [math.exp(ln - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * lp + (n - i) * lq) for i in range(n + 1)]


def binomial_two_sided_p(k: int, n: int, p: float = 0.5) -> float:
    """Exact two-sided binomial test: the probability, under success rate ``p``, of an outcome at most as
    likely as ``k`` successes in ``n`` trials."""
    if n <= 0:
        return 1.0
    probs = binomial_pmf(n, p)
    observed = probs[k]
    return min(1.0, sum(q for q in probs if q <= observed * (1 + 1e-7)))


def binomial_one_sided_p(k: int, n: int, p: float = 0.5) -> float:
    """P(X >= k) for X ~ Binomial(n, p): the chance of doing at least this well by luck."""
    if n <= 0:
        return 1.0
    if k <= 0:
        return 1.0
    return min(1.0, math.fsum(binomial_pmf(n, p)[k:]))
