"""The hard bot's plan for escort scenarios (a ship that must leave by an edge): how the escorted ship runs.

The escorted ship (the freighter) decides the game: it wins by leaving the map on its edge and loses by being
destroyed, breaking apart or leaving anywhere else. Its candidate moves are scored by:

- **getting away**: leaving on the right edge now wins; a move after which the ship can leave on its edge
  next turn (every speed its ADF allows, every turn pattern its MR allows) is worth a lot; a move after
  which it can *only* leave the map elsewhere (a slow-turning ship carried by its momentum) loses;
- **progress** toward the edge (hexes gained on the axis of the edge);
- **danger**: the raiders' defensive fire along the path now and their offensive reach next turn
  (``fire_exchange.exposure`` and ``fire_exchange.threat``), as a share of the ship's remaining hull;
- **break-up**: a severely damaged ship that maneuvers risks breaking apart, i.e. losing the game at once.

Owns: pure scoring of the escorted ship's candidate moves. Must not change the state or send actions.
"""

from __future__ import annotations

from deltav.core import hexgrid
from deltav.games.knighthawks.bots import fire_exchange as fx
from deltav.games.knighthawks.damage import breakup_chance
from deltav.games.knighthawks.movement import advance, rotation_cost, speed_options, start_plot

WIN = 10000.0


def escaped(victory: dict, pos) -> bool:
    """Whether leaving the map from ``pos`` counts as getting away (the rules' ``_escaped``)."""
    edge = victory.get("edge", "any")
    return edge == "any" or (edge == "east" and pos[0] > 0) or (edge == "west" and pos[0] < 0)


def progress(victory: dict, pos) -> int:
    """Hexes gained toward the edge the ship must leave by (any edge: the distance from the centre)."""
    edge = victory.get("edge", "any")
    return pos[0] if edge == "east" else -pos[0] if edge == "west" else hexgrid.length(pos)


def next_outcomes(mp, victory: dict, pos, facing: int, speed: int, adf: int, mr: int, depth: int = 1) -> set[str]:
    """What the ship can do with its next move from ``pos``/``facing`` at ``speed``: a set of ``stay`` (end
    on the map), ``escape`` (leave on its edge), ``lost`` (leave elsewhere) and ``crash``. Every speed within
    ADF and every turn pattern of at most MR turns (gravity deflection per the engine's ``advance``). With
    ``depth`` 2 an end on the map counts as ``stay`` only if the move after it can stay or escape too
    (otherwise ``doomed``)."""
    out: set[str] = set()
    seen: dict = {}

    def walk(st, total: int, left: int) -> None:
        key = (st.pos, st.facing, st.done, left, st.pp, st.pc, st.pd)
        if key in seen:
            return
        seen[key] = True
        if st.end:
            out.add("crash" if st.end == "crash" else "escape" if escaped(victory, st.pos) else "lost")
            return
        if st.done >= total:
            if depth > 1 and "stay" not in out:
                more = next_outcomes(mp, victory, st.pos, st.facing, total, adf, mr, depth - 1)
                out.add("stay" if more & {"stay", "escape"} else "doomed")
            else:
                out.add("stay")
            return
        for t in ((0, 1, -1) if left > 0 else (0,)):
            nxt = advance(mp, st, t, total)
            if nxt is None:
                continue
            walk(nxt, total, left - (1 if t else 0))

    for v in speed_options(speed, adf) if adf > 0 else (speed,):
        if v == 0:
            out.add("stay")
            continue
        walk(start_plot(pos, facing), v, mr)
        if "stay" in out and "escape" in out:
            break
    return out


def runner_score(world, sh, course, turns: tuple, st, p: int, w_danger: float = 1.0,
                 w_progress: float = 20.0) -> float:
    """The value of one candidate move of the escorted ship ``sh`` (see the module docstring)."""
    v = world.victory
    speed = course.speed
    if st.end == "exit":
        return WIN if escaped(v, st.pos) else -WIN
    if st.end == "crash":
        return -WIN
    score = 0.0
    if sh.severe():
        used = abs(speed - sh.speed) + sum(1 for t in turns if t) + rotation_cost(sh.facing, course.facing)
        score -= breakup_chance(sh.hp, sh.dmg, used) / 100 * WIN
    nxt = next_outcomes(world.map, v, st.pos, st.facing, speed, sh.adf, sh.mr)
    if "escape" in nxt:
        score += 0.3 * WIN
    elif "stay" not in nxt:
        score -= 0.8 * WIN  # carried off the map on the wrong side next turn
    score += w_progress * progress(v, st.pos) + 2.0 * speed
    path = st.path if speed else (sh.pos,)
    left = max(1.0, sh.hp - sh.dmg)
    danger = fx.exposure(world, sh, path, p) + fx.threat(world, sh, st.pos, p)
    # expected weighted damage as a share of what the ship has left: its destruction is the lost game
    score -= w_danger * danger * 40.0 / left
    return score
