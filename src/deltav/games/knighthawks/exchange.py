"""The admiral's move scores for one ship in one sampled world, memoized: ``planner.offense``, ``exposure``,
``threat`` and ``potential`` give exactly the same floats here, computed once per end hex (and facing, or
path) instead of once per candidate plan, and every shot's expected value (``planner.shot_ev``) once per
(weapon, target, range, head-on row, CCS, masking).

The world does not change while one ship's candidates are scored, so every cached value is the one the plain
function would return: same operations in the same order, same sums. ``planner.py`` stays the reference (the
tests compare the two).

Owns: :class:`MoveScores`, a per-decision cache over the pure functions of ``planner``. Must not change the
state or choose actions.
"""

from __future__ import annotations

from deltav.core import hexgrid
from deltav.games.knighthawks.combat import in_forward_field, weapon_range
from deltav.games.knighthawks.planner import FF_REACH, _targets, shot_ev
from deltav.games.knighthawks.ships import ACTIVE, OK, Ship
from deltav.games.knighthawks.tables import tables


class MoveScores:
    """The four exchange terms of ``me``'s candidate moves in ``state`` for ``player`` (``share``: enemy ship
    id -> divisor of its defensive fire, as ``planner.exposure`` takes it)."""

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
        self._enemies = _targets(state, player)
        rules = state.rules
        wt = tables().weapons
        # own weapons that fire (offense): (code, reach, ff, ltd, torpedo); potential: (code, reach, ff)
        own = []
        pot = []
        for code, n, _mx, stt in me.weapons:
            if stt != OK or n == 0:
                continue
            w = wt[code]
            if not w.fired:
                continue
            reach = weapon_range(code, rules)
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
            for code, n, _mx, stt in e.weapons:
                if stt != OK or n == 0:
                    continue
                w = wt[code]
                if not w.fired:
                    continue
                reach = weapon_range(code, rules)
                nxt.append((code, reach, w.ff))
                if w.mpo or (e.docked is not None and w.ff):
                    continue
                dfn.append((code, reach, w.ff, w.rd))
            shooters.append((e, dfn, nxt))
        self._shooters = shooters
        self._geo: dict = {}  # (enemy index, hex) -> (distance, forward field, blocked)

    def ev(self, code: str, target: Ship, dist: int, head: bool, ccs: bool, masked: bool = False) -> float:
        """``planner.shot_ev(state, code, target, dist, head, ccs, masked)``, cached."""
        key = (code, target.id, dist, bool(head), ccs, masked)
        v = self._ev.get(key)
        if v is None:
            v = self._ev[key] = shot_ev(self.state, code, target, dist, head, ccs, masked)
        return v

    def offense(self, pos, facing: int) -> float:
        """``planner.offense(state, me, pos, facing, player)``."""
        key = (pos, facing)
        got = self._offense.get(key)
        if got is not None:
            return got
        enemies = self._enemies
        total = 0.0
        if enemies:
            me = self.me
            masked = me.ms_turns > 0
            blocked = self.state.map.blocked
            for code, reach, ff, ltd in self._own:
                best = 0.0
                for e in enemies:
                    d = hexgrid.distance(pos, e.pos)
                    if d > reach:
                        continue
                    head = False
                    if ff:
                        f = in_forward_field(pos, facing, e.pos, FF_REACH)
                        if f is None:
                            continue
                        head = f
                    if self.planets and blocked(pos, e.pos):
                        continue
                    v = self.ev(code, e, d, head, me.ccs, masked)
                    if ltd:
                        v *= 0.85
                    if v > best:
                        best = v
                total += best
        self._offense[key] = total
        return total

    def _geometry(self, i: int, e: Ship, h) -> tuple:
        key = (i, h)
        g = self._geo.get(key)
        if g is None:
            ep = e.pos
            d = hexgrid.distance(ep, h)
            f = in_forward_field(ep, e.facing, h, FF_REACH) if d > 0 else True
            g = self._geo[key] = (d, f, bool(self.planets) and self.state.map.blocked(ep, h))
        return g

    def exposure(self, path) -> float:
        """``planner.exposure(state, me, path, player, share)``."""
        path = tuple(path)
        got = self._exposure.get(path)
        if got is not None:
            return got
        me = self.me
        share = self.share
        total = 0.0
        for i, (e, dfn, _nxt) in enumerate(self._shooters):
            part = 0.0
            if dfn:
                geo = [self._geometry(i, e, h) for h in path]
                for code, reach, ff, rd in dfn:
                    best = None
                    for d, f, blk in geo:
                        if d > reach:
                            continue
                        head = False
                        if ff:
                            if f is None:
                                continue
                            head = f
                        if blk:
                            continue
                        key = (10 if head else 0) - (5 * d if rd else 0)
                        if best is None or key > best[0]:
                            best = (key, d, head)
                    if best is None:
                        continue
                    part += self.ev(code, me, best[1], best[2], e.ccs, e.ms_turns > 0)
            if part and share:
                part /= share.get(e.id, 1)
            total += part
        self._exposure[path] = total
        return total

    def threat(self, pos) -> float:
        """``planner.threat(state, me, pos, player)``."""
        got = self._threat.get(pos)
        if got is not None:
            return got
        me = self.me
        total = 0.0
        for e, _dfn, nxt in self._shooters:
            d = hexgrid.distance(e.pos, pos)
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
                    f = in_forward_field(e.pos, e.facing, pos, FF_REACH)
                    if f is None:
                        factor = 0.6 if e.mr > 0 else 0.2
                    head = bool(f)
                total += factor * self.ev(code, me, rng, head, e.ccs)
        self._threat[pos] = total
        return total

    def potential(self, pos) -> float:
        """``planner.potential(state, me, pos, player)``."""
        got = self._potential.get(pos)
        if got is not None:
            return got
        enemies = self._enemies
        total = 0.0
        if enemies:
            me = self.me
            move = me.speed + me.adf
            for code, reach, ff in self._pot:
                best = 0.0
                for e in enemies:
                    d = hexgrid.distance(pos, e.pos)
                    if d > reach + move:
                        continue
                    v = self.ev(code, e, max(1, d - move), ff, me.ccs)
                    best = max(best, v)
                total += best
        self._potential[pos] = total
        return total
