"""Damage allocation of Deep Space Combat: which hit points may go where, what they remove, and the default.

A ship's damageable stats are *slots*: ``0`` thrust, ``1`` evasion, ``2`` endurance, then for weapon ``w``
slot ``3 + 2w`` its targeting and ``4 + 2w`` its damage. Ship stats (slots 0-2) lose one level per ``size`` hit
points, weapon stats one level per hit point. Size is never damaged.

The leftover ruling (2.3.10), option ``leftover_damage``:

- ``"lost"`` (default): the defender must allocate every hit point; hit points placed on a ship stat that do not
  make a whole ``size`` are lost. Allocation steps: a whole number of levels on one slot, or on a ship stat the
  whole remaining amount when it is not a multiple of ``size`` (its whole-size part removes levels, the rest is
  lost).
- ``"partial"``: each ship stat keeps a counter of hit points below ``size``; a level is lost each time it
  reaches ``size``. Steps: any amount a slot can still absorb.

Hit points beyond everything the ship has left are absorbed (the ship is at zero everywhere).

Default allocation (bots, timeouts, the ``auto_allocate`` action): repeatedly remove one level from the slot
holding the most design points (level x cost; ties go to the lower slot), among slots whose next level the
remaining hit points can pay for; when nothing can be paid for, the remainder goes on the first ship stat
above zero (lost, or kept as partial damage). This keeps a design's proportions and wastes what it can.

This module owns allocation arithmetic only: it works on plain lists of levels, not on ships or states.
"""

from __future__ import annotations

SHIP_SLOTS = 3
STAT_NAMES = ("thrust", "evasion", "endurance")


def slot_cost(slot: int, size: int) -> int:
    return size if slot < SHIP_SLOTS else 1


def slot_of(stat: str, weapon: int | None) -> int | None:
    """The slot of a stat name (``thrust``.. or ``targeting``/``damage`` with a weapon index); None if bad."""
    if weapon is None:
        return STAT_NAMES.index(stat) if stat in STAT_NAMES else None
    if stat == "targeting":
        return SHIP_SLOTS + 2 * weapon
    if stat == "damage":
        return SHIP_SLOTS + 2 * weapon + 1
    return None


def slot_name(slot: int) -> tuple[str, int | None]:
    if slot < SHIP_SLOTS:
        return STAT_NAMES[slot], None
    w, k = divmod(slot - SHIP_SLOTS, 2)
    return ("targeting" if k == 0 else "damage"), w


def options(size: int, levels, partial, remaining: int, mode: str = "lost") -> list[tuple[int, int]]:
    """Every legal allocation step ``(slot, hp)`` for ``remaining`` hit points."""
    out: list[tuple[int, int]] = []
    if remaining <= 0:
        return out
    for k, lvl in enumerate(levels):
        if lvl <= 0:
            continue
        if k >= SHIP_SLOTS:
            for hp in range(1, min(lvl, remaining) + 1):
                out.append((k, hp))
        elif mode == "partial":
            cap = lvl * size - partial[k]
            for hp in range(1, min(cap, remaining) + 1):
                out.append((k, hp))
        else:
            whole = min(lvl, remaining // size)
            for j in range(1, whole + 1):
                out.append((k, j * size))
            if remaining % size and remaining // size <= lvl:
                out.append((k, remaining))
    return out


def is_legal(size: int, levels, partial, remaining: int, slot: int, hp: int, mode: str = "lost") -> bool:
    if not 0 <= slot < len(levels) or hp < 1 or hp > remaining:
        return False
    lvl = levels[slot]
    if lvl <= 0:
        return False
    if slot >= SHIP_SLOTS:
        return hp <= lvl
    if mode == "partial":
        return hp <= lvl * size - partial[slot]
    if hp % size == 0:
        return hp // size <= lvl
    return hp == remaining and remaining // size <= lvl


def apply(size: int, levels: list[int], partial: list[int], slot: int, hp: int, mode: str = "lost") -> int:
    """Apply a legal step in place; returns the levels the slot lost."""
    if slot >= SHIP_SLOTS:
        levels[slot] -= hp
        return hp
    if mode == "partial":
        total = partial[slot] + hp
        lost = min(levels[slot], total // size)
        partial[slot] = total % size if lost < levels[slot] else 0
    else:
        lost = min(levels[slot], hp // size)
    levels[slot] -= lost
    return lost


def default_step(size: int, levels, partial, remaining: int, mode: str = "lost") -> tuple[int, int] | None:
    """The next step of the documented default allocation (always legal), or None when nothing is left to
    allocate (no hit points, or no level left anywhere)."""
    if remaining <= 0:
        return None
    best = -1
    best_value = -1
    best_need = 0
    first_ship = -1
    for k, lvl in enumerate(levels):
        if lvl <= 0:
            continue
        if k < SHIP_SLOTS:
            if first_ship < 0:
                first_ship = k
            need = size - partial[k] if mode == "partial" else size
            v = lvl * size
        else:
            need = 1
            v = lvl
        if need <= remaining and v > best_value:
            best_value = v
            best = k
            best_need = need
    if best >= 0:
        return (best, best_need)
    if first_ship >= 0:
        return (first_ship, remaining)
    return None


def default_plan(size: int, levels, partial, remaining: int, mode: str = "lost") -> list[tuple[int, int]]:
    """The documented default allocation as the list of legal steps ``(slot, hp)`` it takes, in order."""
    lv = list(levels)
    pa = list(partial)
    out = []
    r = remaining
    while True:
        step = default_step(size, lv, pa, r, mode)
        if step is None:
            return out
        apply(size, lv, pa, step[0], step[1], mode)
        r -= step[1]
        out.append(step)


def absorbs_nothing(levels) -> bool:
    """True when no slot has a level left (the ship is destroyed; further hit points are absorbed)."""
    return max(levels, default=0) <= 0
