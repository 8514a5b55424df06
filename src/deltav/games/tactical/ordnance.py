"""Ordnance (design/tactical.md 1.9, 1.12): the ordnance phase (launches, orbital-base emplacement) and the
ordnance step of the movement phase (ships walking into ordnance, then the active player's ordnance moving,
detonating, expiring). Launch legality comes from the pure functions of ``ordnance_tables.py``.

Decomposition of the ordnance phase: ``launch(ship, kind, boost_dir, boost)`` or ``emplace_base(ship)`` for one
ship at a time (at most one item per ship), then ``end_ordnance`` (movement follows).

Contact follows our grazing ruling (movement.py): ordnance paths and ship paths touch their *definite* hexes
(with ``grazing_is_contact``, both hexes of a graze). An item launched by a ship the enemy has not detected starts
undetected (ruling 7, see detection.py), and its events go to its owner only. This module must not touch gun
combat.
"""

from __future__ import annotations

from deltav.core.errors import IllegalAction
from deltav.core.hexgrid import analyze_offset

from . import combat as cb
from . import ordnance_tables as ot
from .messages import (
    BaseEmplaced,
    DamageRoll,
    EmplaceBase,
    EndOrdnance,
    Launch,
    Order,
    OrdnanceDetonated,
    OrdnanceLaunched,
    OrdnanceMoved,
    OrdnanceRemoved,
    ShipDestroyed,
)
from .model import Ordnance, Ship, hkey
from .movement import _trace, drift_destination
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
        c = state.course_for(sh, order)
        leaves = c.destination != sh.pos
    return dict(
        ship_type=sh.type.name, cargo_capacity=sh.type.cargo, cargo_used=sh.cargo_used + sh.passengers,
        allowed_types=state.rules.allowed_ordnance, active=not sh.destroyed, landed=sh.landed,
        resupplied=sh.resupplied, own_control=sh.control == "own", disabled_turns=sh.disabled,
        nukes_since_resupply=sh.nukes, launched_this_phase=sh.id in state.launched, mine_burn=mine_burn,
        mine_leaves_hex=leaves, warship=sh.type.warship, torpedoes=sh.type.torpedoes, policy=sh.type.fires_disabled,
    )


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
    p = state.active
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
        return state.movement_phase()
    if isinstance(action, Launch):
        sh = state.ship(action.ship)
        if sh is None:
            raise IllegalAction("tactical.ordnance.unknown_ship", f"no ship {action.ship!r}")
        if sh.owner != player:
            raise IllegalAction("tactical.ordnance.not_yours", f"ship {action.ship} is not yours")
        ot.check_launch(action.kind, **_facts(state, sh))
        ot.check_boost(action.kind, action.boost_dir, action.boost)
        sd = ship_data()
        oid = f"ord{state.next_ord}"
        state.next_ord += 1
        vel = ot.launch_velocity(sh.vel, action.boost_dir, action.boost)
        # ruling 7: an item launched by a ship the enemy has not detected starts undetected too
        o = Ordnance(oid, player, action.kind, sh.pos, vel, sd.ordnance_lifetime, sh.id,
                     sh.detected or not state.options["ordnance_detection"])
        state.ordnance = state.ordnance + [o]
        sh.cargo_used = ot.cargo_after_launch(sh.cargo_used, action.kind)
        sh.nukes = ot.nukes_after_launch(sh.nukes, action.kind)
        state.launched = state.launched + (sh.id,)
        return [OrdnanceLaunched(oid, sh.id, action.kind, hkey(sh.pos), vel, state.ordnance_audience(o))]
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
    raise IllegalAction("tactical.phase", f"it is the ordnance phase: {action.TYPE} is not allowed now")


# --- the ordnance step of the movement phase ----------------------------------------------------------------


def _in_hex(sh, h) -> bool:
    """A ship is in a hex this phase if its move entered it, or it did not move and sits there."""
    path = sh.path
    if len(path) >= 2:
        return h in path[1:]
    return sh.pos == h


def _hit_ship(state, sh, kind: str, events: list, oid: str) -> bool:
    """Apply one item's effect to a ship; returns True if it did damage."""
    if kind == "nuke":
        state.destroy(sh, "nuke")
        events.append(ShipDestroyed(sh.id, hkey(sh.pos), "nuke", None, state.audience(sh)))
        return True
    die = state.rng.d6()
    res = cb.other_damage(kind, die)
    to = state.audience(sh)
    if res == cb.Damage.NONE:
        events.append(DamageRoll(kind, sh.id, die, 0, None, res.label, sh.disabled, to))
        return False
    turns, elim = cb.apply_damage(sh.disabled, res)
    events.append(DamageRoll(kind, sh.id, die, 0, None, res.label, sh.disabled if elim else turns, to))
    if elim:
        state.destroy(sh, kind)
        events.append(ShipDestroyed(sh.id, hkey(sh.pos), kind, None, to))
    else:
        sh.disabled = turns
    return True


def _detonate(state, o, h, ships, others, events) -> None:
    """Item ``o`` goes off in hex ``h`` against the given ships and other ordnance."""
    o.destroyed = True
    # only ships everyone can see are named (the owners of hidden ones get their private damage events)
    targets = tuple(s.id for s in ships if state.audience(s) is None) + tuple(x.id for x in others)
    events.append(OrdnanceDetonated(o.id, o.kind, hkey(h), tuple(sorted(targets))))
    for x in others:
        x.destroyed = True
    for s in ships:
        if not s.destroyed:
            _hit_ship(state, s, o.kind, events, o.id)


def _nuke_blast(state, o, h, events) -> None:
    ships = [s for s in state.ships if not s.destroyed and (s.pos == h)]
    others = [x for x in state.ordnance if x is not o and not x.destroyed and x.pos == h]
    if h in state.gmap.base and h not in state.destroyed_bases:
        state.destroyed_bases = state.destroyed_bases | {h}
    _detonate(state, o, h, ships, others, events)


def movement_step(state, p: int) -> list:
    events: list = []
    if not state.ordnance:
        return events
    gmap = state.gmap
    lifetime = ship_data().ordnance_lifetime
    # 1. ships that walked into ordnance this phase (their path entered its hex)
    moved = [s for s in state.ships if not s.destroyed and len(s.path) >= 2]
    for o in state.ordnance:
        if o.destroyed:
            continue
        hit = [s for s in moved if not s.destroyed and o.pos in s.path[1:] and (o.kind == "nuke" or not s.landed)]
        if not hit:
            continue
        if o.kind == "nuke":
            _nuke_blast(state, o, o.pos, events)
        elif o.kind == "mine":
            _detonate(state, o, o.pos, hit, [], events)
        else:
            _torpedo(state, o, o.pos, hit, [], events)
    # 2. the active player's ordnance moves
    for o in state.ordnance:
        if o.destroyed or o.owner != p:
            continue
        dest = drift_destination(o.pos, o.vel, o.pending)
        path, definite, contact = _trace(o.pos, dest, state.options["grazing_is_contact"])
        start = o.pos
        o.vel = (dest[0] - start[0], dest[1] - start[1])
        pend = []
        for h in definite[1:]:
            g = gmap.gravity.get(h)
            if g is not None:
                pend.append(g[0])
        o.pending = tuple(pend)
        o.turns -= 1
        moved_at = len(events)
        events.append(OrdnanceMoved(o.id, tuple(hkey(h) for h in path), hkey(dest), o.vel, state.ordnance_audience(o)))
        body_i = next((i for i, h in enumerate(contact) if h in gmap.surface), None)
        if body_i is not None:
            if o.kind == "nuke":
                h = contact[body_i - 1] if body_i > 0 else start
                o.pos = h
                _nuke_blast(state, o, h, events)
            else:
                o.destroyed = True
                o.pos = contact[body_i]
                events.append(OrdnanceRemoved(o.id, "body", state.ordnance_audience(o)))
            events[moved_at] = _moved_to(state, o, path, start, dest)
            continue
        launch_turn = o.turns == lifetime - 1
        for i, h in enumerate(contact):
            o.pos = h
            if h in gmap.asteroids and h not in state.destroyed_asteroids:
                if o.kind == "nuke":
                    state.destroyed_asteroids = state.destroyed_asteroids | {h}
                    _nuke_blast(state, o, h, events)
                else:
                    o.destroyed = True
                    events.append(OrdnanceRemoved(o.id, "asteroid", state.ordnance_audience(o)))
                break
            if h in gmap.base and h not in state.destroyed_bases:
                if o.kind == "nuke":
                    _nuke_blast(state, o, h, events)
                else:
                    o.destroyed = True
                    events.append(OrdnanceRemoved(o.id, "base", state.ordnance_audience(o)))
                break
            ships = [s for s in state.ships if not s.destroyed and _in_hex(s, h)
                     and not (launch_turn and s.id == o.ship)
                     and not (i == 0 and s.owner == o.owner)
                     and (o.kind == "nuke" or not s.landed)]
            others = [x for x in state.ordnance if x is not o and not x.destroyed and x.pos == h
                      and not (i == 0 and x.owner == o.owner)]
            if not ships and not others:
                continue
            if o.kind == "nuke":
                _nuke_blast(state, o, h, events)
            elif o.kind == "mine":
                _detonate(state, o, h, ships, others, events)
            else:
                _torpedo(state, o, h, ships, others, events)
            if o.destroyed:
                break
        if o.destroyed:
            events[moved_at] = _moved_to(state, o, path, start, dest)
            continue
        o.pos = dest
        if o.turns <= 0:
            o.destroyed = True
            events.append(OrdnanceRemoved(o.id, "expired", state.ordnance_audience(o)))
        elif gmap.off_map(dest):
            o.destroyed = True
            events.append(OrdnanceRemoved(o.id, "off_map", state.ordnance_audience(o)))
    state.ordnance = [o for o in state.ordnance if not o.destroyed]
    return events


def _moved_to(state, o, path, start, dest) -> OrdnanceMoved:
    """The ``ordnance_moved`` event of an item that went off (or hit a body) at ``o.pos`` on its way: the display
    path cut at that hex (``destination`` and ``velocity`` stay those of its course). With grazing contact the hex
    may be the off-line hex of a graze: the path then ends with it in place of that step's primary hex."""
    end = o.pos
    if end in path:
        cut = path[:path.index(end) + 1]
    else:
        k = next((i for i, step in enumerate(analyze_offset(dest[0] - start[0], dest[1] - start[1]).steps)
                  if (end[0] - start[0], end[1] - start[1]) in step), len(path) - 1)
        cut = tuple(path[:k]) + (end,)
    return OrdnanceMoved(o.id, tuple(hkey(h) for h in cut), hkey(dest), o.vel, state.ordnance_audience(o))


def _torpedo(state, o, h, ships, others, events) -> None:
    """A torpedo meets candidates: shuffled; ordnance: both destroyed; a ship: roll the torpedo table, the first
    damaging roll ends it; if every ship rolls "-", it keeps flying."""
    cands = list(ships) + list(others)
    state.rng.shuffle(cands)
    for c in cands:
        if isinstance(c, Ordnance):
            if c.destroyed:
                continue
            c.destroyed = True
            o.destroyed = True
            events.append(OrdnanceDetonated(o.id, o.kind, hkey(h), (c.id,)))
            return
        if c.destroyed:
            continue
        if _hit_ship(state, c, "torpedo", events, o.id):
            o.destroyed = True
            events.append(OrdnanceDetonated(o.id, o.kind, hkey(h), (c.id,) if state.audience(c) is None else ()))
            return
