"""The look-ahead planner of the Deep Space Combat bots (the ``hard`` level): belief over enemy designs, exact
shot odds, a whole-side plot chosen by search over candidate velocities, value-keeping damage allocation and
self-destruct by expected value.

What it does, from a bot's ``Decision`` only (view, legal actions, its rng, ``sample_world``):

- **Belief** (:func:`particles`): ``k`` sampled worlds (``decision.sample_world``) give ``k`` stat vectors per
  enemy ship, consistent with its size, the hit points it took, what it was seen doing, and weighted by the
  likelihood of the logged shots (the game's determinizer).
- **Exact odds** (:func:`kill_prob`, :func:`shot_moments`): hit probability from the exact 2d6 x stat
  distribution, hit points from the exact damage distribution. The chance that shots destroy a ship is the
  chance their summed hit points reach its remaining design points: exact for one and two shots, a normal
  approximation for more.
- **Side plot** (:func:`plan_round`): a compact set of candidate velocities per ship (hold, stop, half and
  full burns in six directions, the hexes where the enemies are predicted to end this round's movement and
  next round's, by :mod:`opponent`'s movement model, or where they would be if they kept their velocity),
  pre-scored one ship at a time, the best few kept; then coordinate ascent over the ships. Each
  plan is scored with its best weapon-target assignment (:meth:`Side.assign`: every assignment up to
  ``ENUMERATE``, else greedy ascent; value = threat-weighted kill chances and partial damage, plus the chance of
  annihilating the enemy this round in a two-fleet battle, plus expected hit points under the campaign score)
  minus the same measure of what a sound enemy is expected to do to us (:meth:`Side.loss`), plus rams.
- **Allocation** (:func:`allocation_step`): the stat slots to keep are chosen to maximise the ship's value
  (weapons' expected damage against the enemies x the rounds it is expected to last), so a damaged ship keeps
  one whole weapon rather than two halves, and its weapon rather than its thrust.
- **Self-destruct** (:func:`destruct_value`): threat-weighted kill chances of the explosion against the enemy
  ships in the hex, against the ship's own value and the friends it would hit.
- **Design** (:func:`archetypes`): the archetype library ``data/archetypes.toml`` (validated).

This module owns bot-side planning only: it reads views and sampled worlds and never changes a game state.
"""

from __future__ import annotations

import itertools
import math
import operator
from bisect import bisect_left
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Annotated

from deltav.core import datafile
from deltav.core.errors import ScenarioError
from deltav.core.hexgrid import distance
from deltav.core.shape import MinLen
from deltav.games.deepspace import damage as dmg
from deltav.games.deepspace.bots.opponent import MAX_TRUST, enemy_detonates
from deltav.games.deepspace.design import ShipDesign, ShipFile, design_of, read_data_file, readable_file
from deltav.games.deepspace.movement import thrust_cost
from deltav.games.deepspace.odds import TWO_D6, expected_damage, p_hit

#: weight of partial damage (the share of a ship's points it would lose) next to a kill
PARTIAL = 0.3
#: probability that an enemy ship is where it would be if it kept its velocity (for rams)
P_MEET = 0.5
#: candidate velocities kept per ship after pre-scoring
CANDIDATES = 6
#: weight of one expected hit point of campaign score (three or more fleets, or the score ruling)
SCORE_WEIGHT = 1.0
#: rounds beyond the current one a ship is expected to last at most, in the allocation's value of a ship
LIFE_CAP = 8.0
#: weapon-target assignments enumerated at most (beyond: greedy with improvement passes)
ENUMERATE = 1024


# --- exact odds ---------------------------------------------------------------------------------------------


@lru_cache(maxsize=65536)
def damage_moments(damage: int, endurance: int) -> tuple[float, float]:
    """Mean and second moment of the hit points of one damage roll (negative rolls count 0)."""
    m1 = m2 = 0.0
    for a, wa in TWO_D6:
        for e, we in TWO_D6:
            hp = a * damage - e * endurance
            if hp > 0:
                w = wa * we / 1296
                m1 += hp * w
                m2 += hp * hp * w
    return m1, m2


@lru_cache(maxsize=65536)
def _tail_table(damage: int, endurance: int) -> tuple[list[int], list[float]]:
    """Distinct hit point values of one damage roll, ascending, and P(hit points >= value) for each."""
    items = _pmf_items(damage, endurance)
    values = [hp for hp, _w in items]
    tails = []
    acc = 0.0
    for _hp, w in reversed(items):
        acc += w
        tails.append(acc)
    tails.reverse()
    return values, tails


def damage_tail(damage: int, endurance: int, need: int) -> float:
    """P(one damage roll deals at least ``need`` hit points), exact."""
    values, tails = _tail_table(damage, endurance)
    i = bisect_left(values, need)
    return tails[i] if i < len(tails) else 0.0


@lru_cache(maxsize=262144)
def shot_moments(t: int, d: int, targets: tuple, r: int) -> tuple[float, float, float]:
    """(hit probability, mean hit points, second moment) of one shot against a target whose (evasion,
    endurance) is one of ``targets`` (particles, equally likely)."""
    ph = m1 = m2 = 0.0
    for e, en in targets:
        p = p_hit(t, e, r)
        a, b = damage_moments(d, en)
        ph += p
        m1 += p * a
        m2 += p * b
    n = len(targets)
    return ph / n, m1 / n, m2 / n


@lru_cache(maxsize=4096)
def _pmf_items(damage: int, endurance: int) -> tuple[tuple[int, float], ...]:
    out: dict[int, float] = {}
    for a, wa in TWO_D6:
        for e, we in TWO_D6:
            hp = a * damage - e * endurance
            hp = hp if hp > 0 else 0
            out[hp] = out.get(hp, 0.0) + wa * we / 1296
    return tuple(sorted(out.items()))


@lru_cache(maxsize=262144)
def kill_prob(shots: tuple[tuple[int, int, int], ...], evasion: int, endurance: int, need: int) -> float:
    """P(the shots ``(targeting, damage, range)`` together deal at least ``need`` hit points) to a target of
    ``evasion`` and ``endurance``: exact for up to two shots (sum over the exact damage distribution), a
    normal approximation beyond. ``shots`` should be sorted (it is a cache key)."""
    if need <= 0:
        return 1.0
    if not shots:
        return 0.0
    if len(shots) > 2:
        mean = var = 0.0
        for t, d, r in shots:
            p = p_hit(t, evasion, r)
            a, b = damage_moments(d, endurance)
            mean += p * a
            var += p * b - (p * a) ** 2
        return p_reach(mean, var, need)
    t, d, r = shots[0]
    p = p_hit(t, evasion, r)
    if len(shots) == 1:
        return p * damage_tail(d, endurance, need)
    t2, d2, r2 = shots[1]
    p2 = p_hit(t2, evasion, r2)
    values, tails = _tail_table(d2, endurance)
    last = len(values)
    alone = damage_tail(d2, endurance, need)
    acc = 0.0
    for hp, w in _pmf_items(d, endurance):
        if hp >= need:
            acc += w
        else:
            i = bisect_left(values, need - hp)
            acc += w * (p2 * tails[i] if i < last else 0.0) if hp > 0 else w * p2 * alone
    return (1.0 - p) * p2 * alone + p * acc


def p_reach(mean: float, var: float, need: float) -> float:
    """P(sum of hit points >= need) under a normal approximation."""
    if need <= 0:
        return 1.0
    if var <= 1e-9:
        return 1.0 if mean >= need else 0.0
    return 0.5 * math.erfc((need - 0.5 - mean) / math.sqrt(2.0 * var))


def points(size: int, lv) -> int:
    """Design points held by stat slots ``lv`` (ship stats cost ``size`` a level, weapon stats 1)."""
    return size * (lv[0] + lv[1] + lv[2]) + sum(lv[3:])


def weapons_of(lv) -> list[tuple[int, int]]:
    return [(lv[k], lv[k + 1]) for k in range(3, len(lv) - 1, 2)]


# --- belief -------------------------------------------------------------------------------------------------


def view_levels(sv: dict) -> list[int]:
    """Stat slots of one of the viewer's own ships, from its view."""
    lv = [sv["thrust"], sv["evasion"], sv["endurance"]]
    for t, d in sv["weapons"]:
        lv += [t, d]
    return lv


def particles(decision, k: int) -> dict[str, list[list[int]]]:
    """``k`` sampled stat vectors per active enemy ship (from ``k`` determinizations of the view)."""
    out: dict[str, list[list[int]]] = {}
    enemy = [s["id"] for s in decision.view["ships"] if s["owner"] != decision.player and s["status"] == "active"]
    if not enemy:
        return out
    for _ in range(k):
        world = decision.sample_world(decision.rng)
        for sid in enemy:
            out.setdefault(sid, []).append(list(world.ship(sid).lv))
    return out


class Unit:
    """A ship as the planner sees it: public facts plus stat particles (one exact vector for own ships)."""

    __slots__ = ("id", "owner", "size", "pos", "vel", "parts", "points", "defence", "weapons", "levels")

    def __init__(self, sv: dict, parts: list[list[int]]):
        self.id = sv["id"]
        self.owner = sv["owner"]
        self.size = sv["size"]
        self.pos = tuple(sv["pos"])
        self.vel = tuple(sv["vel"])
        self.parts = parts
        self.points = sum(points(self.size, lv) for lv in parts) / len(parts)
        self.defence = tuple((lv[1], lv[2]) for lv in parts)
        self.weapons = [weapons_of(lv) for lv in parts]
        self.levels = sum(sum(lv) for lv in parts) / len(parts)  # explosion damage level


def units(view: dict, me: int, parts: dict[str, list[list[int]]]) -> tuple[list[Unit], list[Unit]]:
    mine, enemies = [], []
    for sv in view["ships"]:
        if sv["status"] != "active" or sv["pos"] is None:
            continue
        if sv["owner"] == me:
            mine.append(Unit(sv, [view_levels(sv)]))
        elif sv["id"] in parts:
            enemies.append(Unit(sv, parts[sv["id"]]))
    return mine, enemies


def threat(u: Unit, foes: list[Unit], pos, foe_pos) -> float:
    """Expected hit points ``u`` deals per round with every weapon at its best target (mean over particles)."""
    if not foes:
        return 0.0
    total = 0.0
    for ws in u.weapons:
        for t, d in ws:
            if t + d <= 0:
                continue
            total += max(shot_moments(t, d, f.defence, distance(pos, foe_pos[f.id]))[1] for f in foes)
    return total / len(u.weapons) + 0.01 * u.points


# --- whole-side plot ----------------------------------------------------------------------------------------


def _velocity_candidates(u: Unit, thrust: int, targets) -> list[tuple[int, int]]:
    """A compact set of velocities within ``thrust`` of the current one: hold, stop, half and full burns in the
    six directions, and for each enemy position in ``targets`` (this round's and next round's predicted hexes)
    the velocity that ends there this round, or halfway there."""
    v0 = u.vel
    out = {v0}
    if thrust <= 0:
        return [v0]
    if thrust_cost(v0, (0, 0)) <= thrust:
        out.add((0, 0))
    for dq, dr in ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)):
        for step in sorted({max(1, thrust // 2), thrust}):
            out.add((v0[0] + dq * step, v0[1] + dr * step))
    for q, r in targets:
        full = (q - u.pos[0], r - u.pos[1])
        half = ((q - u.pos[0]) // 2, (r - u.pos[1]) // 2)
        for v in (full, half):
            if thrust_cost(v0, v) <= thrust:
                out.add(v)
    return sorted(out)


class Side:
    """The evaluation context of one round's plot for the planning player."""

    def __init__(self, view: dict, me: int, parts: dict[str, list[list[int]]], pred: dict | None = None):
        self.view = view
        self.me = me
        self.mine, self.enemies = units(view, me, parts)
        scored = len(view["players"]) > 2 or view["options"].get("two_fleet_victory") == "score"
        self.scored = scored
        self.modelled = pred is not None
        self.epos = {}
        self.enext = {}
        self.meet: dict[str, dict] = {}  # enemy id -> {hex: probability it ends this round's movement there}
        for e in self.enemies:
            preds = (pred or {}).get(e.id)
            if preds:
                counts: dict = {}
                for pos, v in preds:
                    counts[(pos, v)] = counts.get((pos, v), 0) + 1
                (pos, v), _n = max(sorted(counts.items()), key=lambda kv: kv[1])
                self.epos[e.id] = pos
                self.enext[e.id] = (pos[0] + v[0], pos[1] + v[1])
                share: dict = {}
                for p, _v in preds:
                    share[p] = share.get(p, 0.0) + 1.0 / len(preds)
                self.meet[e.id] = {p: min(MAX_TRUST, w) for p, w in share.items()}
            else:
                self.epos[e.id] = (e.pos[0] + e.vel[0], e.pos[1] + e.vel[1])
                self.enext[e.id] = (e.pos[0] + 2 * e.vel[0], e.pos[1] + 2 * e.vel[1])
                self.meet[e.id] = {self.epos[e.id]: P_MEET}
        self.public = {sv["id"]: sv for sv in view["ships"]}
        base = {u.id: (u.pos[0] + u.vel[0], u.pos[1] + u.vel[1]) for u in self.mine}
        self.e_threat = {e.id: threat(e, self.mine, self.epos[e.id], base) for e in self.enemies}
        self.m_threat = {u.id: threat(u, self.enemies, base[u.id], self.epos) for u in self.mine}
        two = len(view["players"]) == 2 and view["options"].get("two_fleet_victory") == "annihilation"
        self.bonus = sum(self.e_threat.values()) if two else 0.0
        self._tv: dict = {}
        self._reps: list[int] | None = None  # loss: particle index -> first index with the same enemy weapons

    # -- weapons --
    def _shots(self, npos):
        shots = []  # (ship id, weapon, {target: (t, d, range)})
        for u in self.mine:
            for w, (t, d) in enumerate(u.weapons[0]):
                if t + d <= 0:
                    continue
                shots.append((u.id, w, {e.id: (t, d, distance(npos[u.id], self.epos[e.id])) for e in self.enemies}))
        return shots

    def _target_value(self, e: Unit, aimed: tuple) -> tuple[float, float]:
        """(threat-weighted value of the shots ``aimed`` at enemy ``e``, their kill probability), averaged over
        its particles."""
        key = (e.id, aimed)
        hit = self._tv.get(key)
        if hit is not None:
            return hit
        pk = 0.0
        mean = 0.0
        hp = 0.0
        for lv in e.parts:
            need = points(e.size, lv)
            pk += kill_prob(aimed, lv[1], lv[2], need)
            m = 0.0
            for t, d, r in aimed:
                m += p_hit(t, lv[1], r) * damage_moments(d, lv[2])[0]
            mean += min(1.0, m / max(1, need))
            hp += m
        n = len(e.parts)
        pk /= n
        mean /= n
        v = self.e_threat[e.id] * (pk + PARTIAL * (1.0 - pk) * mean)
        if self.scored:  # the campaign score counts every hit point rolled, overkill included
            v += SCORE_WEIGHT * hp / n
        hit = self._tv[key] = (v, pk)
        return hit

    def _assignment_value(self, shots, choice) -> float:
        aimed: dict[str, list] = {e.id: [] for e in self.enemies}
        for k, (_sid, _w, opts) in enumerate(shots):
            tgt = choice[k]
            if tgt is not None:
                aimed[tgt].append(opts[tgt])
        total = 0.0
        all_dead = 1.0
        for e in self.enemies:
            v, pk = self._target_value(e, tuple(sorted(aimed[e.id])))
            total += v
            all_dead *= pk
        return total + self.bonus * all_dead

    def _enumerated_value(self, shots):
        """``_assignment_value`` for the exhaustive enumeration: a combination is a target index per shot, and
        each target's (value, kill chance) is looked up by the set of shots aimed at it (a bit mask), so the
        shots are sorted once per target and set, not once per combination. Same terms, same order."""
        enemies = self.enemies
        bits = [1 << k for k in range(len(shots))]
        memo = [{} for _ in enemies]
        bonus = self.bonus

        def value(combo) -> float:
            masks = [0] * len(enemies)
            for k, j in enumerate(combo):
                masks[j] |= bits[k]
            total = 0.0
            all_dead = 1.0
            for j, e in enumerate(enemies):
                mask = masks[j]
                hit = memo[j].get(mask)
                if hit is None:
                    aimed = tuple(sorted(shots[k][2][e.id] for k in range(len(shots)) if mask & bits[k]))
                    hit = memo[j][mask] = self._target_value(e, aimed)
                v, pk = hit
                total += v
                all_dead *= pk
            return total + bonus * all_dead

        return value

    def _greedy(self, shots, ids):
        """Coordinate ascent over the weapons' targets (from all holding), re-valuing only the two targets
        a change touches."""
        ents = {e.id: e for e in self.enemies}
        aimed: dict[str, list] = {eid: [] for eid in ids}
        val = {eid: self._target_value(ents[eid], ())[0] for eid in ids}
        pk = {eid: self._target_value(ents[eid], ())[1] for eid in ids}
        choice: list = [None] * len(shots)
        bonus = self.bonus

        def all_dead(changes):
            if not bonus:
                return 0.0
            prod = 1.0
            for eid in ids:
                prod *= changes.get(eid, pk[eid])
            return bonus * prod

        current = sum(val.values()) + all_dead({})
        for _ in range(3):
            improved = False
            for k in range(len(shots)):
                opts = shots[k][2]
                old = choice[k]
                if old is not None:
                    lst = list(aimed[old])
                    lst.remove(opts[old])
                    old_v, old_pk = self._target_value(ents[old], tuple(sorted(lst)))
                    base_delta = old_v - val[old]
                else:
                    lst, old_v, old_pk, base_delta = None, 0.0, 0.0, 0.0
                best_t, best_total, best_state = old, current, None
                for tgt in ids:
                    if tgt == old:
                        continue
                    new = tuple(sorted(aimed[tgt] + [opts[tgt]]))
                    nv, npk = self._target_value(ents[tgt], new)
                    changes = {tgt: npk}
                    if old is not None:
                        changes[old] = old_pk
                    tot = current - (val[tgt] - nv) + base_delta - all_dead({}) + all_dead(changes)
                    if tot > best_total + 1e-12:
                        best_t, best_total, best_state = tgt, tot, (new, nv, npk)
                if best_state is not None:
                    if old is not None:
                        aimed[old] = lst
                        val[old], pk[old] = old_v, old_pk
                    new, nv, npk = best_state
                    aimed[best_t] = list(new)
                    val[best_t], pk[best_t] = nv, npk
                    choice[k] = best_t
                    current = best_total
                    improved = True
            if not improved:
                break
        return choice, current

    def assign(self, npos: dict[str, tuple[int, int]], exhaustive: bool = False):
        """Weapon-target assignment for own ships at ``npos``: every assignment when ``exhaustive`` and there
        are at most ``ENUMERATE`` of them, else greedy with two improvement passes. The value of an assignment
        is the threat-weighted kill chance of each target (exact for up to three shots at it) plus partial
        damage, plus, in a two-fleet battle to annihilation, the whole enemy fleet's threat times the chance
        that every enemy ship dies this round. Returns ``({(ship, weapon): target}, value)``."""
        shots = self._shots(npos)
        ids = [e.id for e in self.enemies]
        if not shots:
            return {}, self._assignment_value(shots, [])
        if exhaustive and len(ids) ** len(shots) <= ENUMERATE:
            best, best_v = None, None
            value = self._enumerated_value(shots)
            for combo in itertools.product(range(len(ids)), repeat=len(shots)):
                v = value(combo)
                if best_v is None or v > best_v + 1e-12:
                    best, best_v = combo, v
            choice = [ids[j] for j in best]
        else:
            choice, best_v = self._greedy(shots, ids)
        out = {(sid, w): choice[k] for k, (sid, w, _o) in enumerate(shots)}
        return out, best_v

    def loss(self, npos: dict[str, tuple[int, int]]) -> float:
        """Threat-weighted kill chances and damage the enemies are expected to inflict on own ships at
        ``npos``, averaged over the particles. The enemy is modelled as a sound player: each of its weapons
        fires at the own ship where its expected damage, capped by what that ship has left after the fire
        already aimed at it, is highest. Particles whose enemy weapons are the same give the same terms, so
        those are computed once (and added in the same order)."""
        total = 0.0
        k = len(self.enemies[0].parts) if self.enemies else 1
        reps = self._loss_reps(k)
        done: dict = {}
        for i in range(k):
            terms = done.get(reps[i])
            if terms is None:
                terms = done[reps[i]] = self._loss_terms(i, npos)
            for x in terms:
                total += x
        return total / k

    def _loss_reps(self, k: int) -> list[int]:
        """For each particle index, the first index whose enemy weapons (every enemy's) are the same."""
        reps = self._reps
        if reps is None or len(reps) != k:
            first: dict = {}
            reps = []
            for i in range(k):
                key = tuple(tuple(e.weapons[i % len(e.weapons)]) for e in self.enemies)
                reps.append(first.setdefault(key, i))
            self._reps = reps
        return reps

    def _loss_terms(self, i: int, npos) -> list[float]:
        """The terms ``loss`` adds for particle ``i``, in order."""
        out = []
        aimed = {u.id: [] for u in self.mine}
        left = {u.id: float(u.points) for u in self.mine}
        for e in self.enemies:
            epos = self.epos[e.id]
            for t, d in e.weapons[i % len(e.weapons)]:
                if t + d <= 0:
                    continue
                best, best_v, best_shot, best_m = None, 0.0, None, 0.0
                for u in self.mine:
                    r = distance(epos, npos[u.id])
                    ev, en = u.defence[0]
                    m = p_hit(t, ev, r) * damage_moments(d, en)[0]
                    v = min(m, max(0.0, left[u.id]))
                    if best is None or v > best_v:
                        best, best_v, best_shot, best_m = u.id, v, (t, d, r), m
                if best is not None:
                    aimed[best].append(best_shot)
                    left[best] -= best_m
        for u in self.mine:
            shots = tuple(sorted(aimed[u.id]))
            ev, en = u.defence[0]
            need = int(u.points)
            pk = kill_prob(shots, ev, en, need)
            mean = sum(p_hit(t, ev, r) * damage_moments(d, en)[0] for t, d, r in shots)
            frac = min(1.0, mean / max(1, need))
            out.append(self.m_threat[u.id] * (pk + PARTIAL * (1.0 - pk) * frac))
            if self.scored:
                out.append(SCORE_WEIGHT * mean)
        return out

    def ram(self, u: Unit, pos) -> float:
        """Expected value of ending the movement at ``pos`` for ramming: the explosion's worth against the
        enemies expected there (each weighted by the chance it ends there), when it beats the ship's own value,
        minus the risk of being blown up by them (with the movement model: by the scripted self-destruct rule
        on their particles; without: even odds)."""
        there = [(e, self.meet[e.id][pos]) for e in self.enemies if pos in self.meet[e.id]]
        if not there or not self.view["options"].get("self_destruct", True):
            return 0.0
        gain = 0.0
        level = int(u.levels)
        risk = 0.0
        w_max = max(w for _e, w in there)
        for e, w in there:
            pk = sum(damage_tail(level, en, int(e.points)) for _e, en in e.defence) / len(e.defence)
            gain += w * self.e_threat[e.id] * pk
            ek = damage_tail(int(e.levels), u.parts[0][2], int(u.points))
            risk += w * self._p_detonate(e, u, [f for f, _w in there if f is not e]) * self.m_threat[u.id] * ek
        net = gain - w_max * self.m_threat[u.id]
        return max(0.0, net) - risk

    def _p_detonate(self, e: Unit, u: Unit, friends: list[Unit]) -> float:
        """Chance that enemy ``e`` self-destructs when own ship ``u`` shares its hex with it and ``friends``."""
        if not self.modelled:
            return 0.5
        victim = self.public.get(u.id)
        if victim is None:
            return 0.5
        n = 0
        for i, lv in enumerate(e.parts):
            fr = [(f.parts[i % len(f.parts)], f.size) for f in friends]
            if enemy_detonates(lv, e.size, [(victim, u.points)], fr):
                n += 1
        return n / len(e.parts)

    def ram_next(self, u: Unit, v: tuple[int, int], thrust: int) -> float:
        """Value of velocity ``v`` for ramming next round: an enemy expected to keep its (predicted) velocity
        will be in a hex this ship can reach next round with its thrust (worth ``P_MEET`` squared of the ram's
        net value)."""
        if not self.view["options"].get("self_destruct", True):
            return 0.0
        p1 = (u.pos[0] + v[0], u.pos[1] + v[1])
        level = int(u.levels)
        best = 0.0
        groups: dict = {}
        for e in self.enemies:
            groups.setdefault(self.enext[e.id], []).append(e)
        for e2, there in sorted(groups.items()):
            v2 = (e2[0] - p1[0], e2[1] - p1[1])
            if thrust_cost(v, v2) > thrust:
                continue
            gain = 0.0
            for e in there:
                pk = sum(damage_tail(level, en, int(e.points)) for _e, en in e.defence) / len(e.defence)
                gain += self.e_threat[e.id] * pk
            best = max(best, gain - self.m_threat[u.id])
        return P_MEET * P_MEET * best

    def score(self, npos, exhaustive: bool = False) -> tuple[float, dict]:
        choice, gain = self.assign(npos, exhaustive)
        total = gain - self.loss(npos)
        for u in self.mine:
            total += self.ram(u, npos[u.id])
        return total, choice


def plan_round(view: dict, me: int, parts: dict[str, list[list[int]]], pred: dict | None = None
               ) -> dict[str, tuple]:
    """The whole side's plot: ``{ship id: (velocity, {weapon: target id or None})}``. ``pred``: the movement
    model's predicted enemy (position, velocity) per particle (:func:`opponent.predict_moves`); without it the
    enemies are assumed to keep their velocity."""
    side = Side(view, me, parts, pred)
    if not side.mine:
        return {}
    if not side.enemies:
        return {u.id: (u.vel, {}) for u in side.mine}
    cands: dict[str, list[tuple[int, int]]] = {}
    for u in side.mine:
        thrust = u.parts[0][0]
        targets = []
        for e in side.enemies:
            targets.extend(sorted(side.meet[e.id]))
            targets.append(side.enext[e.id])
        vels = _velocity_candidates(u, thrust, targets)
        pre = []
        for v in vels:
            pos = (u.pos[0] + v[0], u.pos[1] + v[1])
            give = 0.0
            take = 0.0
            for e in side.enemies:
                r = distance(pos, side.epos[e.id])
                for t, d in u.weapons[0]:
                    if t + d > 0:
                        give = max(give, shot_moments(t, d, e.defence, r)[1] * side.e_threat[e.id])
                for ws in e.weapons:
                    for t, d in ws:
                        if t + d > 0:
                            take += shot_moments(t, d, u.defence, r)[1] / len(e.weapons)
            s = give - take * side.m_threat[u.id] / max(1.0, len(side.mine))
            s += 50 * (side.ram(u, pos) + side.ram_next(u, v, thrust))
            s -= 0.01 * thrust_cost((0, 0), v)
            pre.append((-s, v))
        pre.sort()
        keep = [v for _s, v in pre[:CANDIDATES]]
        for v in (u.vel, (0, 0)):
            if v not in keep and thrust_cost(u.vel, v) <= thrust:
                keep.append(v)
        cands[u.id] = keep
    vel = {u.id: cands[u.id][0] for u in side.mine}

    def npos_of(vel):
        return {u.id: (u.pos[0] + vel[u.id][0], u.pos[1] + vel[u.id][1]) for u in side.mine}

    thrusts = {u.id: u.parts[0][0] for u in side.mine}

    def total(vel, exhaustive=False):
        sc, ch = side.score(npos_of(vel), exhaustive)
        return sc + sum(side.ram_next(u, vel[u.id], thrusts[u.id]) for u in side.mine), ch

    best_score, choice = total(vel)
    for u in side.mine:
        for v in cands[u.id][1:]:
            trial = dict(vel)
            trial[u.id] = v
            sc, ch = total(trial)
            if sc > best_score + 1e-9:
                best_score, choice, vel = sc, ch, trial
    best_score, choice = total(vel, exhaustive=True)
    out = {}
    for u in side.mine:
        shots = {w: choice.get((u.id, w)) for w in range(len(u.weapons[0]))}
        out[u.id] = (vel[u.id], shots)
    return out


# --- allocation ---------------------------------------------------------------------------------------------


class Valuer:
    """Combat value of one's own ship for damage allocation, against a fixed picture of the enemies:
    ``refs`` (enemy (evasion, endurance), weight) and ``incoming`` (enemy weapons (targeting, damage), weight),
    at range ``r``; expected incoming hit points are divided by ``inc_scale`` (the fire is shared among one's
    ships and the weights sum over particles)."""

    def __init__(self, refs, incoming, r: int, inc_scale: float = 1.0):
        self.refs = list(refs)
        self.incoming = list(incoming)
        self.r = r
        self.inc_scale = inc_scale
        self.wsum = float(sum(w for _p, w in self.refs)) or 1.0
        self._off: dict = {}
        self._inc: dict = {}
        self._hit: dict = {}
        self._dmg: dict = {}

    def weapon(self, t: int, d: int) -> float:
        key = (t, d)
        v = self._off.get(key)
        if v is None:
            if t <= 0 and d <= 0:
                v = 0.0
            else:
                pv = self._hit.get(t)
                if pv is None:
                    r = self.r
                    pv = self._hit[t] = [w * p_hit(t, e, r) for (e, _en), w in self.refs]
                dv = self._dmg.get(d)
                if dv is None:
                    dv = self._dmg[d] = [expected_damage(d, en) for (_e, en), _w in self.refs]
                v = sum(map(operator.mul, pv, dv)) / self.wsum
            self._off[key] = v
        return v

    def incoming_hp(self, ev: int, en: int) -> float:
        key = (ev, en)
        v = self._inc.get(key)
        if v is None:
            r = self.r
            v = self._inc[key] = sum(
                w * p_hit(t, ev, r) * expected_damage(d, en) for (t, d), w in self.incoming
            ) / self.inc_scale
        return v

    def value(self, size: int, lv) -> float:
        """Weapons' expected hit points per round x the rounds the ship is expected to last (1 to 1 +
        ``LIFE_CAP``), x 1.05 if it can still move, plus 0.05 per design point left."""
        pts = points(size, lv)
        if pts <= 0:
            return 0.0
        off = 0.0
        for k in range(3, len(lv) - 1, 2):
            t, d = lv[k], lv[k + 1]
            if t > 0 or d > 0:
                off += self.weapon(t, d)
        inc = self.incoming_hp(lv[1], lv[2])
        life = 1.0 + min(LIFE_CAP, pts / max(1.0, inc))
        mobility = 1.0 if lv[0] <= 0 else 1.05
        return off * life * mobility + 0.05 * pts


def weighted(pairs) -> list[tuple[tuple[int, int], int]]:
    """``pairs`` grouped as ``(pair, count)``, sorted (the allocation's inputs, deduplicated)."""
    out: dict = {}
    for x in pairs:
        x = tuple(x)
        out[x] = out.get(x, 0) + 1
    return sorted(out.items())


def _grid(level: int) -> list[int]:
    return sorted({0, level, level // 4, level // 2, (3 * level) // 4})


def _best_split(valuer: Valuer, t0: int, d0: int, budget: int) -> tuple[int, int]:
    """The (targeting, damage) within (t0, d0) and summing to ``budget`` that the valuer rates highest."""
    best, best_v = (min(t0, budget), budget - min(t0, budget)), -1.0
    for t in range(max(0, budget - d0), min(t0, budget) + 1):
        v = valuer.weapon(t, budget - t)
        if v > best_v + 1e-12:
            best, best_v = (t, budget - t), v
    return best


def allocation_target(size: int, lv, remaining: int, valuer: Valuer) -> list[int] | None:
    """The stat slots to keep after ``remaining`` hit points, chosen to maximise the ship's value: every
    combination of kept thrust, evasion and endurance on a grid (none, a quarter ... all), the rest of the kept
    points split among the weapons, the most valuable weapon first, each at its best targeting/damage split.
    The kept points are exactly the ship's points less ``remaining`` (ship stats in whole levels), so the hit
    points are placed without loss. None when no such split exists."""
    keep = points(size, lv) - remaining
    if keep <= 0:
        return None
    weapons = weapons_of(lv)
    order = sorted(range(len(weapons)), key=lambda w: (-valuer.weapon(*weapons[w]), w))
    wtotal = sum(t + d for t, d in weapons)
    best, best_v = None, -1.0
    for th in _grid(lv[0]):
        for ev in _grid(lv[1]):
            for en in _grid(lv[2]):
                b = keep - size * (th + ev + en)
                if b < 0 or b > wtotal:
                    continue
                cand = [th, ev, en] + [0] * (2 * len(weapons))
                for w in order:
                    t0, d0 = weapons[w]
                    share = min(b, t0 + d0)
                    if share > 0:
                        t, d = _best_split(valuer, t0, d0, share)
                        cand[3 + 2 * w], cand[4 + 2 * w] = t, d
                    b -= share
                v = valuer.value(size, cand)
                if v > best_v + 1e-12:
                    best, best_v = cand, v
    return best


def allocation_step(size: int, lv, partial, remaining: int, mode: str, valuer: Valuer):
    """The next allocation step ``(slot, hp)``: toward :func:`allocation_target` when one exists (ruling
    ``lost``), else by :func:`greedy_step`."""
    if mode == "lost":
        target = allocation_target(size, lv, remaining, valuer)
        if target is not None:
            for k, (have, want) in enumerate(zip(lv, target)):
                if have > want:
                    hp = (have - want) * dmg.slot_cost(k, size)
                    if hp <= remaining and dmg.is_legal(size, lv, partial, remaining, k, hp, mode):
                        return (k, hp)
    return greedy_step(size, lv, partial, remaining, mode, valuer)


def greedy_step(size: int, lv, partial, remaining: int, mode: str, valuer: Valuer):
    """The allocation step ``(slot, hp)`` that loses the least ship value per hit point placed (a step that
    zeroes a weapon stat also counts the hit points its partner stat can then absorb for free); ties go to the
    bigger step, then the lower slot."""
    opts = dmg.options(size, lv, partial, remaining, mode)
    if not opts:
        return None
    v0 = valuer.value(size, lv)
    best = None
    best_key = None
    for slot, hp in opts:
        lv2 = list(lv)
        pa2 = list(partial)
        dmg.apply(size, lv2, pa2, slot, hp, mode)
        eff = hp
        if slot >= dmg.SHIP_SLOTS and lv2[slot] == 0:
            partner = slot + 1 if (slot - dmg.SHIP_SLOTS) % 2 == 0 else slot - 1
            eff += min(lv2[partner], remaining - hp)
        loss = v0 - valuer.value(size, lv2)
        key = (loss / eff, -hp, slot)
        if best_key is None or key < best_key:
            best, best_key = (slot, hp), key
    return best


# --- fleet design ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Archetype:
    """A fleet design archetype: one ship design repeated to fill a side's size levels."""

    id: str
    title: str
    note: str
    ship: ShipDesign


@dataclass(frozen=True)
class ArchetypeFile:
    """One ``[[archetypes]]`` table of the archetype library."""

    id: Annotated[str, MinLen(1)]
    title: Annotated[str, MinLen(1)]
    ship: ShipFile
    note: str = ""


@dataclass(frozen=True)
class ArchetypesFile:
    """The archetype library's layout (read by :mod:`deltav.core.datafile`)."""

    archetypes: Annotated[tuple[ArchetypeFile, ...], MinLen(1)]


@lru_cache(maxsize=4)
def archetypes(path: str | None = None) -> tuple[Archetype, ...]:
    """The archetype library (``data/archetypes.toml``, or a file at ``path``), validated: a malformed entry
    raises ``ScenarioError(field, reason, file)``."""
    if path is None:
        text = resources.files("deltav.games.deepspace").joinpath("data").joinpath("archetypes.toml").read_text()
        where = "archetypes.toml"
    else:
        p = readable_file(path)
        if p is None:
            datafile.fail("archetypes", f"{path!r} is not a readable file")
        text, where = read_data_file(p, "archetypes")
    lib = datafile.load(ArchetypesFile, text, where, "toml")
    out = []
    for i, a in enumerate(lib.archetypes):
        try:
            ship = design_of(a.ship, f"archetypes[{i}].ship")
        except ScenarioError as exc:
            datafile.fail(exc.field, exc.reason, where)
        out.append(Archetype(a.id, a.title, a.note, ship))
    return tuple(out)


def archetype_fleet(arch: Archetype, levels: int) -> list[ShipDesign]:
    """The archetype's ships for a side of ``levels`` size levels (as many as fit)."""
    return [arch.ship] * (levels // arch.ship.size)


# --- self-destruct ------------------------------------------------------------------------------------------


def destruct_value(u: Unit, side_units: list[Unit], enemies: list[Unit], own_threat: dict, e_threat: dict,
                   hits_friends: bool) -> float:
    """Expected worth of detonating ``u`` now: threat-weighted kill chances against the enemies in its hex,
    minus its own value and the expected losses of friends in the hex."""
    level = int(u.levels)
    gain = 0.0
    for e in enemies:
        if e.pos == u.pos:
            pk = sum(damage_tail(level, en, int(e.points)) for _e, en in e.defence) / len(e.defence)
            gain += e_threat[e.id] * pk + 0.01 * min(e.points, expected_damage(level, 0))
    loss = own_threat[u.id] + 0.01 * u.points
    if hits_friends:
        for f in side_units:
            if f.id != u.id and f.pos == u.pos:
                loss += own_threat[f.id] * damage_tail(level, f.parts[0][2], int(f.points))
    return gain - loss
