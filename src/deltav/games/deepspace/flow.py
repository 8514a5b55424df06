"""Phase transitions of Deep Space Combat: how each phase starts (who decides, in which order), what follows
when its last decision is in, the hit-point bookkeeping shared by fire and explosions, and the end of a round
and of the battle (annihilation for two fleets, else the campaign score: hit points inflicted less hit points
received). The phase modules call these; this module imports none of them.

This module must not validate or apply a decision, nor roll dice.
"""

from __future__ import annotations

from deltav.core.protocol import Result
from deltav.games.deepspace.limits import ALIVE, DESTROYED
from deltav.games.deepspace.messages import Destroyed, GameOver, RoundBegan


def hurt(state, attacker: int, t, hp: int) -> None:
    """Ship ``t`` takes ``hp`` hit points from player ``attacker``: pending allocation and the campaign score."""
    t.pending += hp
    t.incoming += hp
    t.hp_taken += hp
    state.received[t.owner] += hp
    if attacker != t.owner:
        state.inflicted[attacker] += hp


def start_deploy(state) -> list:
    state.phase = "deploy"
    n = state.num_players
    orders: list[list[int]] = [[] for _ in range(n)]
    for si, s in enumerate(state.ships):
        orders[s.owner].append(si)
    state.order = [tuple(o) for o in orders]
    state.cur = [(0, 0)] * n
    state.waiting = [bool(o) for o in orders]
    state.plan = [None] * len(state.ships)
    return []


def start_plot(state, rnd: int) -> list:
    """Round ``rnd`` begins: every side with a ship in the battle plots."""
    state.round = rnd
    state.phase = "plot"
    state.sub = ""
    n = state.num_players
    orders: list[list[int]] = [[] for _ in range(n)]
    for si, s in enumerate(state.ships):
        if s.status == ALIVE:
            orders[s.owner].append(si)
    state.order = [tuple(o) for o in orders]
    state.cur = [(0, -1)] * n
    state.waiting = [bool(o) for o in orders]
    state.plan = [None] * len(state.ships)
    return [RoundBegan(rnd)]


def start_allocation(state, sub: str) -> list:
    """Allocation after ``sub`` (``fire`` or ``blast``): every side with a damaged ship in the battle."""
    state.phase = "allocate"
    state.sub = sub
    n = state.num_players
    orders: list[list[int]] = [[] for _ in range(n)]
    for si, s in enumerate(state.ships):
        if s.pending > 0:
            s.seen_thrust = 0
            s.seen_damage = (0,) * len(s.seen_damage)
            if s.status != ALIVE or s.dead():
                s.pending = 0
            else:
                orders[s.owner].append(si)
    state.order = [tuple(o) for o in orders]
    state.cur = [0] * n
    state.waiting = [bool(o) for o in orders]
    if not any(state.waiting):
        return after_allocation(state)
    return []


def after_allocation(state) -> list:
    """Every allocation is in: ships at zero are destroyed; then self-destruct (after fire) or the round ends."""
    ev: list = []
    for s in state.ships:
        if s.status == ALIVE and s.dead():
            s.status = DESTROYED
            ev.append(Destroyed(s.id, "damage"))
    if state.sub == "fire" and state.opts["self_destruct"]:
        ev += start_destruct(state)
    else:
        ev += end_round(state)
    return ev


def start_destruct(state) -> list:
    """Declarations after weapons fire, or the end of the round when no ship may declare."""
    n = state.num_players
    by_hex: dict = {}
    for si, s in enumerate(state.ships):
        if s.status == ALIVE:
            by_hex.setdefault(s.pos, []).append(si)
    orders: list[list[int]] = [[] for _ in range(n)]
    anywhere = declare_anywhere(state)
    for group in by_hex.values():
        if not anywhere and (len(group) < 2 or len({state.ships[i].owner for i in group}) < 2):
            continue
        for i in group:
            orders[state.ships[i].owner].append(i)
    for o in orders:
        o.sort()
    state.order = [tuple(o) for o in orders]
    state.cur = [0] * n
    state.waiting = [bool(o) for o in orders]
    state.plan = [None] * len(state.ships)
    if not any(state.waiting):
        return end_round(state)
    state.phase = "destruct"
    return []


def declare_anywhere(state) -> bool:
    """Whether every ship in the battle declares (``self_destruct_scope = anywhere``), or only ships sharing
    a hex with an enemy: also so in the battle's last round (at most one side left, or the round limit),
    where an explosion that reaches no enemy can change nothing but the owner's losses."""
    return (
        state.opts["self_destruct_scope"] == "anywhere"
        and state.round < state.round_limit
        and len(active(state)) > 1
    )


def active(state) -> list[int]:
    """The players with a ship still in the battle."""
    seen = [False] * state.num_players
    for s in state.ships:
        if s.status == ALIVE:
            seen[s.owner] = True
    return [p for p in range(state.num_players) if seen[p]]


def end_round(state) -> list:
    act = active(state)
    if len(act) <= 1:
        return finish(state, act, limit=False)
    if state.round >= state.round_limit:
        return finish(state, act, limit=True)
    return start_plot(state, state.round + 1)


def finish(state, act: list[int], limit: bool) -> list:
    state.phase = "over"
    state.waiting = [False] * state.num_players
    scores = state.scores()
    two = state.num_players == 2 and state.opts["two_fleet_victory"] == "annihilation"
    if two and not limit:
        if act:
            winners = tuple(act)
            loser = 1 - act[0]
            gone = all(s.status == DESTROYED for s in state.ships if s.owner == loser)
            reason = "annihilation" if gone else "the enemy left the field"
        else:
            winners = ()
            gone = all(s.status == DESTROYED for s in state.ships)
            reason = "mutual destruction" if gone else "no fleet left on the field"
    else:
        best = max(scores)
        winners = tuple(p for p in range(state.num_players) if scores[p] == best)
        if len(winners) == state.num_players:
            winners = ()
        why = "round limit" if limit else "battle over"
        reason = f"campaign score ({why})"
    state._result = Result(winners, reason, tuple(float(x) for x in scores))
    return [GameOver(winners, reason, tuple(scores))]
