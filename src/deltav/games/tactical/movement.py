"""Vector movement of one ship (design/tactical.md 1.6): the course of a ship for an order, deferred gravity,
weak-gravity choices, orbits, landing, takeoff and crashes. Pure functions over the map and plain values.

Contact ruling (our ruling 2, option ``grazing_is_contact`` = False): a course is traced with the exact line
analysis of ``deltav.core.hexgrid.analyze_line``. Each step of the line is either inside one hex (*definite*) or
exactly on the hexside between two hexes (an *ambiguous pair*, a graze). Only definite hexes are *contact*:
gravity entry, crashes, landings, Grand Tour checkpoints, ordnance contact and the closest-approach hexes used by
combat all use the definite hexes. A graze touches neither hex. The *display path* (``Course.path``, what the
``ship_moved`` event shows) is the reference game's primary line (:func:`primary_line`: the +epsilon nudge added to
both absolute endpoints, as the reference computes it), a connected chain of hexes for drawing; it never decides a
rule. With ``grazing_is_contact`` = True, a graze touches *both* hexes of its pair
for crashes, landings, checkpoints and ordnance (close to the reference, whose +epsilon primary line makes some
grazes of a planet a crash, with floating point deciding which); gravity always uses definite hexes only.

This module must not touch game state: it reads positions and returns a :class:`Course`.
"""

from __future__ import annotations

from functools import lru_cache
from math import floor

from deltav.core.hexgrid import DIRECTIONS, analyze_offset

from .mapdata import GameMap

Hex = tuple[int, int]
ZERO: Hex = (0, 0)
NORMAL, LANDING, CRASH = "normal", "landing", "crash"


def speed(v: Hex) -> int:
    q, r = v
    return max(abs(q), abs(r), abs(q + r))


class Course:
    """The result of moving one ship with one order. ``entered`` lists the gravity hexes entered this move as
    ``(hex, direction, body, weak, ignored)``; ``pending`` the directions that will deflect the *next* move;
    ``ignorable`` the weak-gravity hexes of this course the pilot may choose to ignore."""

    __slots__ = ("start", "destination", "velocity", "_path", "contact", "fuel_spent", "burns", "overloaded",
                 "entered", "pending", "ignorable", "outcome", "body", "crash_hex", "shortcut")

    def __init__(self):
        self.shortcut = False
        self.body = None
        self.crash_hex = None
        self.overloaded = False
        self._path = None

    @property
    def path(self):
        """The display path (:func:`primary_line` from the start to the destination, unless set), computed
        when first read: no rule reads it, and most courses (the bots' searches) are never displayed."""
        p = self._path
        if p is None:
            p = self._path = primary_line(self.start, self.destination)
        return p

    @path.setter
    def path(self, value) -> None:
        self._path = value

    def to_json(self) -> dict:
        return {
            "start": list(self.start),
            "destination": list(self.destination),
            "velocity": list(self.velocity),
            "path": [list(h) for h in self.path],
            "fuel_spent": self.fuel_spent,
            "gravity_queued": [
                {"hex": list(h), "dir": d, "body": b, "weak": w, "ignored": ig} for h, d, b, w, ig in self.entered
            ],
            "outcome": self.outcome,
            "body": self.body,
            "crash_hex": list(self.crash_hex) if self.crash_hex else None,
        }


def detect_orbit(gmap: GameMap, pos: Hex, vel: Hex, pending: tuple[int, ...], destroyed_bases) -> str | None:
    """The body a ship is orbiting (speed exactly 1, in that body's gravity, and its drift stays in that body's
    gravity ring or on one of its intact bases), or None. Orbit is not a state: it is recomputed."""
    if speed(vel) != 1:
        return None
    g = gmap.gravity.get(pos)
    if g is None:
        return None
    body = g[1]
    q = pos[0] + vel[0]
    r = pos[1] + vel[1]
    for d in pending:
        dq, dr = DIRECTIONS[d]
        q += dq
        r += dr
    drift = (q, r)
    if drift in gmap.gravity_hexes_of[body]:
        return body
    if gmap.base.get(drift) == body and drift not in destroyed_bases:
        return body
    return None


def _nearest(hexes, pos: Hex) -> list:
    best: list = []
    best_d = None
    for h in hexes:
        d = max(abs(h[0] - pos[0]), abs(h[1] - pos[1]), abs(h[0] + h[1] - pos[0] - pos[1]))
        if best_d is None or d < best_d:
            best, best_d = [h], d
        elif d == best_d:
            best.append(h)
    return best


def closest_base(gmap: GameMap, body: str, pos: Hex, destroyed_bases, aim: Hex | None = None,
                 friendly=(), reference: bool = False) -> Hex | None:
    """The intact base of ``body`` nearest to ``pos``. Bases equally near (ruling 8, option ``landing_tie``):
    the one nearest to ``aim`` (where the ship's burn points: its destination after the burn, before gravity),
    then one in ``friendly`` (its side's bases), then the first in the map's base order; ``reference``: the
    first in the reference game's hex order (``GameMap.reference_bases_of``: Mercury (0,3) before (2,3),
    Venus (-5,5) before (-5,7)), as the reference lands."""
    order = gmap.reference_bases_of if reference else gmap.bases_of
    near = _nearest([h for h in order.get(body, ()) if h not in destroyed_bases], pos)
    if len(near) > 1 and not reference:
        if aim is not None:
            near = _nearest(near, aim)
        if len(near) > 1 and friendly:
            near = [h for h in near if h in friendly] or near
    return near[0] if near else None


def landing_shortcut(gmap: GameMap, pos: Hex, vel: Hex, pending: tuple[int, ...], post: Hex, destroyed_bases,
                     orbit_now: str | None | bool = False, friendly=(), reference: bool = False,
                     ) -> tuple[Hex, str] | None:
    """Step 4 of 1.6: where an explicit one-burn landing puts the ship, as ``(base hex, body)``, or None.

    If the ship orbits a body now, or would orbit one as a fresh ship at ``post`` (its destination after the
    burn, before gravity) with the post-burn velocity, it lands on that body's intact base nearest to its
    current hex (ties: :func:`closest_base`, aimed at ``post``, then ``friendly``; ``reference``: the
    reference's hex order). Else, sitting on an intact base of the body whose gravity it is in with a
    post-burn velocity of zero, it lands in place. ``orbit_now`` may pass a precomputed
    :func:`detect_orbit` (False: compute it)."""
    body = detect_orbit(gmap, pos, vel, pending, destroyed_bases) if orbit_now is False else orbit_now
    if body is None:
        body = detect_orbit(gmap, post, (post[0] - pos[0], post[1] - pos[1]), (), destroyed_bases)
    if body is not None:
        target = closest_base(gmap, body, pos, destroyed_bases, post, friendly, reference)
        return None if target is None else (target, body)
    g = gmap.gravity.get(pos)
    if g is not None and gmap.base.get(pos) == g[1] and pos not in destroyed_bases and post == pos:
        return (pos, g[1])
    return None


_NUDGE = 1e-6


@lru_cache(maxsize=1 << 16)
def primary_line(a: Hex, b: Hex) -> tuple[Hex, ...]:
    """The reference game's primary line from ``a`` to ``b`` (design note 1.2, "Line drawing"): the cube
    coordinates of *both absolute endpoints* nudged by ``(+eps, +eps, -2 eps)``, lerped as ``a + (b - a) * t`` in
    floating point and cube-rounded (JavaScript rounding). Floating point makes this differ from the same nudge
    applied to the offset ``b - a`` (``hexgrid.line``) on some lines far from the origin, so it is computed
    exactly as the reference does. Display only: no rule reads it."""
    aq, ar = a
    bq, br = b
    n = max(abs(bq - aq), abs(br - ar), abs(bq - aq + br - ar))
    if n == 0:
        return (a,)
    e = _NUDGE
    nq, nr, ns = aq + e, ar + e, (-aq - ar) - 2 * e
    mq, mr, ms = bq + e, br + e, (-bq - br) - 2 * e
    dq, dr, ds = mq - nq, mr - nr, ms - ns
    out = []
    for i in range(n + 1):
        t = i / n
        fq, fr, fs = nq + dq * t, nr + dr * t, ns + ds * t
        q, r, s = floor(fq + 0.5), floor(fr + 0.5), floor(fs + 0.5)
        eq, er, es = abs(q - fq), abs(r - fr), abs(s - fs)
        if eq > er and eq > es:
            q = -r - s
        elif er > es:
            r = -q - s
        out.append((q, r))
    return tuple(out)


def _trace(pos: Hex, dest: Hex, grazing_is_contact: bool) -> tuple[tuple[Hex, ...], list[Hex], list[Hex]]:
    """(display path, definite hexes, contact hexes) of the line pos -> dest, start hex included. Contact is
    the definite hexes; with ``grazing_is_contact`` every hex of every step (both hexes of a graze)."""
    return (primary_line(pos, dest), *_contact(pos, dest, grazing_is_contact))


def _contact(pos: Hex, dest: Hex, grazing_is_contact: bool) -> tuple[list[Hex], list[Hex]]:
    """:func:`_trace` without the display path: (definite hexes, contact hexes)."""
    q0, r0 = pos
    a = analyze_offset(dest[0] - q0, dest[1] - r0)
    definite = [(q0 + dq, r0 + dr) for dq, dr in a.definite]
    if not grazing_is_contact:
        return definite, definite
    contact = [(q0 + dq, r0 + dr) for step in a.steps for dq, dr in step]
    return definite, contact


def compute_course(
    gmap: GameMap,
    pos: Hex,
    vel: Hex,
    fuel: int | None,
    pending: tuple[int, ...],
    landed: bool,
    can_overload: bool,
    burn: int | None,
    overload: int | None = None,
    ignore_weak: tuple[Hex, ...] | frozenset = (),
    land: bool = False,
    destroyed_bases=frozenset(),
    grazing_is_contact: bool = False,
    takeoff_costs_fuel: bool = True,
    friendly_bases=(),
    landing_reference: bool = False,
) -> Course:
    """The course of a ship (position, velocity, fuel with None = unlimited, pending gravity directions) for an
    order. The caller validates the order first; like the reference, a burn without fuel is ignored.
    ``friendly_bases`` and ``landing_reference`` settle an explicit landing between equally near bases
    (:func:`closest_base`, ruling 8)."""
    c = Course()
    c.start = pos
    if landed and burn is None:
        # 0. landed and no burn: stays landed (and is resupplied again at a friendly base)
        c.destination = pos
        c.velocity = ZERO
        c.path = [pos]
        c.contact = [pos]
        c.fuel_spent = 0
        c.burns = 0
        c.entered = ()
        c.pending = ()
        c.ignorable = ()
        c.outcome = LANDING
        c.body = gmap.base.get(pos) or gmap.surface.get(pos)
        return c
    q = pos[0] + vel[0]
    r = pos[1] + vel[1]
    burns = 0
    if burn is not None and (fuel is None or fuel > 0):
        dq, dr = DIRECTIONS[burn]
        q += dq
        r += dr
        burns = 1
        if overload is not None and can_overload and (fuel is None or fuel >= 2):
            dq, dr = DIRECTIONS[overload]
            q += dq
            r += dr
            burns = 2
            c.overloaded = True
    c.burns = burns
    fuel_spent = burns
    if landed and not takeoff_costs_fuel and burns:
        fuel_spent -= 1
    c.fuel_spent = 0 if fuel is None else fuel_spent
    # 4. explicit landing shortcut from orbit (land flag, exactly one burn)
    if land and burns == 1 and not landed:
        hit = landing_shortcut(gmap, pos, vel, pending, (q, r), destroyed_bases, False, friendly_bases,
                               landing_reference)
        if hit is not None:
            target, body = hit
            definite, contact = _contact(pos, target, grazing_is_contact)
            c.destination = target  # the display path is start -> target (Course.path)
            c.velocity = ZERO
            c.contact = contact
            c.entered = ()
            c.pending = ()
            c.ignorable = ()
            c.outcome = LANDING
            c.body = body
            c.shortcut = True
            return c
    # 5. deferred gravity from the hexes entered on the previous move
    for d in pending:
        dq, dr = DIRECTIONS[d]
        q += dq
        r += dr
    dest = (q, r)
    c.destination = dest
    nv = (q - pos[0], r - pos[1])
    c.velocity = nv
    # the line's hexes (_contact, inlined: this runs for every course of every bot search); the display path
    # is start -> dest (Course.path)
    q0, r0 = pos
    a = analyze_offset(q - q0, r - r0)
    definite = [(q0 + dq, r0 + dr) for dq, dr in a.definite]
    contact = definite if not grazing_is_contact else [(q0 + dq, r0 + dr) for step in a.steps for dq, dr in step]
    c.contact = contact
    # 7. gravity entered now (definite hexes after the start), applied on the next move
    entered = []
    ignorable = []
    prev_weak = None
    grav = gmap.gravity
    for h in definite[1:]:
        g = grav.get(h)
        if g is None:
            prev_weak = None
            continue
        d, body, weak = g
        ignored = False
        if weak:
            if prev_weak != body:
                ignorable.append(h)
                ignored = h in ignore_weak
            prev_weak = body
        else:
            prev_weak = None
        entered.append((h, d, body, weak, ignored))
    if entered:
        c.entered = tuple(entered)
        c.pending = tuple([e[1] for e in entered if not e[4]])
        c.ignorable = tuple(ignorable)
    else:  # open space (most courses): nothing entered, nothing ignorable
        c.entered = c.pending = c.ignorable = ()
    # 8. landing
    landed_body = None
    if not landed:
        b = gmap.base.get(dest)
        if b is not None and dest not in destroyed_bases:
            if gmap.body_has_gravity(b):
                g = grav.get(pos)
                in_grav = g is not None and g[1] == b
                if nv == ZERO and burns == 0 and dest == pos:
                    landed_body = b  # (a) stationary on the base
                elif burns == 1 and nv == ZERO and in_grav:
                    landed_body = b  # (b) brake to land
                elif burns == 1 and in_grav and speed(vel) == 1:
                    dq = pos[0] + vel[0]
                    dr = pos[1] + vel[1]
                    for d in pending:
                        ddq, ddr = DIRECTIONS[d]
                        dq += ddq
                        dr += ddr
                    drift = (dq, dr)
                    if drift in gmap.gravity_hexes_of[b] or (gmap.base.get(drift) == b and drift not in destroyed_bases):
                        landed_body = b  # (c) one-fuel touch-down from orbit
            elif nv == ZERO:
                landed_body = b
        else:
            s = gmap.surface.get(dest)
            if s is not None and dest not in gmap.destructive and not gmap.body_has_gravity(s) and nv == ZERO:
                landed_body = s
    # 9. crash: a body hex touched before the end, or at the end without a landing (Sol always)
    surface = gmap.surface
    last = len(contact) - 1
    for i in range(1, last + 1):
        h = contact[i]
        if h in surface and (i < last or h in gmap.destructive or landed_body is None):
            c.outcome = CRASH
            c.body = surface[h]
            c.crash_hex = h
            return c
    if landed_body is not None:
        c.outcome = LANDING
        c.body = landed_body
        c.velocity = ZERO
        c.pending = ()
    else:
        c.outcome = NORMAL
    return c


_IGNORABLE: dict = {}


def weak_ignorable(gmap: GameMap, pos: Hex, dest: Hex) -> tuple[Hex, ...]:
    """The weak-gravity hexes a course from ``pos`` to ``dest`` may ignore (the first of each run of
    consecutive weak hexes of one body), as :func:`compute_course` finds them; cached per (pos, dest)."""
    memo = _IGNORABLE.get(gmap)  # per map object (identity-hashed, kept alive by the cache): plain inner keys
    if memo is None or len(memo) > 200_000:
        if len(_IGNORABLE) >= 8:
            _IGNORABLE.clear()
        memo = _IGNORABLE[gmap] = {}
    key = (pos, dest)
    got = memo.get(key)
    if got is not None:
        return got
    a = analyze_offset(dest[0] - pos[0], dest[1] - pos[1])
    q0, r0 = pos
    out = []
    prev_weak = None
    grav = gmap.gravity
    for dq, dr in a.definite[1:]:
        h = (q0 + dq, r0 + dr)
        g = grav.get(h)
        if g is None:
            prev_weak = None
            continue
        if g[2]:
            if prev_weak != g[1]:
                out.append(h)
            prev_weak = g[1]
        else:
            prev_weak = None
    got = memo[key] = tuple(out)
    return got


def drift_destination(pos: Hex, vel: Hex, pending: tuple[int, ...]) -> Hex:
    """Where a ship coasts next move: position + velocity + pending gravity."""
    q = pos[0] + vel[0]
    r = pos[1] + vel[1]
    for d in pending:
        dq, dr = DIRECTIONS[d]
        q += dq
        r += dr
    return (q, r)
