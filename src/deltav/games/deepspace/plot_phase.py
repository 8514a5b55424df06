"""The plot phase and the round it resolves (rules sections on plotting, movement and weapons fire): every side
with ships plots at once, secretly, per ship a new velocity (or withdraw), then each armed weapon's target or
hold, then ``done``. The last ``done`` reveals the plots, moves every ship (``movement``) and fires every
weapon, rolling with ``state.rng`` in ship order; hit points then go to the allocation phase.

This module must not touch design, deployment, allocation or self-destruct bookkeeping beyond starting the
allocation phase.
"""

from __future__ import annotations

from deltav.core.errors import IllegalAction
from deltav.core.hexgrid import distance
from deltav.core.jsonin import shown
from deltav.games.deepspace import flow
from deltav.games.deepspace.choices import DONE, velocity_actions, velocity_column_actions, velocity_row_actions
from deltav.games.deepspace.limits import ALIVE, SHOT_LOG, SPLIT_THRUST, STATUS_NAMES, WITHDRAWN
from deltav.games.deepspace.messages import (
    Done,
    Fire,
    Moved,
    Plotted,
    SetVelocity,
    Shot,
    ShotVoid,
    VelocityColumn,
    Withdraw,
    Withdrew,
)
from deltav.games.deepspace.movement import breakdown, thrust_cost


def legal(state, p: int) -> list:
    i, w = state.cur[p]
    order = state.order[p]
    if i >= len(order):
        return [DONE]
    s = state.ships[order[i]]
    if w < 0:
        thrust = s.lv[0]
        if thrust > SPLIT_THRUST:
            if state.col[p] is not None:
                return velocity_row_actions(s.id, s.vel, thrust, state.col[p])
            out = velocity_column_actions(s.id, s.vel, thrust)
        elif thrust == 0 and state.opts["thrustless"] == "fixed":
            out = [velocity_actions(s.id, (0, 0), 0)[0]]  # cannot move: a fixed object
        else:
            out = list(velocity_actions(s.id, s.vel, thrust))
        if may_withdraw(state, s):
            out.append(Withdraw(s.id))
        return out
    out = [Fire(s.id, w, None)]
    for t in targets(state, s):
        out.append(Fire(s.id, w, t.id))
    return out


def targets(state, s) -> list:
    """The ships weapon fire of ``s`` may target (enemies, or any other ship under ``friendly_fire``)."""
    ff = state.opts["friendly_fire"]
    return [t for t in state.ships if t.status == ALIVE and t is not s and (ff or t.owner != s.owner)]


def may_withdraw(state, s) -> bool:
    """Whether ship ``s`` is far enough from every enemy to withdraw (``withdrawal_radius``)."""
    radius = state.opts["withdrawal_radius"]
    if radius <= 0:
        return False
    pos = s.pos
    return not any(t.status == ALIVE and t.owner != s.owner and distance(pos, t.pos) <= radius for t in state.ships)


#: the kinds of action a plot takes (the phase table refuses the others with :func:`order_error`)
KINDS = (VelocityColumn, SetVelocity, Withdraw, Fire, Done)


def order_error(state, p: int, a=None) -> IllegalAction:
    """The refusal of an action that is not the side's next plotting step (``deepspace.plot.order``)."""
    i, w = state.cur[p]
    order = state.order[p]
    if i >= len(order):
        return IllegalAction("deepspace.plot.order", "every ship is plotted: send done")
    s = state.ships[order[i]]
    if w < 0:
        return IllegalAction("deepspace.plot.order", f"choose a velocity (or withdraw) for ship {s.id}")
    return IllegalAction("deepspace.plot.order", f"choose a target (or hold) for weapon {w} of ship {s.id}")


def apply(state, p: int, a) -> list:
    i, w = state.cur[p]
    order = state.order[p]
    if i >= len(order):
        if not isinstance(a, Done):
            raise order_error(state, p)
        state.waiting[p] = False
        ev: list = [Plotted(p)]
        if not any(state.waiting):
            ev += resolve(state)
        return ev
    si = order[i]
    s = state.ships[si]
    if w < 0:
        split = s.lv[0] > SPLIT_THRUST
        col = state.col[p]
        if isinstance(a, VelocityColumn):
            if a.ship != s.id or not split or col is not None:
                raise IllegalAction("deepspace.plot.order", _velocity_step_text(s, col))
            if abs(a.dq - s.vel[0]) > s.lv[0]:
                raise IllegalAction(
                    "deepspace.movement.thrust", f"{s.id}: dq {shown(a.dq)} is beyond thrust {s.lv[0]} of {s.vel[0]}"
                )
            state.col[p] = a.dq
            return []
        if isinstance(a, SetVelocity):
            if a.ship != s.id or (split and col is None):
                raise IllegalAction("deepspace.plot.order", _velocity_step_text(s, col))
            if split and a.dq != col:
                raise IllegalAction("deepspace.plot.order", f"{s.id}: the chosen column is dq = {col}")
            v1 = (a.dq, a.dr)
            cost = thrust_cost(s.vel, v1)
            if s.lv[0] == 0 and state.opts["thrustless"] == "fixed":
                if v1 != (0, 0):
                    raise IllegalAction(
                        "deepspace.movement.fixed",
                        f"{s.id} has no thrust: it cannot move (thrustless = fixed), its velocity is (0, 0)",
                    )
            elif cost > s.lv[0]:
                raise IllegalAction(
                    "deepspace.movement.thrust", f"{s.id}: the change costs {shown(cost)} thrust, the ship has {s.lv[0]}"
                )
            state.plan[si] = (v1, ())
            state.col[p] = None
            _advance(state, p, s, -1)
            return []
        if isinstance(a, Withdraw):
            if a.ship != s.id or col is not None:
                raise IllegalAction("deepspace.plot.order", _velocity_step_text(s, col))
            if not may_withdraw(state, s):
                radius = state.opts["withdrawal_radius"]
                if radius <= 0:
                    raise IllegalAction("deepspace.withdraw.disabled", "withdrawal is off (withdrawal_radius = 0)")
                raise IllegalAction("deepspace.withdraw.distance", f"{s.id} is within {radius} hexes of an enemy")
            state.plan[si] = (None, ())
            state.cur[p] = (i + 1, -1)
            return []
        raise order_error(state, p)  # a Fire or Done before the ship's velocity
    if not isinstance(a, Fire) or a.ship != s.id or a.weapon != w:
        raise order_error(state, p)
    if a.target is None:
        ti = -1
    else:
        t = state.ship(a.target)
        if t is None:
            raise IllegalAction("deepspace.weapons.target", f"there is no ship {a.target!r}")
        if t is s:
            raise IllegalAction("deepspace.weapons.self", f"{s.id} cannot fire at itself")
        if t.status != ALIVE:
            raise IllegalAction(
                "deepspace.weapons.target", f"{t.id} is no longer in the battle ({STATUS_NAMES[t.status]})"
            )
        if t.owner == s.owner and not state.opts["friendly_fire"]:
            raise IllegalAction("deepspace.weapons.friendly", "weapons fire at enemy ships only")
        ti = state.index[a.target]
    vel, shots = state.plan[si]
    state.plan[si] = (vel, shots + ((w, ti),))
    _advance(state, p, s, w)
    return []


def _velocity_step_text(s, col: int | None) -> str:
    if s.lv[0] <= SPLIT_THRUST:
        return f"choose a velocity (or withdraw) for ship {s.id}"
    if col is None:
        return f"choose the dq of ship {s.id}'s velocity (velocity_column), or withdraw"
    return f"choose the dr of ship {s.id}'s velocity in column dq = {col}"


def _advance(state, p: int, s, w: int) -> None:
    """Move player ``p``'s cursor past weapon ``w`` of ship ``s`` to its next armed weapon, or the next ship."""
    lv = s.lv
    k = w + 1
    n = (len(lv) - 3) // 2
    while k < n:
        if lv[3 + 2 * k] + lv[4 + 2 * k] > 0:
            state.cur[p] = (state.cur[p][0], k)
            return
        k += 1
    state.cur[p] = (state.cur[p][0] + 1, -1)


def resolve(state) -> list:
    """Reveal every plot: withdrawals, movement, then weapons fire in ship order; then allocation."""
    ev: list = []
    ships = state.ships
    plan = state.plan
    arena = state.opts["arena_radius"]
    for si, s in enumerate(ships):
        pl = plan[si]
        if s.status != ALIVE or pl is None:
            continue
        v1 = pl[0]
        if v1 is None:
            s.status = WITHDRAWN
            ev.append(Withdrew(s.id))
            continue
        if s.lv[0] == 0 and v1 != s.vel:  # a ship without thrust that stops (thrustless = fixed)
            up = down = turn = 0
        else:
            up, down, turn = breakdown(s.vel, v1)
        cost = up + down + turn
        if cost > s.seen_thrust:
            s.seen_thrust = cost
        s.pos = (s.pos[0] + v1[0], s.pos[1] + v1[1])
        s.vel = v1
        ev.append(Moved(s.id, s.pos[0], s.pos[1], v1[0], v1[1], cost, up, down, turn))
        if arena and max(abs(s.pos[0]), abs(s.pos[1]), abs(s.pos[0] + s.pos[1])) > arena:
            s.status = WITHDRAWN
            ev.append(Withdrew(s.id))
    for s in ships:
        s.incoming = 0
    rng = state.rng
    for si, s in enumerate(ships):
        pl = plan[si]
        if pl is None or pl[0] is None or s.status != ALIVE:  # withdrawn ships (and arena leavers) hold fire
            continue
        lv = s.lv
        for w, ti in pl[1]:
            if ti < 0:
                continue
            t = ships[ti]
            if t.status != ALIVE:
                ev.append(ShotVoid(s.id, w, t.id))
                continue
            rq = s.pos[0] - t.pos[0]
            rr = s.pos[1] - t.pos[1]
            rng_ = max(abs(rq), abs(rr), abs(rq + rr))
            a = rng.below(6) + rng.below(6) + 2
            e = rng.below(6) + rng.below(6) + 2
            hit = a * lv[3 + 2 * w] - rng_ >= e * t.lv[1]
            hp = 0
            if hit:
                a = rng.below(6) + rng.below(6) + 2
                e = rng.below(6) + rng.below(6) + 2
                hp = a * lv[4 + 2 * w] - e * t.lv[2]
                if hp < 0:
                    hp = 0
            if w + 1 > s.seen_weapons:
                s.seen_weapons = w + 1
            if hp:
                if hp > s.seen_damage[w]:
                    sd = list(s.seen_damage)
                    sd[w] = hp
                    s.seen_damage = tuple(sd)
                flow.hurt(state, s.owner, t, hp)
            ev.append(Shot(s.id, w, t.id, rng_, hit, hp))
    state.plan = [None] * len(ships)
    state.report = tuple(e.to_json() for e in ev)
    new = tuple((e.ship, e.weapon, e.target, e.range, e.hit, e.hp) for e in ev if isinstance(e, Shot))
    if new:
        state.shots = (state.shots + new)[-SHOT_LOG:]
    return ev + flow.start_allocation(state, "fire")
