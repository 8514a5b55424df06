"""Cached action objects that the phases offer as choices: velocities (deployment, plotting; also the bots'
candidate moves) and allocation steps. Search builds these lists constantly, so equal actions are shared
(actions are frozen). This module owns the building of those lists only: no rules, no state.
"""

from __future__ import annotations

from deltav.games.deepspace import damage as dmg
from deltav.games.deepspace.messages import Allocate, AutoAllocate, Done, SetVelocity, VelocityColumn
from deltav.games.deepspace.movement import velocities_within

DONE = Done()
_VEL_CACHE: dict = {}
_VEL_OBJ: dict = {}
_ALLOC_ROWS: dict = {}
_ALLOC_ONE: dict = {}
_AUTO: dict = {}


def velocity_column_actions(ship: str, v0: tuple[int, int], thrust: int) -> list[VelocityColumn]:
    return [VelocityColumn(ship, q) for q in range(v0[0] - thrust, v0[0] + thrust + 1)]


def velocity_row_actions(ship: str, v0: tuple[int, int], thrust: int, q: int) -> list[SetVelocity]:
    """The velocities of column ``q`` within ``thrust`` of ``v0``."""
    dq = q - v0[0]
    lo = max(-thrust, -dq - thrust)
    hi = min(thrust, -dq + thrust)
    return [SetVelocity(ship, q, v0[1] + dr) for dr in range(lo, hi + 1)]


def velocity_actions(ship: str, v0: tuple[int, int], thrust: int) -> tuple[SetVelocity, ...]:
    """Every velocity within ``thrust`` of ``v0``, as ``set_velocity`` actions of ``ship``."""
    key = (ship, v0, thrust)
    acts = _VEL_CACHE.get(key)
    if acts is None:
        if len(_VEL_CACHE) > 20000:
            _VEL_CACHE.clear()
        objs = _VEL_OBJ.get(ship)
        if objs is None or len(objs) > 50000:
            objs = _VEL_OBJ[ship] = {}
        out = []
        for v in velocities_within(v0, thrust):
            a = objs.get(v)
            if a is None:
                a = objs[v] = SetVelocity(ship, v[0], v[1])
            out.append(a)
        acts = _VEL_CACHE[key] = tuple(out)
    return acts


def alloc_row(sid: str, slot: int, m: int) -> list:
    """Allocate actions for hp 1..m on one slot."""
    key = (sid, slot)
    row = _ALLOC_ROWS.get(key)
    if row is None or len(row) < m:
        if len(_ALLOC_ROWS) > 20000:
            _ALLOC_ROWS.clear()
        stat, w = dmg.slot_name(slot)
        row = [Allocate(sid, stat, w, hp) for hp in range(1, max(m, 2 * len(row or ())) + 1)]
        _ALLOC_ROWS[key] = row
    return row[:m]


def alloc_one(sid: str, slot: int, hp: int) -> Allocate:
    key = (sid, slot, hp)
    a = _ALLOC_ONE.get(key)
    if a is None:
        if len(_ALLOC_ONE) > 50000:
            _ALLOC_ONE.clear()
        stat, w = dmg.slot_name(slot)
        a = _ALLOC_ONE[key] = Allocate(sid, stat, w, hp)
    return a


def auto(sid: str) -> AutoAllocate:
    a = _AUTO.get(sid)
    if a is None:
        a = _AUTO[sid] = AutoAllocate(sid)
    return a
