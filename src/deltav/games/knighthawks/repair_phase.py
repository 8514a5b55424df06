"""The repair turn of Knight Hawks (rules 4.1, after every 3 game turns): each side in turn allocates blocks of
its ships' damage control rating to damaged items (``repair``, then ``end_repair``); the rolls are made in
secret once both sides have allocated.

Owns: ``legal(state, p)``, ``apply(state, p, a)`` and the repair rolls on a ``KHState`` record. Must not hold
the repair arithmetic (repair.py does).
"""

from __future__ import annotations

from deltav.core.errors import IllegalAction
from deltav.core.jsonin import shown
from deltav.games.knighthawks import messages as m
from deltav.games.knighthawks import movement_phase
from deltav.games.knighthawks import repair as rep
from deltav.games.knighthawks.ships import ACTIVE, ensure_shadow


def repair_actions(state, player: int) -> list:
    """The ``repair`` allocations ``player`` may make now. The ships do not change during the repair turn (the
    rolls come at its end), so the list is cached for the turn by the allocations made so far (a new list
    each call: callers may extend it)."""
    return list(repair_options(state, player))


def repair_options(state, player: int) -> tuple:
    """``repair_actions`` as the cached tuple itself (read-only: no copy)."""
    key = ("repair", player, tuple(state.allocations))
    got = state._cache.get(key)
    if got is None:
        got = state._cache[key] = _repair_actions(state, player)
    return got


_REPAIRS: dict = {}  # (ship, target, points) -> Repair: actions are immutable values, shared between states


def _repair(sid: str, target: str, points: int) -> m.Repair:
    key = (sid, target, points)
    a = _REPAIRS.get(key)
    if a is None:
        if len(_REPAIRS) > 100_000:
            _REPAIRS.clear()
        a = _REPAIRS[key] = m.Repair(sid, target, points)
    return a


def _repair_actions(state, player: int) -> tuple:
    out = []
    for sh in state.ships:
        if sh.owner != player or sh.status != ACTIVE:
            continue
        mine = [a for a in state.allocations if a[1] == sh.id]
        left = sh.dcr(state.rules.dcr_rounding == "up") - sum(a[3] for a in mine)
        if left <= 0:
            continue
        targets = rep.repair_targets(sh, [a[2] for a in mine])
        if not targets:
            continue
        blocks = rep.block_sizes(left)
        sid = sh.id
        out.extend(_repair(sid, t, p) for t in targets for p in blocks)
    return tuple(out)


def _repair_refusal(state, player: int, a) -> tuple[str, str]:
    sh = state._get(a.ship)
    if sh is None or sh.owner != player or sh.status != ACTIVE:
        return ("knighthawks.repair.ship", f"{a.ship!r} is not one of your ships in play")
    mine = [x for x in state.allocations if x[1] == sh.id]
    left = sh.dcr(state.rules.dcr_rounding == "up") - sum(x[3] for x in mine)
    if left <= 0:
        return ("knighthawks.repair.dcr", f"{sh.id}'s whole DCR is already allocated this repair turn")
    if a.target in sh.unrep:
        return ("knighthawks.repair.unrepairable", f"{a.target!r} cannot be repaired in space (a 99 or 00 was rolled)")
    if a.target not in rep.repair_targets(sh, [x[2] for x in mine]):
        return ("knighthawks.repair.target", f"{sh.id} has nothing to repair as {a.target!r} (or every missing point "
                "already has a block)")
    return ("knighthawks.repair.points", f"{shown(a.points)} is not a block of DCR: a multiple of 10 up to 90, or the rest "
            f"({left}) if below 90")


def end_repair(state, ev: list) -> None:
    if state.repair_player == 0:
        state.repair_player = 1
        ev.append(m.RepairsAllocated(0))
        return
    ev.append(m.RepairsAllocated(1))
    for _p, sid, target, points in state.allocations:
        sh = state.ship(sid)
        roll = state.rng.d100()
        ensure_shadow(sh)  # repair rolls are made in secret
        outcome, restored = rep.resolve(sh, target, points, roll, state.rng)
        ev.append(m.RepairRoll(sid, target, points, roll, outcome, restored, (sh.owner,)))
    state.allocations = []
    movement_phase.begin_side_turn(state, ev)


def legal(state, player: int) -> list:
    """The legal actions of ``player`` (the current one) in the repair turn."""
    return repair_actions(state, player) + [m.EndRepair()]


def apply(state, player: int, a) -> list:
    """Apply one repair-turn action of ``player`` and return its events; an illegal one raises
    ``IllegalAction`` before anything changes."""
    ev: list = []
    t = type(a)
    if t is m.Repair:
        if a not in repair_options(state, player):  # legal(state, player) but its end_repair
            raise IllegalAction(*_repair_refusal(state, player, a))
        state.allocations.append((player, a.ship, a.target, a.points))
    else:  # EndRepair: the phase table lets only this phase's kinds in
        end_repair(state, ev)
    return ev
