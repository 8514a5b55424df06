"""The admiral's move scores for one ship in one sampled world, memoized: ``fire_exchange.offense``, ``exposure``,
``threat`` and ``potential`` give exactly the same floats here, computed once per end hex (and facing, or
path) instead of once per candidate plan, and every shot's expected value (``fire_exchange.shot_ev``) once per
(weapon, target, range, head-on row, CCS, masking).

The world does not change while one ship's candidates are scored, so every cached value is the one the plain
function would return: same operations in the same order, same sums. ``fire_exchange.py`` stays the reference (the
tests compare the two).

Owns: :class:`MoveScores`, a per-decision cache over the pure functions of ``fire_exchange``. Must not change the
state or choose actions.
"""

from __future__ import annotations

from deltav.core import hexgrid
from deltav.games.knighthawks.bots.fire_exchange import FF_REACH, _targets, shot_ev
from deltav.games.knighthawks.combat import in_forward_field, weapon_range
from deltav.games.knighthawks.ships import ACTIVE, OK, Ship
from deltav.games.knighthawks.tables import tables

_UNSET = object()



def _firing(ship, wt, rules):
    """(code, ammunition or count, weapon table row, range) of each of ``ship``'s working weapons that fire."""
    for code, n, _mx, stt in ship.weapons:
        if stt != OK or n == 0:
            continue
        w = wt[code]
        if w.fired:
            yield code, n, w, weapon_range(code, rules)

class MoveScores:
    """The four exchange terms of ``me``'s candidate moves in ``state`` for ``player`` (``share``: enemy ship
    id -> divisor of its defensive fire, as ``fire_exchange.exposure`` takes it)."""

    def __init__(self, state, me: Ship, player: int, share: dict | None = None) -> None:
        self.state = state
        self.me = me
        self.player = player
        self.share = share
        self.planets = state.map.planets
        self._ev: dict = {}
        self._offense: dict = {}
        self._exposure: dict = {}
        self._threat: dict = {}
        self._potential: dict = {}
        self._threat_at: dict = {}  # end hex -> threat (the keyed caches above hold it by geometry)
        self._potential_at: dict = {}
        self._enemies = _targets(state, player)
        rules = state.rules
        wt = tables().weapons
        # own weapons that fire (offense): (code, reach, ff, ltd, torpedo); potential: (code, reach, ff)
        own = []
        pot = []
        for code, n, w, reach in _firing(me, wt, rules):
            pot.append((code, reach, w.ff))
            if me.docked is not None and (w.ff or code == "T"):
                continue
            own.append((code, reach, w.ff, w.ltd and n > 0))
        self._own = own
        self._pot = pot
        # enemies that shoot at me: [(ship, defensive weapons [(code, reach, ff, rd)], next-turn weapons
        #  [(code, reach, ff)])]
        shooters = []
        for e in state.ships:
            if e.owner == player or e.status != ACTIVE:
                continue
            dfn = []
            nxt = []
            for code, _n, w, reach in _firing(e, wt, rules):
                nxt.append((code, reach, w.ff))
                if w.mpo or (e.docked is not None and w.ff):
                    continue
                dfn.append((code, reach, w.ff, w.rd))
            shooters.append((e, dfn, nxt))
        self._shooters = shooters
        self._ndfn = sum(len(dfn) for _e, dfn, _n in shooters)
        self._nodes: dict = {}  # path prefix -> per defensive weapon, its best hex so far (``_bests``)
        self._own_reach = max((w[1] for w in own), default=-1)
        self._own_ff = any(w[2] for w in own)

    def ev(self, code: str, target: Ship, dist: int, head: bool, ccs: bool, masked: bool = False) -> float:
        """``fire_exchange.shot_ev(state, code, target, dist, head, ccs, masked)``, cached."""
        key = (code, target.id, dist, bool(head), ccs, masked)
        v = self._ev.get(key)
        if v is None:
            v = self._ev[key] = shot_ev(self.state, code, target, dist, head, ccs, masked)
        return v

    def offense(self, pos, facing: int) -> float:
        """``fire_exchange.offense(state, me, pos, facing, player)``: a function of each target's range, forward
        field and line of fire from ``pos``, cached by those."""
        enemies = self._enemies
        if not enemies:
            return 0.0
        geo = []
        reach, ff = self._own_reach, self._own_ff
        blocked = self.state.map.blocked if self.planets else None
        for e in enemies:
            ep = e.pos
            d = hexgrid.distance(pos, ep)
            if d > reach:
                geo.append(None)
                continue
            f = in_forward_field(pos, facing, ep, FF_REACH) if ff else None
            geo.append((d, f, blocked is not None and blocked(pos, ep)))
        key = tuple(geo)
        got = self._offense.get(key)
        if got is not None:
            return got
        me = self.me
        masked = me.ms_turns > 0
        total = 0.0
        for code, wreach, wff, ltd in self._own:
            best = 0.0
            for e, g in zip(enemies, geo):
                if g is None:
                    continue
                d, f, blk = g
                if d > wreach:
                    continue
                head = False
                if wff:
                    if f is None:
                        continue
                    head = f
                if blk:
                    continue
                v = self.ev(code, e, d, head, me.ccs, masked)
                if ltd:
                    v *= 0.85
                if v > best:
                    best = v
            total += best
        self._offense[key] = total
        return total

    def exposure(self, path) -> float:
        """``fire_exchange.exposure(state, me, path, player, share)``: each enemy weapon's best hex of the path is
        found hex by hex along a tree of the paths' prefixes (candidate paths share their first hexes)."""
        path = tuple(path)
        got = self._exposure.get(path)
        if got is not None:
            return got
        bests = self._bests(path)
        me = self.me
        share = self.share
        total = 0.0
        k = 0
        for e, dfn, _nxt in self._shooters:
            part = 0.0
            for code, _reach, _ff, _rd in dfn:
                best = bests[k]
                k += 1
                if best is None:
                    continue
                part += self.ev(code, me, best[1], best[2], e.ccs, e.ms_turns > 0)
            if part and share:
                part /= share.get(e.id, 1)
            total += part
        self._exposure[path] = total
        return total

    def _bests(self, path: tuple) -> tuple:
        """Per defensive enemy weapon (in ``_shooters`` order), ``(key, range, head-on)`` of the first hex of
        ``path`` with the highest key, or None where no hex can be fired at (``fire_exchange.exposure``'s rule)."""
        nodes = self._nodes
        got = nodes.get(path)
        if got is not None:
            return got
        n = len(path) - 1
        while n > 0 and path[:n] not in nodes:
            n -= 1
        bests = nodes[path[:n]] if n else (None,) * self._ndfn
        for j in range(n, len(path)):
            bests = self._extend(bests, path[j])
            nodes[path[:j + 1]] = bests
        return bests

    def _extend(self, bests: tuple, h) -> tuple:
        out = []
        k = 0
        planets = self.planets
        for e, dfn, _nxt in self._shooters:
            if not dfn:
                continue
            ep = e.pos
            d = hexgrid.distance(ep, h)
            f = _UNSET
            blk = None
            for _code, reach, ff, rd in dfn:
                best = bests[k]
                k += 1
                if d <= reach:
                    head = False
                    if ff and d > 0:
                        if f is _UNSET:
                            f = in_forward_field(ep, e.facing, h, FF_REACH)
                        if f is None:
                            out.append(best)
                            continue
                        head = f
                    elif ff:
                        head = True
                    if blk is None:
                        blk = bool(planets) and self.state.map.blocked(ep, h)
                    if not blk:
                        key = (10 if head else 0) - (5 * d if rd else 0)
                        if best is None or key > best[0]:
                            best = (key, d, head)
                out.append(best)
        return tuple(out)

    def threat(self, pos) -> float:
        """``fire_exchange.threat(state, me, pos, player)``: a function of each enemy's range to ``pos`` and whether
        ``pos`` is in its forward field, cached by those."""
        got = self._threat_at.get(pos)
        if got is not None:
            return got
        geo = []
        for e, _dfn, nxt in self._shooters:
            d = hexgrid.distance(e.pos, pos)
            geo.append((d, in_forward_field(e.pos, e.facing, pos, FF_REACH) if nxt else None))
        key = tuple(geo)
        got = self._threat.get(key)
        if got is not None:
            self._threat_at[pos] = got
            return got
        me = self.me
        total = 0.0
        for (e, _dfn, nxt), (d, f) in zip(self._shooters, geo):
            move = e.speed + e.adf if e.kind != "station" else 0
            for code, reach, ff in nxt:
                if d > reach + move:
                    continue
                rng = max(1, d - move) if move else d
                if rng > reach:
                    continue
                head = False
                factor = 1.0
                if ff:
                    if e.kind == "station":
                        continue
                    if f is None:
                        factor = 0.6 if e.mr > 0 else 0.2
                    head = bool(f)
                total += factor * self.ev(code, me, rng, head, e.ccs)
        self._threat[key] = self._threat_at[pos] = total
        return total

    def potential(self, pos) -> float:
        """``fire_exchange.potential(state, me, pos, player)``: a function of the targets' ranges from ``pos``,
        cached by those."""
        enemies = self._enemies
        if not enemies:
            return 0.0
        got = self._potential_at.get(pos)
        if got is not None:
            return got
        key = tuple(hexgrid.distance(pos, e.pos) for e in enemies)
        got = self._potential.get(key)
        if got is not None:
            self._potential_at[pos] = got
            return got
        me = self.me
        move = me.speed + me.adf
        total = 0.0
        for code, reach, ff in self._pot:
            best = 0.0
            for e, d in zip(enemies, key):
                if d > reach + move:
                    continue
                v = self.ev(code, e, max(1, d - move), ff, me.ccs)
                best = max(best, v)
            total += best
        self._potential[key] = self._potential_at[pos] = total
        return total
