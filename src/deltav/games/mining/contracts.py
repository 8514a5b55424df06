"""Contract matching: whether a revealed mineral still fits the contract being attempted.

A contract needs a multiset of the four standard minerals. Omnidium (mineral 4) is wild: it fits any still
missing requirement, and several Omnidium tiles may stand for different minerals, so nobody has to say which
requirement a wild tile fills. A set of revealed minerals satisfies a contract so far exactly when it holds no
more of each standard mineral than the contract needs and no more tiles than the contract's size.

This module owns matching only (pure functions over tuples); it must not touch game states.
"""

from __future__ import annotations

from collections.abc import Sequence

from deltav.games.mining.scenarios import OMNIDIUM


def fits(need: Sequence[int], size: int, matched: Sequence[int], mineral: int) -> bool:
    """Would a tile counting as ``mineral`` match, given the minerals ``matched`` so far (each 0..4)?

    Surplus tiles of a needed mineral do not fit (ruling ``overmatch``: a third Betamite for a contract
    needing two is a mismatch)."""
    if len(matched) >= size:
        return False
    if mineral == OMNIDIUM:
        return True
    if mineral > OMNIDIUM:
        return False  # incidents never match
    return matched.count(mineral) < need[mineral]


def complete(size: int, matched: Sequence[int]) -> bool:
    """Every requirement is filled (matched tiles always fit, so counting them is enough)."""
    return len(matched) >= size


def satisfies(need: Sequence[int], size: int, minerals: Sequence[int]) -> bool:
    """Can these revealed minerals, in any order, fulfil a contract with ``need``/``size`` exactly?"""
    got: list[int] = []
    for m in sorted(minerals, key=lambda x: x == OMNIDIUM):
        if not fits(need, size, got, m):
            return False
        got.append(m)
    return complete(size, got)


def bid_matches(bid_mineral: int, mineral: int) -> bool:
    """A bid-up tile must show the bribe's mineral; a revealed Omnidium tile satisfies any bid (it is wild),
    and an Omnidium bribe needs a revealed Omnidium tile (ruling ``omnidium_bid_up``)."""
    return mineral in (bid_mineral, OMNIDIUM)
