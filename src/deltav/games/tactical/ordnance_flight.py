"""The ordnance step of the movement phase (design/tactical.md 1.9, 1.4 step 3g): ships that walked into
ordnance this phase set it off, then the active player's ordnance moves (drift and gravity), detonating on what
it meets (mines and torpedoes on ships and ordnance, nukes on everything in the hex, bases and asteroids too),
hitting a body or expiring. Every die is rolled with ``state.rng``.

Contact follows our grazing ruling (movement.py): ordnance paths and ship paths touch their *definite* hexes
(with ``grazing_is_contact``, both hexes of a graze). Events about an undetected item go to its owner only
(ruling 7). The launches are ordnance.py's; this module must not touch gun combat nor move a ship.
"""

from __future__ import annotations

from deltav.core.hexgrid import analyze_offset

from . import combat as cb
from .flow import destroy
from .messages import DamageRoll, OrdnanceDetonated, OrdnanceMoved, OrdnanceRemoved, ShipDestroyed
from .model import Ordnance, hkey
from .movement import _trace, drift_destination
from .shiptypes import ship_data


def _in_hex(sh, h) -> bool:
    """A ship is in a hex this phase if its move entered it, or it did not move and sits there."""
    path = sh.path
    if len(path) >= 2:
        return h in path[1:]
    return sh.pos == h


def _hit_ship(state, sh, kind: str, events: list, oid: str) -> bool:
    """Apply one item's effect to a ship; returns True if it did damage."""
    if kind == "nuke":
        destroy(sh, "nuke")
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
        destroy(sh, kind)
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
