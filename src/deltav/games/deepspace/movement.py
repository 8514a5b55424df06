"""Hex vector movement of Deep Space Combat: velocities, thrust costs, their display breakdown.

Velocity is one axial vector ``(dq, dr)`` on the flat-top grid of :mod:`deltav.core.hexgrid` (ruling 2.3.1:
components in up to three directions add up, and any sum reduces to at most two adjacent components). Thrust
spent to change velocity ``v0`` into ``v1`` is the hex distance ``|v1 - v0|`` (ruling 2.3.2); it equals the
cheapest ordering under the rulebook's speed/turn accounting. New position = old position + new velocity
(ruling 2.3.3).

Rulebook direction labels: A is the top hexside, then B..F clockwise. On the flat-top axial grid (screen y down)
A = (0, -1), B = (1, -1), C = (1, 0), D = (0, 1), E = (-1, 1), F = (-1, 0).

This module owns the geometry of velocities only: no ships, no state, no dice.
"""

from __future__ import annotations

from functools import lru_cache

from deltav.core.hexgrid import Hex, length

LABELS = ("A", "B", "C", "D", "E", "F")
LABEL_VECTORS: tuple[Hex, ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))


def thrust_cost(v0: Hex, v1: Hex) -> int:
    """Thrust needed to change velocity ``v0`` into ``v1``: the hex distance between the two vectors."""
    q = v1[0] - v0[0]
    r = v1[1] - v0[1]
    return max(abs(q), abs(r), abs(q + r))


def speed(v: Hex) -> int:
    """Hexes per round of a velocity."""
    return length(v)


def components(v: Hex) -> list[tuple[str, int]]:
    """``v`` as at most two adjacent rulebook components, e.g. ``[("A", 3), ("B", 2)]``; ``[]`` for rest."""
    if v == (0, 0):
        return []
    for i in range(6):
        a = LABEL_VECTORS[i]
        b = LABEL_VECTORS[(i + 1) % 6]
        det = a[0] * b[1] - a[1] * b[0]
        x = (v[0] * b[1] - v[1] * b[0]) // det if det else 0
        y = (a[0] * v[1] - a[1] * v[0]) // det if det else 0
        if x >= 0 and y >= 0 and (x * a[0] + y * b[0], x * a[1] + y * b[1]) == v and x + y > 0:
            if x > 0 and y > 0:
                return [(LABELS[i], x), (LABELS[(i + 1) % 6], y)]
            if x > 0:
                return [(LABELS[i], x)]
    raise AssertionError(f"no decomposition of {v}")  # every vector lies in one sector


def from_components(parts: dict[str, int]) -> Hex:
    """Sum of rulebook components (up to three, or more: they add as vectors), e.g. ``{"A": 1, "C": 1}`` = B."""
    q = r = 0
    for label, n in parts.items():
        dq, dr = LABEL_VECTORS[LABELS.index(label)]
        q += dq * n
        r += dr * n
    return (q, r)


def label(v: Hex) -> str:
    """Human form of a velocity: ``"3A+2B"``, ``"rest"``."""
    parts = components(v)
    return "+".join(f"{n}{d}" for d, n in parts) if parts else "rest"


def breakdown(v0: Hex, v1: Hex) -> tuple[int, int, int]:
    """The thrust of a change split for display as ``(speed_up, slow_down, turn)``, summing to the cost:
    the speed change accounts for ``| |v1| - |v0| |`` and the rest of the cost is turning."""
    cost = thrust_cost(v0, v1)
    ds = length(v1) - length(v0)
    up = ds if ds > 0 else 0
    down = -ds if ds < 0 else 0
    return (up, down, cost - up - down)


@lru_cache(maxsize=4096)
def velocities_within(v0: Hex, thrust: int) -> tuple[Hex, ...]:
    """Every velocity reachable from ``v0`` with at most ``thrust`` thrust (3T(T+1)+1 of them), in a fixed
    order (by dq, then dr)."""
    out = []
    q0, r0 = v0
    for dq in range(-thrust, thrust + 1):
        lo = max(-thrust, -dq - thrust)
        hi = min(thrust, -dq + thrust)
        for dr in range(lo, hi + 1):
            out.append((q0 + dq, r0 + dr))
    return tuple(out)
