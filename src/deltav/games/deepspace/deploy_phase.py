"""The deployment phase: every side at once, secretly, per ship a hex of its zone, then an initial velocity
(unless ``initial_velocity = rest``); then ``done``. The last ``done`` reveals every deployment and round 1
begins.

This module must not touch design, plotting or combat.
"""

from __future__ import annotations

from deltav.core.errors import IllegalAction
from deltav.core.hexgrid import distance
from deltav.core.jsonin import shown
from deltav.games.deepspace import flow
from deltav.games.deepspace.choices import DONE, velocity_actions, velocity_column_actions, velocity_row_actions
from deltav.games.deepspace.limits import SPLIT_THRUST
from deltav.games.deepspace.messages import Deployed, Done, Place, Placed, SetVelocity, VelocityColumn
from deltav.games.deepspace.movement import thrust_cost


def legal(state, p: int) -> list:
    i, step = state.cur[p]
    order = state.order[p]
    if i >= len(order):
        return [DONE]
    s = state.ships[order[i]]
    if step == 0:
        q, r, rad = state.zones[p]
        out = []
        for dq in range(-rad, rad + 1):
            for dr in range(max(-rad, -dq - rad), min(rad, -dq + rad) + 1):
                out.append(Place(s.id, q + dq, r + dr))
        return out
    thrust = s.lv[0]
    if thrust > SPLIT_THRUST:
        if state.col[p] is None:
            return velocity_column_actions(s.id, (0, 0), thrust)
        return velocity_row_actions(s.id, (0, 0), thrust, state.col[p])
    return list(velocity_actions(s.id, (0, 0), thrust))


#: the kinds of action the deployment takes (the phase table refuses the others with :func:`order_error`)
KINDS = (Place, VelocityColumn, SetVelocity, Done)


def order_error(state, p: int, a=None) -> IllegalAction:
    """The refusal of an action that is not the side's next deployment step (``deepspace.deploy.order``)."""
    i, step = state.cur[p]
    order = state.order[p]
    if i >= len(order):
        return IllegalAction("deepspace.deploy.order", "every ship is deployed: send done")
    s = state.ships[order[i]]
    if step == 0:
        return IllegalAction("deepspace.deploy.order", f"place ship {s.id} next")
    return IllegalAction("deepspace.deploy.order", f"choose the initial velocity of ship {s.id}")


def apply(state, p: int, a) -> list:
    i, step = state.cur[p]
    order = state.order[p]
    if i >= len(order):
        if not isinstance(a, Done):
            raise order_error(state, p)
        state.waiting[p] = False
        ev: list = [Deployed(p)]
        if not any(state.waiting):
            ev += reveal(state)
        return ev
    si = order[i]
    s = state.ships[si]
    if step == 0:
        if not isinstance(a, Place) or a.ship != s.id:
            raise order_error(state, p)
        q, r, rad = state.zones[p]
        if distance((a.q, a.r), (q, r)) > rad:
            raise IllegalAction(
                "deepspace.deploy.zone", f"({shown(a.q)},{shown(a.r)}) is outside the zone of radius {rad} around ({q},{r})"
            )
        state.plan[si] = (a.q, a.r, 0, 0)
        if state.opts["initial_velocity"] == "rest":
            state.cur[p] = (i + 1, 0)
        else:
            state.cur[p] = (i, 1)
        return []
    split = s.lv[0] > SPLIT_THRUST
    col = state.col[p]
    if isinstance(a, VelocityColumn) and a.ship == s.id and split and col is None:
        if abs(a.dq) > s.lv[0]:
            raise IllegalAction("deepspace.deploy.speed", f"dq {shown(a.dq)} exceeds {s.id}'s thrust {s.lv[0]}")
        state.col[p] = a.dq
        return []
    if not isinstance(a, SetVelocity) or a.ship != s.id or (split and (col is None or a.dq != col)):
        raise order_error(state, p)
    v = (a.dq, a.dr)
    if thrust_cost((0, 0), v) > s.lv[0]:
        raise IllegalAction(
            "deepspace.deploy.speed", f"initial speed {shown(thrust_cost((0, 0), v))} exceeds {s.id}'s thrust {s.lv[0]}"
        )
    state.plan[si] = (state.plan[si][0], state.plan[si][1], v[0], v[1])
    state.col[p] = None
    state.cur[p] = (i + 1, 0)
    return []


def reveal(state) -> list:
    """Every deployment is in: ships take their hexes and velocities; round 1 begins."""
    ev: list = []
    for si, s in enumerate(state.ships):
        q, r, dq, dr = state.plan[si]
        s.pos = (q, r)
        s.vel = (dq, dr)
        ev.append(Placed(s.id, q, r, dq, dr))
    state.report = tuple(e.to_json() for e in ev)
    return ev + flow.start_plot(state, 1)
