"""The self-destruct phase (rules section on self-destruction, option ``self_destruct``): every side with a ship
that may declare (sharing a hex with an enemy, or anywhere under ``self_destruct_scope``) declares at once,
secretly, per such ship, detonate or not. Explosions are simultaneous and rolled with ``state.rng``; their
victims then allocate (``allocate_phase``, step ``blast``).

This module must not touch plotting, movement or weapons fire.
"""

from __future__ import annotations

from deltav.core.errors import IllegalAction
from deltav.games.deepspace import flow
from deltav.games.deepspace.limits import ALIVE, DESTROYED
from deltav.games.deepspace.messages import Blast, Declared, Destroyed, Detonated, SelfDestruct


def legal(state, p: int) -> list:
    sid = state.ships[state.order[p][state.cur[p]]].id
    return [SelfDestruct(sid, False), SelfDestruct(sid, True)]


#: the kinds of action this phase takes (the phase table refuses the others with :func:`order_error`)
KINDS = (SelfDestruct,)


def order_error(state, p: int, a=None) -> IllegalAction:
    """The refusal of a declaration for another ship, or of another kind (``deepspace.destruct.order``)."""
    s = state.ships[state.order[p][state.cur[p]]]
    return IllegalAction("deepspace.destruct.order", f"declare whether ship {s.id} self-destructs")


def apply(state, p: int, a) -> list:
    si = state.order[p][state.cur[p]]
    s = state.ships[si]
    if a.ship != s.id:
        raise order_error(state, p)
    state.plan[si] = a.detonate
    state.cur[p] += 1
    if state.cur[p] < len(state.order[p]):
        return []
    state.waiting[p] = False
    ev: list = [Declared(p)]
    if not any(state.waiting):
        ev += explode(state)
    return ev


def explode(state) -> list:
    """Every declared ship explodes at once, hitting every ship in its hex; then its victims allocate."""
    ev: list = []
    ships = state.ships
    boom = [si for si in range(len(ships)) if state.plan[si] is True]
    state.plan = [None] * len(ships)
    for s in ships:
        s.incoming = 0
    friends = state.opts["explosion_hits_friends"]
    # explosions are simultaneous: each hits everything in its hex, other exploding ships included (they
    # are destroyed anyway; the hit points count in the campaign score)
    powers = [sum(ships[si].lv) + (ships[si].size if state.opts["explosion_counts_size"] else 0) for si in boom]
    rng = state.rng
    for si, power in zip(boom, powers):
        e = ships[si]
        ev.append(Detonated(e.id))
        for vi, v in enumerate(ships):
            if vi == si or v.status != ALIVE or v.pos != e.pos:
                continue
            if v.owner == e.owner and not friends:
                continue
            a = rng.below(6) + rng.below(6) + 2
            b = rng.below(6) + rng.below(6) + 2
            hp = a * power - b * v.lv[2]
            if hp < 0:
                hp = 0
            if hp:
                flow.hurt(state, e.owner, v, hp)
            ev.append(Blast(e.id, v.id, hp))
    for si in boom:
        ships[si].status = DESTROYED
        ev.append(Destroyed(ships[si].id, "self-destruct"))
    state.report = state.report + tuple(x.to_json() for x in ev)
    return ev + flow.start_allocation(state, "blast")
