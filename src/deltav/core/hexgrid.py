"""Axial hex math for a flat-top grid, shared by every game.

Coordinates are ``(q, r)`` tuples (cube ``s = -q - r``); plain tuples keep the hot loops of search fast.
Directions follow Delta-V (design/tactical.md 1.1): E, NE, NW, W, SW, SE = 0..5, screen y growing downward,
so north is negative r.

Lines: ``line(a, b)`` is the reference game's nudged line (cube lerp of endpoints moved by ``(+e, +e, -2e)``,
rounded half up, never banker's rounding). ``analyze_line(a, b)`` is exact integer arithmetic: each step of the
line is either inside one hex (a *definite* hex) or exactly on the hexside shared by two hexes (an *ambiguous
pair*: the course grazes that side). Both depend only on ``b - a``, so they are cached per offset.

This module owns geometry only: no terrain, no rules.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import NamedTuple

Hex = tuple[int, int]

DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
DIRECTION_NAMES: tuple[str, ...] = ("E", "NE", "NW", "W", "SW", "SE")
ORIGIN: Hex = (0, 0)
SQRT3 = math.sqrt(3.0)
_EPS = 1e-6


def add(a: Hex, b: Hex) -> Hex:
    return (a[0] + b[0], a[1] + b[1])


def sub(a: Hex, b: Hex) -> Hex:
    return (a[0] - b[0], a[1] - b[1])


def scale(a: Hex, k: int) -> Hex:
    return (a[0] * k, a[1] * k)


def neg(a: Hex) -> Hex:
    return (-a[0], -a[1])


def length(v: Hex) -> int:
    """The hex norm of an offset or velocity: ``max(|dq|, |dr|, |dq + dr|)``."""
    q, r = v
    return max(abs(q), abs(r), abs(q + r))


def distance(a: Hex, b: Hex) -> int:
    q = a[0] - b[0]
    r = a[1] - b[1]
    return max(abs(q), abs(r), abs(q + r))


def direction(d: int) -> Hex:
    return DIRECTIONS[d % 6]


def opposite(d: int) -> int:
    return (d + 3) % 6


def neighbour(h: Hex, d: int) -> Hex:
    dq, dr = DIRECTIONS[d % 6]
    return (h[0] + dq, h[1] + dr)


def neighbours(h: Hex) -> list[Hex]:
    q, r = h
    return [(q + dq, r + dr) for dq, dr in DIRECTIONS]


def ring(center: Hex, radius: int) -> list[Hex]:
    """The hexes at exactly ``radius`` from ``center`` (6 * radius of them; the centre alone for 0): from the
    corner ``radius`` steps SW of the centre, walking the sides in direction order E, NE, NW, W, SW, SE."""
    if radius < 0:
        raise ValueError("radius must be >= 0")
    if radius == 0:
        return [center]
    out = []
    q, r = center[0] + DIRECTIONS[4][0] * radius, center[1] + DIRECTIONS[4][1] * radius
    for d in range(6):
        dq, dr = DIRECTIONS[d]
        for _ in range(radius):
            out.append((q, r))
            q += dq
            r += dr
    return out


def spiral(center: Hex, radius: int) -> list[Hex]:
    """Every hex within ``radius`` of ``center``, centre first, then ring by ring."""
    out = [center]
    for k in range(1, radius + 1):
        out.extend(ring(center, k))
    return out


def rotate(v: Hex, steps: int) -> Hex:
    """Rotate an offset by ``steps`` sixths of a turn counter-clockwise on screen (E -> NE -> NW ...)."""
    q, r = v
    for _ in range(steps % 6):
        q, r = q + r, -q  # cube (q, r, s) -> (-s, -q, -r)
    return (q, r)


def direction_of(v: Hex) -> int | None:
    """The direction index of a unit offset, or None if ``v`` is not one of the six unit offsets."""
    try:
        return DIRECTIONS.index(v)
    except ValueError:
        return None


def round_half_up(x: float) -> int:
    """Round to nearest with .5 going up, as JavaScript's ``Math.round`` (not Python's banker's ``round``)."""
    return math.floor(x + 0.5)


def cube_round(q: float, r: float, s: float) -> Hex:
    """The hex ``(q, r)`` containing the fractional cube point ``(q, r, s)`` (``q + r + s = 0``): round each
    half up, then repair the component with the largest rounding error (q first, then r, else s)."""
    rq, rr, rs = round_half_up(q), round_half_up(r), round_half_up(s)
    eq, er, es = abs(rq - q), abs(rr - r), abs(rs - s)
    if eq > er and eq > es:
        rq = -rr - rs
    elif er > es:
        rr = -rq - rs
    return (rq, rr)


def pixel(h: Hex, size: float = 1.0) -> tuple[float, float]:
    """Centre of hex ``h`` in pixels for a flat-top grid of hex radius ``size`` (y grows downward)."""
    q, r = h
    return (size * 1.5 * q, size * (SQRT3 / 2 * q + SQRT3 * r))


def from_pixel(x: float, y: float, size: float = 1.0) -> Hex:
    """The hex under pixel ``(x, y)``: the inverse of :func:`pixel`."""
    q = (2.0 / 3.0 * x) / size
    r = (-1.0 / 3.0 * x + SQRT3 / 3.0 * y) / size
    return cube_round(q, r, -q - r)


@lru_cache(maxsize=4096)
def _line_offsets(dq: int, dr: int, sign: int) -> tuple[Hex, ...]:
    n = max(abs(dq), abs(dr), abs(dq + dr))
    if n == 0:
        return ((0, 0),)
    e = _EPS * sign
    # nudged endpoints in cube (q, r, s): start (e, e, -2e), end (dq + e, dr + e, -dq - dr - 2e)
    out = []
    for i in range(n + 1):
        t = i / n
        out.append(cube_round(e + dq * t, e + dr * t, -2 * e + (-dq - dr) * t))
    return tuple(out)


def line(a: Hex, b: Hex, sign: int = 1) -> list[Hex]:
    """The reference game's line from ``a`` to ``b`` (distance + 1 hexes): a cube lerp between endpoints
    nudged by ``sign * (+1e-6, +1e-6, -2e-6)``. ``sign=1`` is the 'primary' trace, ``-1`` the 'alternate'."""
    offs = _line_offsets(b[0] - a[0], b[1] - a[1], sign)
    q, r = a
    return [(q + oq, r + orr) for oq, orr in offs]


class LineAnalysis(NamedTuple):
    """Exact analysis of a line between hex centres, as offsets from its start.

    ``steps[i]`` is a tuple of the hexes nearest to the point at step ``i`` (one hex: definite; two: the point
    lies exactly on their shared hexside; three: on a corner, which lines between hex centres never hit).
    ``definite`` lists the hexes of one-hex steps in order, ``ambiguous`` the pairs of two-hex steps."""

    steps: tuple[tuple[Hex, ...], ...]
    definite: tuple[Hex, ...]
    ambiguous: tuple[tuple[Hex, Hex], ...]


def _nearest_hexes(x: int, y: int, n: int) -> tuple[Hex, ...]:
    """Hexes nearest (Euclidean, in the plane) to the cube point ``(x/n, y/n, -(x+y)/n)``, exactly."""
    z = -x - y
    # candidate centre: half-up rounding of each coordinate, then the usual repair
    cx = (2 * x + n) // (2 * n)
    cy = (2 * y + n) // (2 * n)
    cz = (2 * z + n) // (2 * n)
    ex, ey, ez = abs(cx * n - x), abs(cy * n - y), abs(cz * n - z)
    if ex > ey and ex > ez:
        cx = -cy - cz
    elif ey > ez:
        cy = -cx - cz
    best: list[Hex] = []
    best_d = None
    for hq, hr in [(cx, cy)] + [(cx + dq, cy + dr) for dq, dr in DIRECTIONS]:
        hs = -hq - hr
        d = (hq * n - x) ** 2 + (hr * n - y) ** 2 + (hs * n - z) ** 2
        if best_d is None or d < best_d:
            best_d = d
            best = [(hq, hr)]
        elif d == best_d:
            best.append((hq, hr))
    return tuple(sorted(best))


@lru_cache(maxsize=4096)
def analyze_offset(dq: int, dr: int) -> LineAnalysis:
    """:func:`analyze_line` from the origin (cached, and called as the cache itself: every course of every bot
    search asks it): add the start hex to each entry yourself in hot loops."""
    n = max(abs(dq), abs(dr), abs(dq + dr))
    if n == 0:
        return LineAnalysis(((ORIGIN,),), (ORIGIN,), ())
    steps = tuple(_nearest_hexes(dq * i, dr * i, n) for i in range(n + 1))
    definite = tuple(s[0] for s in steps if len(s) == 1)
    ambiguous = tuple((s[0], s[1]) for s in steps if len(s) == 2)
    return LineAnalysis(steps, definite, ambiguous)


def analyze_line(a: Hex, b: Hex) -> LineAnalysis:
    """Exact definite hexes and hexside-grazing pairs of the line from ``a`` to ``b`` (absolute coordinates)."""
    base = analyze_offset(b[0] - a[0], b[1] - a[1])
    q, r = a
    if q == 0 and r == 0:
        return base
    return LineAnalysis(
        tuple(tuple((q + hq, r + hr) for hq, hr in s) for s in base.steps),
        tuple((q + hq, r + hr) for hq, hr in base.definite),
        tuple(((q + p[0], r + p[1]), (q + s[0], r + s[1])) for p, s in base.ambiguous),
    )


def key(h: Hex) -> str:
    """The string key ``"q,r"`` used in JSON forms."""
    return f"{h[0]},{h[1]}"


def parse_key(text: str) -> Hex:
    """Inverse of :func:`key`; raises ValueError on anything but two comma-separated integers."""
    parts = text.split(",")
    if len(parts) != 2:
        raise ValueError(f"hex key must be 'q,r', got {text!r}")
    return (int(parts[0]), int(parts[1]))
