"""The allocation phase (rules section on damage): every side whose ships took hit points allocates them at
once, per damaged ship, step by step (or ``auto_allocate``), as the pure rules of ``damage`` allow; then ships
with no level left are destroyed. After weapons fire it leads to self-destruct declarations (if the option is
on), after explosions to the end of the round.

This module owns the hit-point bookkeeping (``hurt``) and the allocation steps; it must not roll dice.
"""

from __future__ import annotations

from deltav.core.errors import IllegalAction
from deltav.core.jsonin import shown
from deltav.games.deepspace import damage as dmg
from deltav.games.deepspace import flow
from deltav.games.deepspace.choices import alloc_one, alloc_row, auto
from deltav.games.deepspace.messages import Allocate, Allocated, AutoAllocate, StatLost


def legal(state, p: int) -> list:
    s = state.ships[state.order[p][state.cur[p]]]
    mode = state.opts["leftover_damage"]
    r = s.pending
    size = s.size
    lv = s.lv
    sid = s.id
    out: list = [auto(sid)]
    for k in range(3):
        lvl = lv[k]
        if lvl <= 0:
            continue
        if mode == "partial":
            out += alloc_row(sid, k, min(lvl * size - s.partial[k], r))
        else:
            for j in range(1, min(lvl, r // size) + 1):
                out.append(alloc_one(sid, k, j * size))
            if r % size and r // size <= lvl:
                out.append(alloc_one(sid, k, r))
    for k in range(3, len(lv)):
        lvl = lv[k]
        if lvl > 0:
            out += alloc_row(sid, k, lvl if lvl < r else r)
    return out


#: the kinds of action an allocation takes (the phase table refuses the others with :func:`order_error`)
KINDS = (AutoAllocate, Allocate)


def order_error(state, p: int, a=None) -> IllegalAction:
    """The refusal of an action of another kind than an allocation (``deepspace.damage.order``)."""
    s = state.ships[state.order[p][state.cur[p]]]
    return IllegalAction("deepspace.damage.order", f"allocate the hit points of ship {s.id}")


def apply(state, p: int, a) -> list:
    si = state.order[p][state.cur[p]]
    s = state.ships[si]
    mode = state.opts["leftover_damage"]
    ev: list = []
    if isinstance(a, AutoAllocate):
        if a.ship != s.id:
            raise IllegalAction("deepspace.damage.order", f"allocate the hit points of ship {s.id} next")
        totals: dict[int, list[int]] = {}  # slot -> [hp, levels], in the order first touched
        while True:
            step = dmg.default_step(s.size, s.lv, s.partial, s.pending, mode)
            if step is None:
                break
            k, hp = step
            lost = dmg.apply(s.size, s.lv, s.partial, k, hp, mode)
            s.pending -= hp
            acc = totals.setdefault(k, [0, 0])
            acc[0] += hp
            acc[1] += lost
        for k, (hp, lost) in totals.items():
            stat, w = dmg.slot_name(k)
            ev.append(StatLost(s.id, stat, w, hp, lost, (p,)))
        s.pending = 0
    else:  # an Allocate: the phase table lets only this phase's kinds in
        if a.ship != s.id:
            raise IllegalAction("deepspace.damage.order", f"allocate the hit points of ship {s.id} next")
        k = dmg.slot_of(a.stat, a.weapon)
        if k is None or k >= len(s.lv) or (a.weapon is not None and a.weapon < 0):
            raise IllegalAction("deepspace.damage.stat", f"{s.id} has no stat {shown(a.stat)} (weapon {shown(a.weapon)})")
        if not dmg.is_legal(s.size, s.lv, s.partial, s.pending, k, a.hp, mode):
            raise IllegalAction(*_refusal(s, k, a, mode))
        lost = dmg.apply(s.size, s.lv, s.partial, k, a.hp, mode)
        s.pending -= a.hp
        if s.dead():
            s.pending = 0
        ev.append(StatLost(s.id, a.stat, a.weapon, a.hp, lost, (p,)))
    if s.pending == 0:
        state.cur[p] += 1
        if state.cur[p] >= len(state.order[p]):
            state.waiting[p] = False
            ev.append(Allocated(p))
            if not any(state.waiting):
                ev += flow.after_allocation(state)
    return ev


def _refusal(s, k: int, a: Allocate, mode: str) -> tuple[str, str]:
    """The rule id and sentence for an allocation step that :func:`damage.is_legal` refused."""
    where = f"{a.stat} of {s.id}" if a.weapon is None else f"{a.stat} of weapon {a.weapon} of {s.id}"
    if a.hp < 1 or a.hp > s.pending:
        return "deepspace.damage.amount", f"allocate between 1 and the {s.pending} pending hit points, not {shown(a.hp)}"
    lvl = s.lv[k]
    if lvl <= 0:
        return "deepspace.damage.empty_stat", f"{where} has no level left to lose"
    if k >= dmg.SHIP_SLOTS:
        return (
            "deepspace.damage.weapon_level",
            f"a weapon stat loses one level per hit point: {where} has {lvl} levels, so at most {lvl} hit points",
        )
    if mode == "partial":
        room = lvl * s.size - s.partial[k]
        return "deepspace.damage.stat_level", f"{where} can absorb at most {room} more hit points"
    if a.hp % s.size == 0:
        return (
            "deepspace.damage.stat_level",
            f"{a.hp} hit points would remove {a.hp // s.size} levels; {where} has {lvl}",
        )
    return (
        "deepspace.damage.size_multiple",
        f"a ship stat loses one level per {s.size} hit points (the ship's size): put a multiple of {s.size} on "
        f"{where}, or all {s.pending} remaining hit points (the part below {s.size} is lost)",
    )
