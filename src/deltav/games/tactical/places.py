"""Places, velocities and burns of Delta-V tactical in words, for the text a player reads (the log, the notes
on legal actions): never the engine's ``"q,r"`` keys.

- a hex: on a body (``"Mars"``), a base (``"the NE base of Mars"``), or ``"2 hexes NW of Mercury"`` (measured
  from the nearest body's surface), ``"off the map"`` beyond the elimination margin;
- a velocity: ``"stopped"``, ``"speed 2 NE"``, ``"speed 3 (2 E + 1 NE)"``;
- a direction: the help's compass names (E, NE, NW, W, SW, SE), the ones the burn arrows and keys 1-6 carry.

Owns: the wording of map facts. Reads the static map only; must not look at a game state.
"""

from __future__ import annotations

from deltav.core.hexgrid import DIRECTION_NAMES, DIRECTIONS

from .mapdata import GameMap, default_map

Hex = tuple[int, int]


def _dist(a: Hex, b: Hex) -> int:
    q = a[0] - b[0]
    r = a[1] - b[1]
    return max(abs(q), abs(r), abs(q + r))


def split(v: Hex) -> tuple[int, int, int, int] | None:
    """``v`` as ``a`` steps in direction ``i`` plus ``b`` steps in the next direction ``(i + 1) % 6`` (a > 0,
    b >= 0): ``(i, a, j, b)``; None for the zero vector."""
    if v == (0, 0):
        return None
    q, r = v
    for i in range(6):
        j = (i + 1) % 6
        (aq, ar), (bq, br) = DIRECTIONS[i], DIRECTIONS[j]
        det = aq * br - ar * bq
        a = (q * br - r * bq) // det
        b = (aq * r - ar * q) // det
        if a > 0 and b >= 0 and a * aq + b * bq == q and a * ar + b * br == r:
            return (i, a, j, b)
    return None  # unreachable for integer vectors


def heading(v: Hex) -> str:
    """The compass direction of an offset: ``"NE"``, or two names for an offset between two of them that is
    nearer neither (``"E/NE"``)."""
    s = split(v)
    if s is None:
        return ""
    i, a, j, b = s
    if b == 0 or a > b:
        return DIRECTION_NAMES[i]
    if b > a:
        return DIRECTION_NAMES[j]
    lo, hi = sorted((i, j))
    return f"{DIRECTION_NAMES[lo]}/{DIRECTION_NAMES[hi]}"


def velocity_words(v) -> str:
    """``"stopped"``, ``"speed 2 NE"`` (a straight course), ``"speed 3 (2 E + 1 NE)"``."""
    if not v:
        return "stopped"
    v = (int(v[0]), int(v[1]))
    s = split(v)
    if s is None:
        return "stopped"
    i, a, j, b = s
    speed = a + b
    if b == 0:
        return f"speed {speed} {DIRECTION_NAMES[i]}"
    (n1, d1), (n2, d2) = sorted(((i, a), (j, b)))
    return f"speed {speed} ({d1} {DIRECTION_NAMES[n1]} + {d2} {DIRECTION_NAMES[n2]})"


def _nearest_body(gmap: GameMap, h: Hex):
    best = None
    best_d = None
    for name in gmap.body_order:
        b = gmap.bodies[name]
        d = _dist(h, b.center) - b.surface_radius
        if best_d is None or d < best_d:
            best, best_d = b, d
    return best, best_d


def place(h, gmap: GameMap | None = None) -> str:
    """Where hex ``h`` is, in words (see the module docstring)."""
    gmap = gmap or default_map()
    h = (int(h[0]), int(h[1]))
    body = gmap.surface.get(h)
    if body is not None:
        return body
    base = gmap.base.get(h)
    if base is not None:
        b = gmap.bodies.get(base)
        if b is None:  # a station (the clandestine base)
            return f"the {base} base"
        return f"the {heading((h[0] - b.center[0], h[1] - b.center[1]))} base of {base}"
    if gmap.off_map(h):
        return "off the map"
    b, d = _nearest_body(gmap, h)
    if b is None:
        return "open space"
    where = f"{d} {'hex' if d == 1 else 'hexes'} {heading((h[0] - b.center[0], h[1] - b.center[1]))} of {b.name}"
    return where + (" (asteroids)" if h in gmap.asteroids else "")


def place_key(key: str, gmap: GameMap | None = None) -> str:
    """:func:`place` of a ``"q,r"`` key (text that is not a key is returned as it is)."""
    try:
        a, b = str(key).split(",")
        return place((int(a), int(b)), gmap)
    except (ValueError, TypeError):
        return str(key)


def direction_words(d) -> str:
    """A burn direction as the help's key and compass name: ``"2 NE"``."""
    return f"{d + 1} {DIRECTION_NAMES[d % 6]}" if isinstance(d, int) and not isinstance(d, bool) else "?"
