"""The course a ship's order gives in a position (design/tactical.md 1.5-1.7): which ships take orders, the
automatic landings (orbiting your target body; the Grand Tour's return home), the order as the movement rules
apply it, and the course ``movement.compute_course`` works out from the ship's state.

Shared by the astrogation phase (order options and checks), the ordnance phase (a mine needs the course), the
movement phase (resolving the plotted courses) and the bots' previews. This module only reads the state.
"""

from __future__ import annotations

from .messages import Order
from .model import hparse
from .movement import Course, compute_course, detect_orbit

_NULL_ORDERS: dict[str, Order] = {}


def null_order(sid: str) -> Order:
    """The coasting order of a ship (shared values)."""
    o = _NULL_ORDERS.get(sid)
    if o is None:
        o = _NULL_ORDERS[sid] = Order(sid)
    return o


def orderable(sh) -> bool:
    """Does this ship take orders (not destroyed, not an emplaced or immobile base)?"""
    return not sh.destroyed and not sh.emplaced and not sh.type.immobile


def auto_landing(state, sh) -> tuple[bool, bool]:
    """The automatic landings, as ``(force_land, synthesize_burn)``: orbiting your target body forces
    ``land`` (any one-fuel burn lands); on the Grand Tour's return leg, orbiting home with every checkpoint
    visited, a coasting ship is given a burn (direction 0, one fuel) and lands."""
    if sh.landed:
        return False, False
    pl = state.players[sh.owner]
    cps = state.rules.checkpoints
    if not pl.target and not (cps and pl.home):
        return False, False
    body = detect_orbit(state.gmap, sh.pos, sh.vel, sh.pending, state.destroyed_bases)
    if body is None:
        return False, False
    if body == pl.target:
        return True, False
    if (cps and body == pl.home and set(cps) <= set(pl.visited) and (sh.fuel is None or sh.fuel >= 1)
            and sh.disabled == 0 and sh.control != "captured"):
        return True, True
    return False, False


def effective_order(state, sh, burn, overload, land, auto=None) -> tuple:
    """``(burn, overload, land)`` as the movement rules apply them (the automatic landings; ``auto``: a
    precomputed :func:`auto_landing`)."""
    force, synth = auto_landing(state, sh) if auto is None else auto
    if force:
        land = True
        if synth and burn is None:
            burn, overload = 0, None
    return burn, overload, land


def course_for(state, sh, order: Order, auto=None) -> Course:
    """The course ``order`` gives ship ``sh`` in this position."""
    burn, overload, land = effective_order(state, sh, order.burn, order.overload, order.land, auto)
    weak = tuple(hparse(k) for k in order.weak) if order.weak else ()
    options = state.options
    return compute_course(
        state.gmap, sh.pos, sh.vel, sh.fuel, sh.pending, sh.landed, sh.type.can_overload and not sh.overload_used,
        burn, overload, weak, land, state.destroyed_bases,
        options["grazing_is_contact"], options["takeoff_costs_fuel"],
        state.players[sh.owner].bases if land else (), options.get("landing_tie") == "reference",
    )
