"""Ordnance (design/tactical.md 1.9, 1.12): the ordnance phase (launches, orbital-base emplacement). Launch
legality comes from the pure functions of ``ordnance_tables.py``; the ordnance step of the movement phase (items
moving, detonating, expiring) is ordnance_flight.py's.

Decomposition of the ordnance phase: ``launch(ship, kind, boost_dir, boost)`` or ``emplace_base(ship)`` for one
ship at a time (at most one item per ship), then ``end_ordnance`` (the movement phase follows, movement_phase.py).

An item launched by a ship the enemy has not detected starts undetected (ruling 7, see detection.py), and its
events go to its owner only; with that ruling off the item is public at once, and its ``ordnance_launched``
event then names no launcher (``ship`` null) while the enemy does not see the ship. This module must not touch
gun combat nor move ordnance.
"""

from __future__ import annotations

from deltav.core.errors import IllegalAction

from . import movement_phase
from . import ordnance_tables as ot
from .courses import course_for
from .messages import BaseEmplaced, EmplaceBase, EndOrdnance, Launch, Order, OrdnanceLaunched
from .model import Ordnance, Ship, hkey
from .shiptypes import ship_data, ship_types

_BOOSTS = ot.torpedo_boost_options()


def _order(state, sh):
    return state.orders.get(sh.id) or Order(sh.id)


def _facts(state, sh, mines: bool = True) -> dict:
    """The launch facts of ``ordnance_tables.launch_error`` for one ship (``mines`` False: skip the course
    computation the mine rule needs, and report no burn)."""
    order = _order(state, sh)
    mine_burn = mines and order.burn is not None and (sh.fuel is None or sh.fuel > 0) and sh.disabled == 0
    leaves = False
    if mine_burn:
        c = course_for(state, sh, order)
        leaves = c.destination != sh.pos
    return dict(
        ship_type=sh.type.name, cargo_capacity=sh.type.cargo, cargo_used=sh.cargo_used + sh.passengers,
        allowed_types=state.rules.allowed_ordnance, active=not sh.destroyed, landed=sh.landed,
        resupplied=sh.resupplied, own_control=sh.control == "own", disabled_turns=sh.disabled,
        nukes_since_resupply=sh.nukes, launched_this_phase=sh.id in state.launched, mine_burn=mine_burn,
        mine_leaves_hex=leaves, warship=sh.type.warship, torpedoes=sh.type.torpedoes, policy=sh.type.fires_disabled,
    )


def launch_refusal(state, sh, kind: str) -> tuple[str, str] | None:
    """Why ship ``sh`` may not launch one ``kind`` now, as ``(rule id, reason)``, or None if it may: the refusal
    ``apply`` raises (``ordnance_tables.launch_error`` over the ship's facts)."""
    return ot.launch_error(kind, **_facts(state, sh))


def _could_launch(state, sh) -> bool:
    """Cheap pre-filter: the lightest allowed item fits and the ship is in a state to launch at all."""
    if sh.destroyed or sh.landed or sh.resupplied or sh.control != "own" or sh.id in state.launched:
        return False
    cap = sh.type.cargo
    if cap is not None:
        masses = [ot.ordnance_mass(k) for k in state.rules.allowed_ordnance]
        if not masses or sh.cargo_used + sh.passengers + min(masses) > cap:
            return False
    return True


def can_emplace(state, sh) -> bool:
    if not sh.carrying_base or sh.destroyed or sh.disabled > 0 or sh.control != "own" or sh.resupplied:
        return False
    if sh.id in state.launched:
        return False
    g = state.gmap.gravity.get(sh.pos)
    if sh.landed or g is None:
        return False
    q, r = sh.vel
    return max(abs(q), abs(r), abs(q + r)) == 1


_LAUNCHABLE: dict = {}  # the facts of _facts (in order) -> ot.launchable_types(**facts): a pure function
_LAUNCHES: dict = {}  # (ship, kind) -> its Launch actions (immutable values, shared between states)


def _launchable(facts: dict) -> tuple[str, ...]:
    key = tuple(facts.values())
    got = _LAUNCHABLE.get(key)
    if got is None:
        if len(_LAUNCHABLE) > 50_000:
            _LAUNCHABLE.clear()
        got = _LAUNCHABLE[key] = ot.launchable_types(**facts)
    return got


def _launches(sid: str, kind: str) -> tuple:
    key = (sid, kind)
    got = _LAUNCHES.get(key)
    if got is None:
        if len(_LAUNCHES) > 50_000:
            _LAUNCHES.clear()
        if kind == ot.TORPEDO:
            got = tuple(Launch(sid, kind, d, k) for d, k in _BOOSTS)
        else:
            got = (Launch(sid, kind),)
        _LAUNCHES[key] = got
    return got


def _options(state, sh) -> list:
    out = []
    if _could_launch(state, sh):
        for kind in _launchable(_facts(state, sh)):
            out.extend(_launches(sh.id, kind))
    if can_emplace(state, sh):
        out.append(EmplaceBase(sh.id))
    return out


def phase_available(state) -> bool:
    p = state.active_player
    for sh in state.ships:
        if sh.owner != p:
            continue
        if sh.carrying_base and can_emplace(state, sh):
            return True
        if _could_launch(state, sh):
            if _launchable(_facts(state, sh, mines=False)):
                return True
            if "mine" in state.rules.allowed_ordnance and ot.launch_error("mine", **_facts(state, sh)) is None:
                return True
    return False


def legal(state, player: int) -> list:
    out: list = []
    for sh in state.ships:
        if sh.owner == player:
            out.extend(_options(state, sh))
    out.append(EndOrdnance())
    return out


def apply(state, player: int, action) -> list:
    if isinstance(action, EndOrdnance):
        return movement_phase.run(state)
    if isinstance(action, Launch):
        sh = state.ship(action.ship)
        if sh is None:
            raise IllegalAction("tactical.ordnance.unknown_ship", f"no ship {action.ship!r}")
        if sh.owner != player:
            raise IllegalAction("tactical.ordnance.not_yours", f"ship {action.ship} is not yours")
        ot.check_launch(action.kind, **_facts(state, sh))
        ot.check_boost(action.kind, action.boost_dir, action.boost)
        sd = ship_data()
        oid = f"ord{state.next_ordnance}"
        state.next_ordnance += 1
        vel = ot.launch_velocity(sh.vel, action.boost_dir, action.boost)
        # ruling 7: an item launched by a ship the enemy has not detected starts undetected too
        o = Ordnance(oid, player, action.kind, sh.pos, vel, sd.ordnance_lifetime, sh.id,
                     sh.detected or not state.options["ordnance_detection"])
        state.ordnance = state.ordnance + [o]
        sh.cargo_used = ot.cargo_after_launch(sh.cargo_used, action.kind)
        sh.nukes = ot.nukes_after_launch(sh.nukes, action.kind)
        state.launched = state.launched + (sh.id,)
        to = state.ordnance_audience(o)
        # a public item of a ship the enemy does not see (fog of war with ordnance detection off): the item
        # shows where it is, the event does not name its launcher (issue 32.13)
        launcher = sh.id if to is not None or state.audience(sh) is None else None
        return [OrdnanceLaunched(oid, launcher, action.kind, hkey(sh.pos), vel, to)]
    if isinstance(action, EmplaceBase):
        sh = state.ship(action.ship)
        if sh is None or sh.owner != player:
            raise IllegalAction("tactical.emplace.ship", f"no ship {action.ship!r} of yours")
        if not sh.carrying_base:
            raise IllegalAction("tactical.emplace.no_base", f"ship {action.ship} carries no orbital base")
        if not can_emplace(state, sh):
            raise IllegalAction("tactical.emplace.position",
                                "an orbital base is emplaced from orbit: in a gravity hex at speed 1, by an "
                                "undamaged ship under your control that did not resupply this turn")
        bid = f"p{player}ob{sum(1 for x in state.ships if x.emplaced and x.owner == player)}"
        base = Ship(bid, player, ship_types()["orbitalBase"], sh.pos, sh.vel)
        base.emplaced = True
        base.detected = sh.detected  # seen where its carrier is seen (detection then updates it like any ship)
        state.ships.append(base)
        state._index[bid] = base
        sh.carrying_base = False
        sh.cargo_used = max(0, sh.cargo_used - ship_data().orbital_base_cargo)
        state.launched = state.launched + (sh.id,)
        return [BaseEmplaced(bid, sh.id, hkey(sh.pos), state.audience(sh))]
    raise AssertionError(action)  # the phase table lets only this phase's kinds in (state.PHASES)
