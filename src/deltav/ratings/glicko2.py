"""The Glicko-2 rating system (Mark Glickman, "Example of the Glicko-2 system"), written from the paper.

A rating is ``(r, rd, vol)`` on the Glicko scale (1500 / 350 / 0.06 for a newcomer). :func:`update` applies one
rating period: the results against opponents, all rated as they were at the start of the period. A period
without games only widens the deviation. ``tau`` constrains how fast the volatility changes (0.3 to 1.2; 0.5
here, as in the paper's example). The volatility is found with the Illinois algorithm of the paper's step 5.

This module owns the arithmetic only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178
EPSILON = 1e-6


@dataclass(frozen=True)
class Glicko2:
    r: float = 1500.0
    rd: float = 350.0
    vol: float = 0.06

    def interval(self, z: float = 1.96) -> tuple[float, float]:
        """The rating's 95% interval (r ± 1.96 RD)."""
        return (self.r - z * self.rd, self.r + z * self.rd)


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    fa, fb = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        c = big_a + (big_a - big_b) * fa / (fb - fa)
        fc = f(c)
        if fc * fb <= 0:
            big_a, fa = big_b, fb
        else:
            fa /= 2.0
        big_b, fb = c, fc
    return math.exp(big_a / 2.0)


def update(player: Glicko2, results: Sequence[tuple[Glicko2, float]], tau: float = 0.5) -> Glicko2:
    """``player`` after one rating period of ``results``: ``(opponent, score)`` with score 1 (win), 0.5, 0."""
    mu, phi = (player.r - 1500.0) / SCALE, player.rd / SCALE
    if not results:
        return Glicko2(player.r, math.sqrt(phi * phi + player.vol * player.vol) * SCALE, player.vol)
    inv_v = 0.0
    total = 0.0
    for opp, score in results:
        mu_j, phi_j = (opp.r - 1500.0) / SCALE, opp.rd / SCALE
        g, e = _g(phi_j), _e(mu, mu_j, phi_j)
        inv_v += g * g * e * (1.0 - e)
        total += g * (score - e)
    v = 1.0 / inv_v
    delta = v * total
    sigma = _volatility(phi, player.vol, delta, v, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * total
    return Glicko2(mu_new * SCALE + 1500.0, phi_new * SCALE, sigma)
