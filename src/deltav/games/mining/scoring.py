"""Scoring and the winner: tile values minus two points per spent bribe counter; ties go to the most
fulfilled contracts, then the most unspent bribe counters; a tie after that is shared (ruling ``full_tie``:
"shared" makes every tied player a winner, "draw" makes nobody win).

This module owns the arithmetic of the end of the game only (pure functions); it must not touch states.
"""

from __future__ import annotations

from collections.abc import Sequence

BRIBE_PENALTY = 2


def score(tile_values: Sequence[int], spent_bribes: int) -> int:
    return sum(tile_values) - BRIBE_PENALTY * spent_bribes


def winners(scores: Sequence[int], contracts: Sequence[int], unspent: Sequence[int], full_tie: str = "shared"
            ) -> tuple[int, ...]:
    """The winning players by score, then contracts, then unspent bribes."""
    keys = [(scores[p], contracts[p], unspent[p]) for p in range(len(scores))]
    best = max(keys)
    top = tuple(p for p, k in enumerate(keys) if k == best)
    if len(top) > 1 and full_tie == "draw":
        return ()
    return top
