"""Heuristics and evaluation functions for Knight Hawks bots: expected damage of a shot, the value of a ship's
position after a plotted move, the best screen against the enemy's weapons, a repair allocation, and a
material evaluation of a whole state for search bots.

Owns: pure scoring functions over a state (usually a determinized world). Must not change states or send
actions (the bots in bots/ do that).
"""

from __future__ import annotations

from deltav.core import hexgrid
from deltav.games.knighthawks import fire_phase
from deltav.games.knighthawks.combat import (
    chance_to_hit,
    defense_column,
    operating_defenses,
    weapon_range,
)
from deltav.games.knighthawks.movement import advance, start_plot, turn_choices
from deltav.games.knighthawks.ships import ACTIVE, DEAD, GONE, OK, Ship
from deltav.games.knighthawks.tables import tables

# Expected hull-point equivalent of one hit, by weapon: the mean HDR roll times the share of hull results,
# plus a flat value for a system hit. Computed once from the tables.
_HIT_VALUE: dict[str, float] = {}


def hit_value(code: str) -> float:
    """Expected 'hull-point equivalent' damage of one hit of this weapon on the Damage Table."""
    v = _HIT_VALUE.get(code)
    if v is None:
        t = tables()
        w = t.weapons[code]
        mean = w.hdr[0] * (w.hdr[1] + 1) / 2 + w.hdr[2]
        total = 0.0
        for roll in range(1, 101):
            row = t.damage_row(roll + w.dtm)
            if row.result == "hull":
                total += mean * (2 if row.double else 1)
            elif row.result in ("disaster", "fire"):
                total += 12
            else:
                total += 6  # a system hit: worth about a few hull points in lost capability
        v = _HIT_VALUE[code] = total / 100
    return v


def shot_value(state, firer: Ship, widx: int, target: Ship, geometry=None) -> tuple[float, int]:
    """(expected value, chance%) of firing weapon ``widx`` of ``firer`` at ``target`` now: chance x hit value,
    with a bonus when the target is close to destruction and weighted by the target's points."""
    code = firer.weapons[widx][0]
    defensive = state.fire_mode == "def"
    g = geometry or fire_phase.geometry(state, firer, code, target, defensive)
    if g is None:
        return 0.0, 0
    _h, dist, head = g
    col = defense_column(code, operating_defenses(target, state.rules), state.rules)
    if firer.ms_turns > 0 and code in ("LC", "LB") and tables().combat[code]["MS"] < tables().combat[code][col]:
        col = "MS"  # firing out of its own masking screen
    chance = chance_to_hit(code, col, dist, head, firer.ccs)
    chance = max(5, min(95, chance))
    left = max(1, target.hp - target.dmg)
    value = chance / 100 * hit_value(code) * (1 + 20 / left) * (0.5 + target.points / 100)
    if target.kind in ("fighter", "scout"):
        value *= 1.2
    return value, chance


def enemy_threat(state, me: Ship, pos, player: int) -> float:
    """How much enemy fire could reach ``pos`` (a rough count of enemy weapons in range, weighted)."""
    total = 0.0
    for e in state.ships:
        if e.owner == player or e.status != ACTIVE:
            continue
        d = hexgrid.distance(e.pos, pos)
        for code, n, _mx, stt in e.weapons:
            if stt != OK or n == 0 or not tables().weapons[code].fired:
                continue
            if d <= weapon_range(code, state.rules) + 2:
                total += hit_value(code) * 0.3
    return total


def position_value(state, me: Ship, pos, facing: int, speed: int, player: int, closing: float = 0.05) -> float:
    """How good it is for ``me`` to end its move at ``pos`` facing ``facing``: weapons that will bear on the
    nearest enemies next fire phase (FF weapons need the forward field), range, and room on the map."""
    return PositionValue(state, me, player, closing)(pos, facing, speed)


class PositionValue:
    """``position_value`` of one ship in one state for many end hexes: the weapons and enemies are read once,
    and each (weapon, range, enemy points) value is computed once; the floats are the same."""

    def __init__(self, state, me: Ship, player: int, closing: float = 0.05) -> None:
        self.state = state
        self.me = me
        self.player = player
        self.closing = closing
        self.enemies = [(e.pos, e.points) for e in state.ships if e.owner != player and e.status == ACTIVE]
        weapons = []
        for code, n, _mx, stt in me.weapons:
            if stt != OK or n == 0:
                continue
            w = tables().weapons[code]
            if not w.fired:
                continue
            weapons.append((code, weapon_range(code, state.rules), w.ff, w.rd))
        self.weapons = weapons
        self._shot: dict = {}

    def _value(self, code: str, ff: bool, rd: bool, d: int, points) -> float:
        key = (code, d, points)
        v = self._shot.get(key)
        if v is None:
            c = tables().combat[code]["RH"] - (5 * d if rd else 0) + (10 if ff else 0)
            v = self._shot[key] = max(c, 5) / 100 * hit_value(code) * (0.5 + points / 100)
        return v

    def __call__(self, pos, facing: int, speed: int) -> float:
        from deltav.games.knighthawks.combat import in_forward_field

        enemies = self.enemies
        if not enemies:
            return 0.0
        score = 0.0
        dists = [hexgrid.distance(pos, ep) for ep, _pts in enemies]
        for code, reach, ff, rd in self.weapons:
            best = 0.0
            for (ep, pts), d in zip(enemies, dists):
                if d > reach + 1:
                    continue
                if ff and d > 0 and in_forward_field(pos, facing, ep, reach + 1) is None:
                    continue
                best = max(best, self._value(code, ff, rd, d, pts))
            score += best
        nearest = min(dists)
        score -= self.closing * nearest
        edge = self.state.map.radius - hexgrid.length(pos)
        if edge < 3:
            score -= (3 - edge) * 2.0 + speed * 0.3
        if self.me.severe():
            score -= 0.5 * enemy_threat(self.state, self.me, pos, self.player)
        return score


_PLANS: dict = {}  # (map key, pos, mr, speed, facing, navdir, evading) -> plans(): pure movement, shared


def plans(state, me: Ship, speed: int, facing: int, navdir: int, evading: bool) -> list[tuple[tuple[int, ...], object]]:
    """A handful of turn patterns for a plotted speed: straight, single turns early/middle/late, and two or
    three turns the same way at the start or the end. Returns (turns, final PlotState) for the legal ones (a
    new list; the result depends only on the map, the ship's hex and MR and the arguments, so it is cached
    per map across states)."""
    key = (state.map.key(), me.pos, me.mr, speed, facing, navdir, evading)
    got = _PLANS.get(key)
    if got is None:
        if len(_PLANS) > 3_000:  # about 9 KB an entry
            _PLANS.clear()
        got = _PLANS[key] = tuple(_plans(state.map, me.pos, me.mr, speed, facing, navdir, evading))
    return list(got)


def _plans(map_, pos, mr: int, speed: int, facing: int, navdir: int, evading: bool) -> list:
    n = speed
    pats: list[tuple[int, ...]] = [tuple([0] * n)]
    if mr > 0 and n > 0:
        for d in (1, -1):
            for at in sorted({0, n // 2, n - 1}):
                t = [0] * n
                t[at] = d
                pats.append(tuple(t))
            for k in (2, 3):
                if mr >= k and n >= k:
                    pats.append(tuple([d] * k + [0] * (n - k)))
                    pats.append(tuple([0] * (n - k) + [d] * k))
        if evading or navdir:
            forced = tuple((navdir or 1) if i < mr else 0 for i in range(n))
            pats.append(forced)
            if evading:
                pats.append(tuple((1 if i % 2 == 0 else -1) if i < mr else 0 for i in range(n)))
    out = []
    seen = set()
    for p in pats:
        if p in seen:
            continue
        seen.add(p)
        st = start_plot(pos, facing)
        ok = True
        for t in p:
            if st.end:
                break
            if t not in turn_choices(st, mr, navdir, evading):
                ok = False
                break
            nxt = advance(map_, st, t, n)
            if nxt is None:
                ok = False
                break
            st = nxt
        if ok and st.end != "crash":
            out.append((p, st))
    return out


def best_screen(state, me: Ship, player: int) -> str | None:
    """The powered screen (or None) that minimises the enemy's summed chance to hit this ship."""
    options = [None] + [c for c in ("PS", "ES", "SS") if me.has_working_defense(c)]
    if len(options) == 1 or me.short:
        return me.screen
    codes = []
    for e in state.ships:
        if e.owner != player and e.status == ACTIVE:
            for code, n, _mx, stt in e.weapons:
                if stt == OK and n != 0 and tables().weapons[code].fired:
                    codes.append(code)
    if not codes:
        return me.screen
    base = ["RH"] if me.has_working_defense("RH") else []
    best, best_v = me.screen, None
    for opt in options:
        defs = base + ([opt] if opt else [])
        v = sum(tables().combat[c][defense_column(c, defs, state.rules)] for c in codes)
        if best_v is None or v < best_v:
            best, best_v = opt, v
    return best


REPAIR_ORDER = ("fire", "adf", "mr", "hull", "short", "ccs", "nav", "dc")


def repair_priorities(me: Ship, targets: list[str]) -> list[str]:
    """Repair targets in the order a careful captain would fix them."""

    def key(t: str) -> tuple[int, int]:
        if t in REPAIR_ORDER:
            k = REPAIR_ORDER.index(t)
            if t == "hull" and not me.severe():
                k = 20
            if t in ("adf", "mr") and (me.adf if t == "adf" else me.mr) > 0:
                k = 9
            return (k, 0)
        if t[0] == "w":
            code = me.weapons[int(t[1:])][0]
            return (10, -int(hit_value(code) * 10))
        return (12, 0)

    return sorted(targets, key=key)


def material(state, player: int) -> float:
    """A simple evaluation for search bots: own surviving value minus the enemy's, in points (each ship
    counts its points scaled by remaining hull, halved while severely damaged)."""
    total = 0.0
    for s in state.ships:
        if s.status == DEAD:
            v = 0.0
        elif s.status == GONE:
            v = s.points * 0.5
        else:
            v = s.points * (0.3 + 0.7 * (s.hp - s.dmg) / s.hp)
            if s.severe():
                v *= 0.8
        total += v if s.owner == player else -v
    return total


def evaluate(state, player: int) -> float:
    """Evaluation for search bots at a playout cap: ``material`` scaled to [-1, 1] by the total points."""
    if state.is_terminal():
        return float(state.returns()[player])
    total = sum(s.points for s in state.ships) or 1
    v = material(state, player) / total
    return max(-1.0, min(1.0, 2.0 * v))


def rollout_policy(state, player: int, legal: list, rng):
    """A cheap playout policy: hold or gently change course (no random flights off the map), fire whatever
    bears, intercept with a few ICMs, skip repairs."""
    from deltav.games.knighthawks import messages as m

    first = legal[0]
    t = type(first)
    if t is m.Step:
        return m.Step(0) if m.Step(0) in legal and rng.below(3) else legal[rng.below(len(legal))]
    if t is m.Intercept:
        best = max(a.icms for a in legal)
        want = m.Intercept(min(best, 2), any(a.evade for a in legal))
        return want if want in legal else first
    assigns = [a for a in legal if type(a) is m.Assign]
    if assigns:
        return assigns[rng.below(len(assigns))] if rng.below(10) else m.Fire()
    if m.Fire() in legal:
        return m.Fire()
    if m.EndRepair() in legal:
        return m.EndRepair()
    courses = [a for a in legal if type(a) is m.Course]
    if courses and rng.below(2):
        ship = state.ship(courses[0].ship)
        near = [a for a in courses if abs(a.speed - ship.speed) <= 1 and a.facing == ship.facing] or courses
        return near[rng.below(len(near))]
    if m.EndMovement() in legal:
        return m.EndMovement()
    return legal[rng.below(len(legal))]
