"""Victory in Knight Hawks (the scenario's conditions and the points of destroyed and disengaged ships): the
checks after every resolution and at the turn limit.

Owns: the score tally and the end of the game on a ``KHState`` record. Must not roll dice or change ships.
"""

from __future__ import annotations

from deltav.core.protocol import Result
from deltav.games.knighthawks import messages as m
from deltav.games.knighthawks.ships import ACTIVE, DEAD, GONE, Ship


def tally(state) -> list[int]:
    sc = [0, 0]
    for s in state.ships:
        if s.status == DEAD:
            sc[1 - s.owner] += s.points
        elif s.status == GONE and not escaped(state, s):
            sc[1 - s.owner] += s.points // 2
    return sc


def escaped(state, s: Ship) -> bool:
    v = state.victory
    if v["kind"] != "exit" or s.id != v.get("ship"):
        return False
    edge = v.get("edge", "any")
    return edge == "any" or (edge == "east" and s.pos[0] > 0) or (edge == "west" and s.pos[0] < 0)


def finish(state, winners: tuple[int, ...], reason: str, ev: list) -> None:
    state.scores = tally(state)
    state._result = Result(winners, reason, (float(state.scores[0]), float(state.scores[1])))
    state.stage = "over"
    state.plotting = None
    ev.append(m.GameOver(winners, reason, (state.scores[0], state.scores[1])))


def check_end(state, ev: list) -> None:
    if state.stage == "over":
        return
    v = state.victory
    if v["kind"] in ("exit", "destroy"):
        tgt = state.ship(v["ship"])
        side = tgt.owner
        if v["kind"] == "exit":
            if tgt.status == GONE and escaped(state, tgt):
                finish(state, (side,), f"{tgt.name} escaped", ev)
                return
            if tgt.status != ACTIVE:
                finish(state, (1 - side,), f"{tgt.name} was {'destroyed' if tgt.status == DEAD else 'driven off'}",
                             ev)
                return
        elif tgt.status == DEAD:
            finish(state, (1 - side,), f"{tgt.name} was destroyed", ev)
            return
    alive = [any(s.owner == p and s.status == ACTIVE for s in state.ships) for p in (0, 1)]
    if not alive[0] and not alive[1]:
        finish(state, (), "both fleets destroyed or driven off", ev)
    elif not alive[0] or not alive[1]:
        w = 0 if alive[0] else 1
        finish(state, (w,), f"{state.sides[w]} destroyed or drove off the enemy", ev)


def finish_by_limit(state, ev: list) -> None:
    v = state.victory
    if v["kind"] == "exit":
        side = state.ship(v["ship"]).owner
        finish(state, (1 - side,), "turn limit: the escort did not get through", ev)
        return
    if v["kind"] == "destroy":
        side = state.ship(v["ship"]).owner
        finish(state, (side,), "turn limit: the station held", ev)
        return
    sc = tally(state)
    if sc[0] == sc[1]:
        finish(state, (), "turn limit: equal points", ev)
    else:
        w = 0 if sc[0] > sc[1] else 1
        finish(state, (w,), f"turn limit: {state.sides[w]} ahead on points", ev)
