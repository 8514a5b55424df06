"""Fleet-battle safety checks for the hard Knight Hawks bot: whether a ship's end position leaves it any move
next turn that does not crash into a planet.

A ship must move next turn at least its speed minus its ADF, and its first hex is forced (straight ahead);
entering a planet's gravity ring heading straight at the planet is a crash whatever it plots. The scripted
captain scores only the hex where a move ends, so a ship can end two hexes from a planet, heading at it, too
fast to stop: measured in the captain mirror on the fleet battle, the Sathar lost about 0.6 ships a game that
way.

Owns: pure look-ahead over the map geometry (``movement.advance``). Must not change states or choose actions
(the bots in bots/ do).
"""

from __future__ import annotations

from deltav.core import hexgrid
from deltav.games.knighthawks.movement import advance, speed_options, start_plot

_SAFE_DISTANCE = 3  # from every planet: no gravity ring within the next hex


def _far(m, pos) -> bool:
    return all(hexgrid.distance(pos, p) >= _SAFE_DISTANCE for p in m.planets)


def _survives(m, st, total: int, mr: int, memo: dict, stay: bool = False) -> bool:
    """Whether some way of finishing the move from plot state ``st`` (``total`` hexes, at most ``mr`` turns)
    avoids a crash (and, with ``stay``, leaving the map)."""
    if st.end == "crash" or (stay and st.end == "exit"):
        return False
    if st.end or st.done >= total or (not stay and _far(m, st.pos)):
        return True
    key = (st.pos, st.facing, st.done, st.turns, st.pp, st.pc, st.pd)
    hit = memo.get(key)
    if hit is not None:
        return hit
    ok = False
    for t in ((0, 1, -1) if st.turns < mr else (0,)):
        nxt = advance(m, st, t, total)
        if nxt is not None and _survives(m, nxt, total, mr, memo, stay):
            ok = True
            break
    memo[key] = ok
    return ok


def doomed(m, pos, facing: int, speed: int, adf: int, mr: int, stay: bool = False) -> bool:
    """True when every move allowed next turn from ``pos``/``facing`` at ``speed`` (new speed within ``adf``,
    at most ``mr`` turns) crashes into a planet (or is blocked by one); with ``stay`` also when every such
    move carries the ship off the map (it leaves the battle: half its points to the enemy)."""
    if not stay and (not m.planets or _far(m, pos)):
        return False
    if stay and (_far(m, pos) or not m.planets) and hexgrid.length(pos) + max(0, speed - adf) <= m.radius:
        return False
    for v in speed_options(speed, adf):
        if v == 0:
            return False
        if _survives(m, start_plot(pos, facing), v, mr, {}, stay):
            return False
    return True
