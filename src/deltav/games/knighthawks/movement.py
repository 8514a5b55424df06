"""Movement: speed changes within ADF, one hexside turn per hex entered up to MR, rotation when stopped,
planets that block, gravity rings (a crash when entering heading straight at the planet, a one-hexside
deflection toward it when passing through), leaving the battle past the map edge, orbits.

Owns: the map geometry (planets, gravity rings, map radius) and the step-by-step simulation of one ship's
plotted move, with the check that a partly plotted move can still be completed. Must not roll dice or
touch ship records (state.py plots and executes moves with these functions).

A plot is built one hex at a time: ``start_plot`` then ``advance(turn)`` for each hex entered, where
``turn`` is the hexside turn made after entering it (+1 left = counter-clockwise, -1 right, 0 none).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from deltav.core import hexgrid
from deltav.games.knighthawks.combat import fire_blocked

Hex = tuple[int, int]
_PDIST: dict = {}  # planets -> {hex: distance to the nearest planet}
_LOS: dict = {}  # planets -> {(from, to): blocked}: line-of-fire lookups shared by every state on that map


@dataclass(frozen=True)
class MapInfo:
    """Planets (blocked hexes with gravity), their gravity rings, and the radius beyond which a ship has
    left the battle."""

    radius: int
    planets: frozenset
    ring: dict  # hex -> planet hex (the planet whose gravity ring it is in)
    planet_names: tuple[str, ...] = ()
    planet_hexes: tuple[Hex, ...] = ()

    def planet_distance(self, h: Hex) -> int:
        """Hex distance to the nearest planet (a large number on a map without planets); cached per map."""
        if not self.planets:
            return 1 << 30
        cache = _PDIST.get(self.planets)
        if cache is None:
            cache = _PDIST[self.planets] = {}
        got = cache.get(h)
        if got is None:
            if len(cache) > 100_000:
                cache.clear()
            got = cache[h] = min(hexgrid.distance(p, h) for p in self.planets)
        return got

    def los_table(self) -> dict:
        """The shared ``{(from, to): blocked}`` cache of this map's planets (read it before calling
        :meth:`blocked`, which fills it)."""
        los = _LOS.get(self.planets)
        if los is None:
            los = _LOS[self.planets] = {}
        return los

    def blocked(self, a: Hex, b: Hex) -> bool:
        """Whether a planet blocks fire from ``a`` to ``b`` (combat.fire_blocked, cached per map). The line
        is the same both ways (``fire_blocked`` is symmetric), so a new pair is stored in both directions."""
        los = _LOS.get(self.planets)
        if los is None:
            los = _LOS[self.planets] = {}
        key = (a, b)
        got = los.get(key)
        if got is None:
            if len(los) > 300_000:
                los.clear()
            got = los[key] = los[(b, a)] = fire_blocked(a, b, self.planets)
        return got

    @classmethod
    def build(cls, radius: int, planets: list[tuple[str, Hex]]) -> MapInfo:
        ring: dict[Hex, Hex] = {}
        for _, p in sorted(planets, key=lambda x: x[1]):
            for d in range(6):
                h = hexgrid.neighbour(p, d)
                ring.setdefault(h, p)
        hexes = frozenset(p for _, p in planets)
        for h in hexes:
            ring.pop(h, None)
        return cls(radius, hexes, ring, tuple(n for n, _ in planets), tuple(p for _, p in planets))

    def inside(self, h: Hex) -> bool:
        return hexgrid.length(h) <= self.radius

    def key(self) -> int:
        """A small int naming this map's geometry (radius, planets, gravity rings): equal maps share it, so
        caches of pure movement results can be shared by every state on that map."""
        k = self.__dict__.get("_key")
        if k is None:
            full = (self.radius, tuple(sorted(self.planets)), tuple(sorted(self.ring.items())))
            k = _MAP_KEYS.setdefault(full, len(_MAP_KEYS))
            object.__setattr__(self, "_key", k)
        return k


_MAP_KEYS: dict = {}  # full map geometry -> small int (MapInfo.key)


class PlotState(NamedTuple):
    pos: Hex
    facing: int
    done: int  # hexes entered so far
    turns: int  # MR points used so far (voluntary and forced turns)
    gturns: int  # gravity deflections
    pp: Hex | None  # planet whose ring the ship is passing through
    pc: bool  # that pass was cancelled by a turn away from the planet
    pd: bool  # that pass already deflected the ship
    end: str  # "", "crash" (gravity or planet), "exit" (left the battle)
    path: tuple[Hex, ...]


_ps = tuple.__new__  # PlotState records built without the namedtuple's Python-level __new__ (same values)
_PLOT = PlotState
_DIRS = hexgrid.DIRECTIONS


def speed_options(speed: int, adf: int) -> range:
    """New speeds allowed: within ADF of the old one (one direction only, by construction); 0 only if the old
    speed was at most the ADF."""
    return range(max(0, speed - adf), speed + adf + 1)


def start_plot(pos: Hex, facing: int) -> PlotState:
    return _ps(_PLOT, (pos, facing % 6, 0, 0, 0, None, False, False, "", (pos,)))


def _angle(facing: int, toward: int) -> int:
    a = (facing - toward) % 6
    return a if a <= 3 else a - 6  # -2..3: signed hexsides from "toward" (positive: toward is to the right)


def advance(m: MapInfo, st: PlotState, turn: int, total: int, planet_crash: bool = False) -> PlotState | None:
    """Enter the next hex and turn ``turn`` there. None if illegal (the hex is a planet, unless
    ``planet_crash``: a ship with no other choice crashes into it). ``total`` is the plotted speed (gravity
    deflects only a ship that moves on). A step that ends the move (a gravity crash, leaving the map) ignores
    the turn asked for."""
    pos, sf, sdone, sturns, gturns, spp, spc, spd, _end, spath = st
    dq, dr = _DIRS[sf]
    q = pos[0] + dq
    r = pos[1] + dr
    nxt = (q, r)
    if nxt in m.planets:
        if not planet_crash:
            return None
        return _ps(_PLOT, (pos, sf, sdone + 1, sturns, gturns, spp, spc, spd, "crash", spath))
    if max(abs(q), abs(r), abs(q + r)) > m.radius:  # the move ends here: a turn asked for it is moot
        return _ps(_PLOT, (pos, sf, sdone + 1, sturns, gturns, None, False, False, "exit", spath))
    path = spath + (nxt,)
    ring = m.ring
    p = ring.get(nxt)
    done = sdone + 1
    if p is None:
        return _ps(_PLOT, (nxt, (sf + turn) % 6, done, sturns + 1 if turn else sturns, gturns, None, False, False,
                           "", path))
    to_p = _DIRS.index((p[0] - q, p[1] - r))
    if sf == to_p:  # entered across the hexside opposite the planet: caught by gravity, whatever
        return _ps(_PLOT, (nxt, sf, done, sturns, gturns, p, False, False, "crash", path))
    facing = (sf + turn) % 6
    turns = sturns + (1 if turn else 0)
    pp, pc, pd = spp, spc, spd
    if pp != p:
        pp, pc, pd = p, False, False
    if turn:
        before = abs(_angle(sf, to_p))
        after = abs(_angle(facing, to_p))
        if after > before:
            pc = True  # an MR turn away from the planet cancels its gravity for this pass
    if done < total and not pc and not pd:
        ahead = hexgrid.neighbour(nxt, facing)
        if ahead not in ring or ring[ahead] != p:
            a = _angle(facing, to_p)
            if a in (1, 2):
                facing, pd, gturns = (facing - 1) % 6, True, gturns + 1
            elif a in (-1, -2):
                facing, pd, gturns = (facing + 1) % 6, True, gturns + 1
    return _ps(_PLOT, (nxt, facing, done, turns, gturns, pp, pc, pd, "", path))


def turn_choices(st: PlotState, mr: int, navdir: int, evading: bool) -> tuple[int, ...]:
    """The turns allowed in the next hex: a navigation hit forces its direction until MR is used up; an
    evading ship must turn (either way) in each hex until MR is used up; otherwise none, left or right."""
    if st.turns >= mr:
        return (0,)
    if navdir:
        return (navdir,)
    if evading:
        return (1, -1)
    return (0, 1, -1)


def completable(m: MapInfo, st: PlotState, total: int, mr: int, navdir: int, evading: bool,
                planet_crash: bool = False, _memo: dict | None = None) -> bool:
    """Whether a partly plotted move can be finished (``total`` hexes, or an end by crash or exit)."""
    pos, facing, done, turns, _g, pp, pc, pd, end, _path = st
    if end or done >= total:
        return True
    if m.planet_distance(pos) > total - done + 1:
        return True
    memo = {} if _memo is None else _memo
    key = (pos, facing, done, turns, pp, pc, pd)
    if key in memo:
        return memo[key]
    memo[key] = False
    ok = False
    for t in turn_choices(st, mr, navdir, evading):
        nxt = advance(m, st, t, total, planet_crash)
        if nxt is not None and completable(m, nxt, total, mr, navdir, evading, planet_crash, memo):
            ok = True
            break
    memo[key] = ok
    return ok


_COMPLETABLE: dict = {}  # (map key, pos, facing, total, mr, navdir, evading) -> completable from a fresh plot


def completable_from(m: MapInfo, pos: Hex, facing: int, total: int, mr: int, navdir: int, evading: bool) -> bool:
    """``completable(m, start_plot(pos, facing), total, mr, navdir, evading)``, cached across states."""
    if m.planet_distance(pos) > total + 1:  # completable's own first shortcut, before building the key
        return True
    key = (m.key(), pos, facing, total, mr, navdir, evading)
    got = _COMPLETABLE.get(key)
    if got is None:
        if len(_COMPLETABLE) > 200_000:
            _COMPLETABLE.clear()
        got = _COMPLETABLE[key] = completable(m, start_plot(pos, facing), total, mr, navdir, evading)
    return got


def rotation_cost(a: int, b: int) -> int:
    """Hexsides between two facings (0..3)."""
    d = (a - b) % 6
    return min(d, 6 - d)


def orbit_step(planet: Hex, pos: Hex, clockwise: bool) -> Hex:
    """The next hex of an orbit around ``planet`` (one hex per turn, six turns per orbit)."""
    d = hexgrid.direction_of((pos[0] - planet[0], pos[1] - planet[1]))
    if d is None:
        return pos
    return hexgrid.neighbour(planet, d - 1 if clockwise else d + 1)
