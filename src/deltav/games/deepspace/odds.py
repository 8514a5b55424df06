"""Exact odds of Deep Space Combat's dice, from the rules alone: every number comes from the exact 2d6
distribution (36 equally likely outcomes), as in design note 2.4:

- ``p_hit(T, E, R)`` = P(2d6 x T - R >= 2d6 x E) (ties hit);
- ``expected_damage(D, En)`` = E[max(0, 2d6 x D - 2d6 x En)];
- ``expected_shot(T, D, E, En, R)`` = ``p_hit * expected_damage`` (attack and damage dice are independent).

Functions are cached: search calls them in tight loops. Values are floats; ``p_hit_fraction`` gives the exact
rational. The rules-side views (``visibility``'s hit odds), the board, the notes on legal actions and the bots
all read these.

This module owns the dice odds only: it reads plain numbers, never a state or a view, and scores nothing
(bot-side evaluation lives in ``bots/heuristics.py``).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

#: (sum, ways) of 2d6
TWO_D6: tuple[tuple[int, int], ...] = tuple((s, 6 - abs(s - 7)) for s in range(2, 13))


@lru_cache(maxsize=65536)
def p_hit_fraction(targeting: int, evasion: int, range_: int) -> Fraction:
    ways = 0
    for a, wa in TWO_D6:
        att = a * targeting - range_
        for e, we in TWO_D6:
            if att >= e * evasion:
                ways += wa * we
    return Fraction(ways, 1296)


@lru_cache(maxsize=65536)
def p_hit(targeting: int, evasion: int, range_: int) -> float:
    """Exact probability that an attack hits."""
    return float(p_hit_fraction(targeting, evasion, range_))


@lru_cache(maxsize=65536)
def expected_damage(damage: int, endurance: int) -> float:
    """Exact expected hit points of a damage roll (never negative)."""
    total = 0
    for a, wa in TWO_D6:
        for e, we in TWO_D6:
            hp = a * damage - e * endurance
            if hp > 0:
                total += hp * wa * we
    return total / 1296


def expected_shot(targeting: int, damage: int, evasion: int, endurance: int, range_: int) -> float:
    """Expected hit points of one shot, before it is known whether it hits."""
    if targeting <= 0 and damage <= 0:
        return 0.0
    return p_hit(targeting, evasion, range_) * expected_damage(damage, endurance)


def hit_table(pairs=((5, 4), (5, 5), (10, 5), (3, 6)), ranges=(0, 5, 10, 20, 40)) -> list[list[float]]:
    """The table of design note 2.4 (rows: targeting vs evasion pairs, columns: ranges)."""
    return [[p_hit(t, e, r) for r in ranges] for t, e in pairs]
