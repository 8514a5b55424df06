"""Course preview for clients and bots: what an order would do to one ship, computed on the side, never changing
the state (design/tactical.md 1.6; the reference's course preview and "ghosted drift hex").

This module reads a state and returns a :class:`CoursePreview`; it must not mutate anything.
"""

from __future__ import annotations

from dataclasses import dataclass

from .astrogation_phase import check_order
from .courses import auto_landing, course_for
from .messages import Order
from .model import hkey
from .movement import CRASH, LANDING, detect_orbit
from .movement_phase import escape_candidate

Hex = tuple[int, int]


@dataclass(frozen=True)
class CoursePreview:
    ship: str
    path: tuple[Hex, ...]  # the display line (reference primary line), start included
    contact: tuple[Hex, ...]  # the hexes the course touches under our grazing ruling
    destination: Hex
    velocity: Hex
    fuel_spent: int
    fuel_after: int | None
    gravity_queued: tuple[tuple[Hex, int, str, bool, bool], ...]  # (hex, dir, body, weak, ignored)
    ignorable_weak: tuple[Hex, ...]
    outcome: str  # "normal", "landing" or "crash"
    body: str | None  # landed on / crashed into
    crash_hex: Hex | None
    off_map: bool
    escapes: bool
    orbit_after: str | None  # the body the ship would then be orbiting

    # ``crashes`` (a crash, or off the map without escaping) and ``lands`` (the outcome is a landing): plain
    # attributes set with the fields, not fields (bots read them for every course of every decision)
    def __post_init__(self) -> None:
        d = self.__dict__
        d["crashes"] = self.outcome == CRASH or (self.off_map and not self.escapes)
        d["lands"] = self.outcome == LANDING

    def to_json(self) -> dict:
        return {
            "ship": self.ship,
            "path": [hkey(h) for h in self.path],
            "contact": [hkey(h) for h in self.contact],
            "destination": hkey(self.destination),
            "velocity": list(self.velocity),
            "fuel_spent": self.fuel_spent,
            "fuel_after": self.fuel_after,
            "gravity_queued": [
                {"hex": hkey(h), "dir": d, "body": b, "weak": w, "ignored": ig} for h, d, b, w, ig in self.gravity_queued
            ],
            "ignorable_weak": [hkey(h) for h in self.ignorable_weak],
            "outcome": self.outcome,
            "body": self.body,
            "crash_hex": hkey(self.crash_hex) if self.crash_hex else None,
            "off_map": self.off_map,
            "escapes": self.escapes,
            "orbit_after": self.orbit_after,
        }


_FIELDS = tuple(CoursePreview.__dataclass_fields__)


def _preview(*values) -> CoursePreview:
    """``CoursePreview(*values)`` without the frozen dataclass's ``__init__`` (one ``object.__setattr__`` per
    field): the same fields and attributes, for the bots' previews of every order."""
    pv = object.__new__(CoursePreview)
    d = dict(zip(_FIELDS, values))
    outcome = d["outcome"]
    d["crashes"] = outcome == CRASH or (d["off_map"] and not d["escapes"])
    d["lands"] = outcome == LANDING
    object.__setattr__(pv, "__dict__", d)
    return pv


def preview_course(state, ship_id: str, order: Order | None = None) -> CoursePreview:
    """The course ``order`` (default: coast) would give ship ``ship_id`` now. The order is validated like a real
    one (IllegalAction naming the rule), except that it may be previewed in any phase and for a ship that already
    has an order. Automatic landings (target orbit, Grand Tour return) are applied as in the movement phase."""
    if order is None:
        order = Order(ship_id)
    elif order.ship != ship_id:
        order = Order(ship_id, order.burn, order.overload, order.land, order.weak)
    sh = state.ship(ship_id)
    if sh is None:
        from deltav.core.errors import IllegalAction

        raise IllegalAction("tactical.order.unknown_ship", f"no ship {ship_id!r}")
    check_order(state, sh.owner, order, preview=True)
    if sh.disabled > 0 or sh.control == "captured":
        order = Order(ship_id, None, None, False, order.weak)
    c = course_for(state, sh, order)
    fuel_after = None if sh.fuel is None else sh.fuel - c.fuel_spent
    gmap = state.gmap
    escapes = (c.outcome not in (CRASH, LANDING) and state.options["escape_is_winnable"]
               and escape_candidate(state, sh) and c.destination[1] < gmap.bounds[2])
    off = c.outcome != CRASH and gmap.off_map(c.destination)
    orbit = None
    if c.outcome not in (CRASH, LANDING):
        orbit = detect_orbit(gmap, c.destination, c.velocity, c.pending, state.destroyed_bases)
    return CoursePreview(
        ship_id, tuple(c.path), tuple(c.contact), c.destination, c.velocity, c.fuel_spent, fuel_after,
        tuple(c.entered), tuple(c.ignorable), c.outcome, c.body, c.crash_hex, off, escapes, orbit,
    )


def preview_courses(state, ship_id: str, orders, legal: bool = False) -> list[CoursePreview]:
    """``[preview_course(state, ship_id, o) for o in orders]``, with what depends only on the ship (its lookup,
    the automatic landings, whether it may escape) worked out once: a bot previews every legal order of a ship.
    With ``legal`` the caller vouches that every order is one of the ship's legal actions in this position (a
    bot's decision: ``Decision.legal_actions``), so they are not validated again (a landing order's check alone
    works out its course once more); without it each is checked as :func:`preview_course` does.

    The overloads ``(b, o)`` and ``(o, b)`` of a valid order fly the very same course (the two burns add up, two
    fuel, same weak-gravity choices), so they share one preview object (previews are immutable)."""
    sh = state.ship(ship_id)
    if sh is None:
        from deltav.core.errors import IllegalAction

        raise IllegalAction("tactical.order.unknown_ship", f"no ship {ship_id!r}")
    auto = auto_landing(state, sh)
    drifts = sh.disabled > 0 or sh.control == "captured"
    gmap = state.gmap
    may_escape = state.options["escape_is_winnable"] and escape_candidate(state, sh)
    north = gmap.bounds[2]
    dbases = state.destroyed_bases
    out = []
    shared: dict = {}
    for order in orders:
        if order.ship != ship_id:
            order = Order(ship_id, order.burn, order.overload, order.land, order.weak)
        if not legal:
            check_order(state, sh.owner, order, preview=True)
        if drifts:
            order = Order(ship_id, None, None, False, order.weak)
        b, o = order.burn, order.overload
        key = None
        if b is not None and o is not None:
            # a valid overload (checked above: the hull may overload now, with 2 fuel, and does not land)
            key = (b, o, order.land, order.weak) if b <= o else (o, b, order.land, order.weak)
            pv = shared.get(key)
            if pv is not None:
                out.append(pv)
                continue
        c = course_for(state, sh, order, auto)
        fuel_after = None if sh.fuel is None else sh.fuel - c.fuel_spent
        flying = c.outcome not in (CRASH, LANDING)
        escapes = flying and may_escape and c.destination[1] < north
        off = c.outcome != CRASH and gmap.off_map(c.destination)
        orbit = detect_orbit(gmap, c.destination, c.velocity, c.pending, dbases) if flying else None
        pv = _preview(
            ship_id, tuple(c.path), tuple(c.contact), c.destination, c.velocity, c.fuel_spent, fuel_after,
            tuple(c.entered), tuple(c.ignorable), c.outcome, c.body, c.crash_hex, off, escapes, orbit,
        )
        if key is not None:
            shared[key] = pv
        out.append(pv)
    return out
