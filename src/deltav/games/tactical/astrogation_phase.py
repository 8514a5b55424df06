"""The astrogation phase (design/tactical.md 1.4 step 1, 1.5-1.7): the active player gives one ``order`` per ship
(burn, overload, landing from orbit, weak-gravity hexes to ignore), in any order, then ``end_astrogation``; or
``surrender`` (the rules' surrender of every ship under the player's control; with ruling 9's option
``surrender_ends_game`` true, the game then ends and the other side wins). Owns every order's options (cached for
the player-turn, and across positions by a signature) and the checks with their rule ids (``tactical.order.*``,
``tactical.surrender.*``).

``end_astrogation`` goes on to the ordnance phase when a launch or an emplacement is possible, else straight to
the movement phase (movement_phase.py). The courses themselves come from courses.py. This module moves no ship
itself and rolls no die.
"""

from __future__ import annotations

from itertools import combinations

from deltav.core.errors import IllegalAction
from deltav.core.hexgrid import DIRECTIONS
from deltav.core.jsonin import shown

from . import movement_phase, ordnance, victory
from .courses import auto_landing, course_for, orderable
from .flow import ORDNANCE, OVER
from .messages import (
    EndAstrogation,
    GameOver,
    Order,
    OrderGiven,
    PhaseChanged,
    Surrender,
    Surrendered,
    check_form,
)
from .model import hkey
from .movement import detect_orbit, drift_destination, landing_shortcut, weak_ignorable

DIRS = (0, 1, 2, 3, 4, 5)


def legal(state, player: int) -> list:
    # every orderable ship's options and whether surrender is possible, once per player-turn (ships do not
    # change while orders are given; a surrender replaces the cache)
    per = state._opts.get(player)
    if per is None:
        per = _table(state, player)
    out: list = []
    orders = state.orders
    for sid, options in per[0]:
        if sid not in orders:
            out.extend(options)
    out.append(_END_ASTRO)
    if per[1]:
        out.append(_SURRENDER)
    return out


def _table(state, player: int) -> tuple:
    ships = tuple((sh.id, order_options(state, sh)) for sh in state.ships
                  if sh.owner == player and orderable(sh))
    surrender = not state.rules.hidden_identity and any(
        sh.owner == player and not sh.destroyed and sh.control == "own" for sh in state.ships
    )
    per = state._opts[player] = (ships, surrender)
    return per


def apply(state, player: int, action) -> list:
    if isinstance(action, Order):
        check_order(state, player, action)
        state.orders = {**state.orders, action.ship: action}
        return [OrderGiven(player, action.ship, action.burn, action.overload, action.land, action.weak, (player,))]
    if isinstance(action, EndAstrogation):
        return end_astrogation(state)
    if isinstance(action, Surrender):
        if state.rules.hidden_identity:
            raise IllegalAction("tactical.surrender.escape", "no surrender in this scenario")
        mine = [s for s in state.ships if s.owner == player and not s.destroyed and s.control == "own"]
        if not mine:
            raise IllegalAction("tactical.surrender.none", "you have no ship under your control")
        for s in mine:
            s.control = "surrendered"
        state._opts = {}
        events: list = [Surrendered(player)]
        if state.options.get("surrender_ends_game", False):
            # ruling 9's alternative: no ship of the side is left under its control, the other side wins
            state.res = victory.surrender_result(player)
            state.phase = OVER
            events.append(GameOver(state.res.winners, state.res.reason))
        return events
    raise AssertionError(action)  # the phase table lets only this phase's kinds in (state.PHASES)


def end_astrogation(state) -> list:
    """The orders are in: the ordnance phase if a launch or an emplacement is possible, else movement."""
    if ordnance.phase_available(state):
        state.phase = ORDNANCE
        state.launched = ()
        return [PhaseChanged(state.active_player, ORDNANCE)]
    return movement_phase.run(state)


def order_options(state, sh) -> tuple[Order, ...]:
    """Every legal order of one ship (cached for the player-turn: ship states do not change while orders
    are being given; and across states by a signature when no weak-gravity choice is in reach)."""
    cached = state._opts.get(sh.id)
    if cached is not None:
        return cached
    # across states: the options are a pure function of this key (the automatic landing matters only when a
    # weak-gravity choice is in reach)
    kind = 0
    if sh.control != "captured" and sh.disabled == 0 and (sh.fuel is None or sh.fuel >= 1):
        kind = 1
        if sh.type.can_overload and not sh.overload_used and (sh.fuel is None or sh.fuel >= 2):
            kind = 2
    pos, vel = sh.pos, sh.vel
    reach = max(abs(vel[0]), abs(vel[1]), abs(vel[0] + vel[1])) + len(sh.pending) + 2
    weak_near = (not sh.landed or kind > 0) and state.gmap.weak_within(pos, reach)
    key = (sh.id, kind, pos, vel, sh.pending, sh.landed, state.destroyed_bases, state.gmap,
           auto_landing(state, sh) if weak_near else None)
    res = _ORDER_OPTIONS.get(key)
    if res is None:
        res = order_options_uncached(state, sh)
        if len(_ORDER_OPTIONS) > 10_000:
            _ORDER_OPTIONS.clear()
        _ORDER_OPTIONS[key] = res
    state._opts[sh.id] = res
    return res


def order_options_uncached(state, sh) -> tuple[Order, ...]:
    """Every legal order of one ship, worked out afresh (what :func:`order_options` caches)."""
    sid = sh.id
    kind = 0
    if sh.control != "captured" and sh.disabled == 0 and (sh.fuel is None or sh.fuel >= 1):
        kind = 1
        if sh.type.can_overload and not sh.overload_used and (sh.fuel is None or sh.fuel >= 2):
            kind = 2
    pairs = _PAIRS[kind]
    gmap = state.gmap
    pos, vel = sh.pos, sh.vel
    drift = (pos[0] + vel[0], pos[1] + vel[1])
    landed = sh.landed
    land_dirs: tuple = ()
    if kind and not landed:
        orbit_now = detect_orbit(gmap, pos, vel, sh.pending, state.destroyed_bases)
        found = []
        for b in DIRS:
            dq, dr = _DIRV[b]
            post = (drift[0] + dq, drift[1] + dr)
            if orbit_now is None:
                # without an orbit now, the shortcut needs the post-burn hex in gravity at speed 1, or a
                # stop on a base hex (cheap filters before the full check)
                rq = post[0] - pos[0]
                rr = post[1] - pos[1]
                rel = max(abs(rq), abs(rr), abs(rq + rr))
                if not ((rel == 1 and post in gmap.gravity) or (rel == 0 and pos in gmap.base)):
                    continue
            if landing_shortcut(gmap, pos, vel, sh.pending, post, state.destroyed_bases, orbit_now):
                found.append(b)
        land_dirs = tuple(found)
    # weak gravity can only matter if a weak-gravity hex is within reach of this move
    reach = max(abs(vel[0]), abs(vel[1]), abs(vel[0] + vel[1])) + len(sh.pending) + 2
    weak_near = (not landed or kind > 0) and gmap.weak_within(pos, reach)
    if not weak_near:
        key = (sid, kind, land_dirs)
        res = _OPTIONS_CACHE.get(key)
        if res is None:
            out = []
            for b, o in pairs:
                out.append(_order(sid, b, o))
                if o is None and b in land_dirs:
                    out.append(_order(sid, b, None, True))
            res = tuple(out)
            if len(_OPTIONS_CACHE) > 50_000:
                _OPTIONS_CACHE.clear()
            _OPTIONS_CACHE[key] = res
        return res
    force, synth = auto_landing(state, sh)
    base = drift_destination(pos, vel, sh.pending)
    out: list[Order] = []
    for b, o in pairs:
        if landed and b is None:
            ign = ()
        elif force and o is None and (b if b is not None else (0 if synth else None)) in land_dirs:
            ign = ()  # the automatic landing shortcut lands this order
        else:
            dq, dr = _BURNV[(b, o)]
            ign = weak_ignorable(gmap, pos, (base[0] + dq, base[1] + dr))
        if ign:
            keys = sorted(hkey(h) for h in ign)
            for k in range(len(keys) + 1):
                for combo in combinations(keys, k):
                    out.append(Order(sid, b, o, False, combo))
        else:
            out.append(_order(sid, b, o))
        if o is None and b in land_dirs:
            out.append(_order(sid, b, None, True))
    return tuple(out)


def check_order(state, player: int, o: Order, preview: bool = False):
    """Validate an order (raises IllegalAction naming the rule) and return its ship. ``preview``: skip the
    one-order-per-ship check (course previews)."""
    if o.weak:
        check_form(o)  # weak-gravity entries are hex keys (MalformedAction naming the entry)
    sh = state._index.get(o.ship)
    if sh is None:
        raise IllegalAction("tactical.order.unknown_ship", f"no ship {o.ship!r}")
    if sh.owner != player:
        raise IllegalAction("tactical.order.not_yours", f"ship {o.ship} is not yours")
    if not orderable(sh):
        raise IllegalAction("tactical.order.not_orderable", f"ship {o.ship} cannot take orders (destroyed or a base)")
    if o.ship in state.orders and not preview:
        raise IllegalAction("tactical.order.duplicate", f"ship {o.ship} already has an order this turn")
    for name, d in (("burn", o.burn), ("overload", o.overload)):
        if d is not None and not 0 <= d <= 5:
            raise IllegalAction("tactical.order.direction", f"{name} must be a direction 0..5 or null, got {shown(d)}")
    if sh.control == "captured" and (o.burn is not None or o.overload is not None or o.land):
        raise IllegalAction("tactical.order.captured", f"captured ship {o.ship} may only coast")
    if o.burn is not None:
        if sh.disabled > 0:
            raise IllegalAction("tactical.order.disabled", f"ship {o.ship} is disabled and drifts")
        if sh.fuel is not None and sh.fuel < 1:
            raise IllegalAction("tactical.order.fuel", f"ship {o.ship} has no fuel remaining")
    if o.overload is not None:
        if o.burn is None:
            raise IllegalAction("tactical.order.overload_needs_burn", "an overload needs a burn")
        if not sh.type.can_overload:
            raise IllegalAction("tactical.order.overload_warship", f"a {sh.type.name} is not a warship")
        if sh.overload_used:
            raise IllegalAction("tactical.order.overload_used",
                                f"ship {o.ship} already overloaded since its last maintenance")
        if sh.fuel is not None and sh.fuel < 2:
            raise IllegalAction("tactical.order.fuel", f"an overload needs 2 fuel, ship {o.ship} has {sh.fuel}")
    if o.land:
        if o.burn is None or o.overload is not None or sh.landed:
            raise IllegalAction("tactical.order.land", "a landing from orbit is one burn of one fuel")
        if not course_for(state, sh, o).shortcut:
            raise IllegalAction("tactical.order.land",
                                f"ship {o.ship} is not in orbit (nor would be after this burn): it cannot land")
    if o.weak:
        if list(o.weak) != sorted(set(o.weak)):
            raise IllegalAction("tactical.order.weak_gravity", "weak-gravity hexes must be sorted and unique")
        course = course_for(state, sh, Order(o.ship, o.burn, o.overload, o.land))
        allowed = {hkey(h) for h in course.ignorable}
        for k in o.weak:
            if k not in allowed:
                raise IllegalAction(
                    "tactical.order.weak_gravity",
                    f"{k} is not a weak-gravity hex this course may ignore (ignorable: {sorted(allowed)})",
                )
    return sh


_DIRV = DIRECTIONS
_BURNS = tuple((b, None) for b in DIRS)
_OVERLOADS = tuple((b, o) for b in DIRS for o in DIRS)
_KEYS = {}
for _b, _o in ((None, None),) + _BURNS + _OVERLOADS:
    _q = _r = 0
    for _d in (_b, _o):
        if _d is not None:
            _q += DIRECTIONS[_d][0]
            _r += DIRECTIONS[_d][1]
    _KEYS[(_b, _o)] = (_q, _r, _b is not None, _o is not None)
_BURNV = {k: (v[0], v[1]) for k, v in _KEYS.items()}
_ORDER_CACHE: dict[tuple, Order] = {}
_ORDER_OPTIONS: dict[tuple, tuple] = {}  # order_options' signature -> options
_OPTIONS_CACHE: dict[tuple, tuple] = {}
_PAIRS = (((None, None),), ((None, None),) + _BURNS, ((None, None),) + _BURNS + _OVERLOADS)


def _order(sid: str, b, o, land: bool = False) -> Order:
    k = (sid, b, o, land)
    x = _ORDER_CACHE.get(k)
    if x is None:
        if len(_ORDER_CACHE) > 200_000:
            _ORDER_CACHE.clear()
        x = _ORDER_CACHE[k] = Order(sid, b, o, land)
    return x


_END_ASTRO = EndAstrogation()
_SURRENDER = Surrender()
