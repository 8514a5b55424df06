"""Logistics (design/tactical.md 1.10): transfers of fuel, cargo (ordnance mass) and passengers between two ships
in the same hex with the same velocity, including looting of disabled or surrendered enemy ships.

Decomposition: ``transfer(source, target, kind, amount)`` one at a time (at most ``MAX_TRANSFERS`` per phase,
our bound so that a phase always ends), then ``end_logistics``. The phase is entered only when the scenario
enables logistics and at least one transfer is possible. This module touches fuel, cargo and passengers, and
the ``detected`` flag of a hidden ship whose transfer shows on a ship the opponent sees (fog of war).
"""

from __future__ import annotations

from deltav.core.errors import IllegalAction
from deltav.core.jsonin import shown

from .flow import check_victory, end_player_turn
from .messages import DetectionChanged, EndLogistics, Transfer, Transferred
from .model import hkey
from .shiptypes import ship_data

MAX_TRANSFERS = 8
KINDS = ("fuel", "cargo", "passengers")


def reveal(state, ships) -> list:
    """Detect ships at once (fog of war, ruling 4), with their public ``detection_changed`` events."""
    events = []
    for sh in ships:
        if not sh.detected:
            sh.detected = True
            events.append(DetectionChanged(sh.id, True, hkey(sh.pos), (sh.vel[0], sh.vel[1])))
    return events


def _source_ok(state, s, p) -> bool:
    if s.destroyed or s.landed:
        return False
    if s.owner == p:
        return s.control == "own"
    return s.disabled > 0 or s.control == "surrendered"


def _free(sh) -> int | None:
    if sh.type.cargo is None:
        return None
    return sh.type.cargo - sh.cargo_used - sh.passengers


def limit(state, src, dst, kind: str) -> int:
    """The most of ``kind`` that may move from ``src`` to ``dst`` now (0: none)."""
    if kind == "fuel":
        if src.type.sealed_fuel or dst.type.fuel is None:
            return 0
        room = dst.type.fuel - dst.fuel
        have = room if src.fuel is None else src.fuel
        return max(0, min(have, room))
    free = _free(dst)
    if kind == "cargo":
        have = src.cargo_used - (ship_data().orbital_base_cargo if src.carrying_base else 0)
        if src.type.cargo is None:
            have = 0
    else:
        if not state.rules.passenger_rescue:
            return 0
        have = src.passengers
    if free is None:
        return max(0, have)
    return max(0, min(have, free))


def pairs(state, p: int):
    ships = state.ships
    for src in ships:
        if not _source_ok(state, src, p):
            continue
        for dst in ships:
            if dst is src or dst.owner != p or dst.control != "own" or dst.destroyed:
                continue
            if dst.pos == src.pos and dst.vel == src.vel and not dst.landed:
                yield src, dst


def phase_available(state) -> bool:
    if not state.rules.logistics:
        return False
    p = state.active_player
    return any(limit(state, s, d, k) > 0 for s, d in pairs(state, p) for k in KINDS)


def legal(state, player: int) -> list:
    out: list = []
    if state.transfers < MAX_TRANSFERS:
        for s, d in pairs(state, player):
            for k in KINDS:
                n = limit(state, s, d, k)
                out.extend(Transfer(s.id, d.id, k, a) for a in range(1, n + 1))
    out.append(EndLogistics())
    return out


def apply(state, player: int, action) -> list:
    if isinstance(action, EndLogistics):
        events = check_victory(state)
        if state.res is None:
            events.extend(end_player_turn(state))
        return events
    # a Transfer: the phase table lets only this phase's kinds in (state.PHASES)
    if state.transfers >= MAX_TRANSFERS:
        raise IllegalAction("tactical.logistics.limit", f"at most {MAX_TRANSFERS} transfers per logistics phase")
    src, dst = state.ship(action.source), state.ship(action.target)
    if src is None or dst is None:
        raise IllegalAction("tactical.logistics.unknown_ship", "unknown source or target ship")
    if (src, dst) not in list(pairs(state, player)):
        raise IllegalAction("tactical.logistics.pair",
                            "transfers need a source (yours, or a disabled or surrendered enemy) and a target of "
                            "yours in the same hex on the same course")
    if action.kind not in KINDS:
        raise IllegalAction("tactical.logistics.kind", f"kind must be one of {list(KINDS)}, got {shown(action.kind)}")
    if action.kind == "fuel" and src.type.sealed_fuel:
        raise IllegalAction("tactical.logistics.sealed_fuel",
                            f"a {src.type.name}'s fuel is sealed: it cannot be transferred")
    if action.kind == "fuel" and dst.type.fuel is None:
        raise IllegalAction("tactical.logistics.unlimited_fuel", f"ship {dst.id} has unlimited fuel")
    if action.kind == "passengers" and not state.rules.passenger_rescue:
        raise IllegalAction("tactical.logistics.no_passenger_rescue", "this scenario has no passenger transfers")
    n = limit(state, src, dst, action.kind)
    if not 1 <= action.amount <= n:
        raise IllegalAction("tactical.logistics.amount", f"{action.kind}: between 1 and {n} can move now")
    a = action.amount
    if action.kind == "fuel":
        if src.fuel is not None:
            src.fuel -= a
        dst.fuel += a
    elif action.kind == "cargo":
        src.cargo_used -= a
        dst.cargo_used += a
    else:
        src.passengers -= a
        dst.passengers += a
    state.transfers += 1
    # a transfer with a ship the opponent sees (or owns: looting) shows on that ship, so it reveals its partner
    # (like gun fire, ruling 4); between two hidden ships of yours it stays private
    opp = 1 - player
    seen = [sh for sh in (src, dst) if sh.owner == opp or state.audience(sh) is None]
    events = []
    if seen:
        events.extend(reveal(state, [sh for sh in (src, dst) if sh.owner != opp and state.audience(sh) is not None]))
        events.append(Transferred(src.id, dst.id, action.kind, a, None))
    else:
        events.append(Transferred(src.id, dst.id, action.kind, a, (player,)))
    return events
