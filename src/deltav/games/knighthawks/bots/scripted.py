"""The Knight Hawks scripted captain (the *normal* level): screens against the enemy's weapons, each ship's move
scored over a few turn patterns per speed (weapons bearing, range, map edge, break-up risk, the scenario's
objective), weapons assigned to targets by expected damage, ICMs in proportion to the threat, torpedo evasion,
seekers near enemies and DCR spent by repair priority.

Owns: :class:`ScriptedCaptain` (the base every other bot builds on). Must not reach into the true game state.
"""

from __future__ import annotations

from deltav.core import hexgrid
from deltav.core.agent import Agent, Param
from deltav.core.protocol import Decision
from deltav.games.knighthawks import KnightHawks, fire_phase, movement_phase
from deltav.games.knighthawks import messages as m
from deltav.games.knighthawks import visibility as kh_view
from deltav.games.knighthawks.bots import heuristics as hx
from deltav.games.knighthawks.damage import breakup_chance
from deltav.games.knighthawks.movement import rotation_cost
from deltav.games.knighthawks.repair import block_sizes

#: the bounds of a weight of the bots' move scores (spec parameters)
WEIGHT = {"minimum": -100.0, "maximum": 100.0}


class ScriptedCaptain(Agent):
    name = "scripted"
    #: the spec parameters (``bot:captain:closing=0.5``) and their bounds: weights of the move score
    PARAMS = {
        "caution": Param(float, 0.0, "weight of the enemy fire that can reach a ship's end hex", **WEIGHT),
        "closing": Param(float, 0.5, "weight of the distance to the nearest enemy (closing in is good)", **WEIGHT),
        "breakup": Param(float, 0.5, "weight of each percent of break-up risk of a severely damaged ship", **WEIGHT),
    }

    def __init__(self, caution: float = 0.0, closing: float = 0.5, breakup: float = 0.5) -> None:
        self.caution = caution  # weight of the enemy fire that can reach a ship's end hex (0: only when severe)
        self.closing = closing  # weight of the distance to the nearest enemy (closing in is good)
        self.breakup = breakup  # weight of each percent of break-up risk of a severely damaged ship
        self.plan: tuple[str, tuple[int, ...], int] | None = None  # ship plotted, its turn pattern, steps sent

    # --- entry point ----------------------------------------------------------------------------------
    def act(self, decision: Decision):
        legal = decision.legal_actions
        if len(legal) == 1:
            return legal[0]
        kinds = {type(a) for a in legal}
        p = decision.player
        if m.Step in kinds:
            # a step reads only the plan, but the world it used to draw took rng draws that later decisions
            # depend on: take the same draws (the game's determinizer loads exactly this JSON) without
            # building the state
            if decision.game is KnightHawks:
                kh_view.sample_world(decision.view, p, decision.rng)
            else:
                decision.sample_world()
            return self._step(legal)
        world = decision.sample_world()
        if m.Intercept in kinds:
            return self._intercept(world, legal)
        if m.Assign in kinds or m.Fire in kinds:
            return self._fire(world, p, legal)
        if m.Repair in kinds or m.EndRepair in kinds:
            return self._repair(world, p, legal)
        return self._move(world, p, legal, decision)

    # --- movement --------------------------------------------------------------------------------------
    def _step(self, legal: list):
        if self.plan is not None:
            sid, pattern, taken = self.plan
            if taken < len(pattern):
                want = m.Step(pattern[taken])
                self.plan = (sid, pattern, taken + 1)
                if want in legal:
                    return want
        return m.Step(0) if m.Step(0) in legal else legal[0]

    def _move(self, world, p: int, legal: list, decision: Decision):
        # 1. screens
        for a in legal:
            if isinstance(a, m.Screen):
                sh = world.ship(a.ship)
                want = self._screen_wish(world, sh, p)
                if want is not None and a.screen == want:
                    return a
        # 2. seekers: activate when an enemy is near and clearly nearer than any friend (a seeker homes on
        #    the nearest ship of either side)
        for a in legal:
            if isinstance(a, m.Activate):
                mine = [x for x in world.mines if x[0] == a.seeker]
                if not mine:
                    continue
                h = mine[0][3]
                foe = min((hexgrid.distance(s.pos, h) for s in world.ships if s.owner != p and s.status == 0),
                          default=99)
                friend = min((hexgrid.distance(s.pos, h) for s in world.ships if s.owner == p and s.status == 0),
                             default=99)
                if foe <= 8 and friend > foe + 4:
                    return a
        # 3. drop mines/seekers from a plotted ship at the hex of its path nearest the enemy (2-6 hexes away)
        best_lay = None
        for a in legal:
            if isinstance(a, m.Lay):
                sh = world.ship(a.ship)
                h = movement_phase.plotted_path(world, sh)[a.at]
                near = min((hexgrid.distance(s.pos, h) for s in world.ships if s.owner != p and s.status == 0),
                           default=99)
                if 2 <= near <= 6 and (best_lay is None or near < best_lay[0]):
                    best_lay = (near, a)
        if best_lay is not None:
            return best_lay[1]
        # 4. plot the next ship that has course options
        courses: dict[str, list] = {}
        for a in legal:
            if isinstance(a, m.Course):
                courses.setdefault(a.ship, []).append(a)
        if courses:
            sid = sorted(courses)[0]
            return self._plot(world, p, world.ship(sid), courses[sid])
        if m.EndMovement() in legal:
            return m.EndMovement()
        return legal[0]

    def _screen_wish(self, world, sh, p: int) -> str | None:
        near = min((hexgrid.distance(s.pos, sh.pos) for s in world.ships if s.owner != p and s.status == 0),
                   default=99)
        if (sh.ms_turns == 0 and sh.has_working_defense("MS") and not sh.short and near <= 10
                and (sh.kind in ("station", "freighter") or sh.orbit is not None)):
            return "MS"
        want = hx.best_screen(world, sh, p)
        if want != sh.screen and want is not None:
            return want
        return None

    def _objective_bonus(self, world, sh, st, speed: int, p: int) -> float:
        v = world.victory
        if v.get("kind") == "exit" and v.get("ship") == sh.id:
            edge = v.get("edge", "any")
            q = st.pos[0]
            bonus = 3.0 * (q if edge == "east" else -q if edge == "west" else hexgrid.length(st.pos))
            if st.end == "exit":
                bonus += 500 if (edge != "west" and q > 0) or (edge == "west" and q < 0) or edge == "any" else -500
            # keep out of the raiders' reach: every enemy weapon that can bear on the end hex counts
            bonus -= 2.0 * hx.enemy_threat(world, sh, st.pos, p)
            near = min((hexgrid.distance(e.pos, st.pos) for e in world.ships if e.owner != p and e.status == 0),
                       default=99)
            return bonus + speed + 2.0 * min(near, 8)
        if v.get("kind") == "exit":
            charge = world.ship(v["ship"])
            if charge.owner == p and charge.status == 0:  # escorts: stay between the charge and the raiders
                return -0.4 * max(0, hexgrid.distance(st.pos, charge.pos) - 3)
        if v.get("kind") == "destroy":
            tgt = world.ship(v["ship"])
            if tgt.owner != p:  # attacking the station: close in
                return -0.5 * hexgrid.distance(st.pos, tgt.pos)
            if sh.id != tgt.id:  # defending it: stay near
                return -0.3 * max(0, hexgrid.distance(st.pos, tgt.pos) - 4)
        return 0.0

    def _plot(self, world, p: int, sh, options: list):
        navdir = sh.navdir if sh.nav else 0
        evading = sh.evading and sh.mr > 0
        best = None
        speeds = sorted({a.speed for a in options})
        if len(speeds) > 5:
            speeds = sorted({speeds[0], speeds[len(speeds) // 4], speeds[len(speeds) // 2],
                             speeds[3 * len(speeds) // 4], speeds[-1], sh.speed} & set(speeds))
        value = hx.PositionValue(world, sh, p, self.closing)
        for a in options:
            if a.speed not in speeds:
                continue
            if a.speed == 0:
                cands = [((), _Still(sh.pos, a.facing))]
            else:
                cands = hx.plans(world, sh, a.speed, a.facing, navdir, evading)
            for turns, st in cands:
                if st.end == "exit" and not (world.victory.get("kind") == "exit" and world.victory.get("ship") == sh.id):
                    continue
                score = value(st.pos, st.facing, a.speed)
                score += self._objective_bonus(world, sh, st, a.speed, p)
                if self.caution:
                    score -= self.caution * hx.enemy_threat(world, sh, st.pos, p)
                if sh.severe():
                    used = abs(a.speed - sh.speed) + sum(1 for t in turns if t) + rotation_cost(sh.facing, a.facing)
                    score -= breakup_chance(sh.hp, sh.dmg, used) * self.breakup
                if sh.docked is not None and a.speed == 0:
                    score += 0.2  # stay aboard unless there is something to shoot
                if sh.ms_turns >= 99 and (a.speed != sh.speed or a.facing != sh.facing or any(turns)
                                          or st.facing != sh.facing):
                    score -= 4.0  # a released masking screen is lost by any change of speed or heading
                key = (score, -a.speed)
                if best is None or key > best[0]:
                    best = (key, a, turns)
        return self._commit(sh, best, options)

    def _commit(self, sh, best, options: list):
        """Take the best-scored course ``best`` = (key, action, turns), or the first option when nothing was
        scored, and remember its planned turns for the ship's step decisions."""
        if best is None:
            self.plan = (sh.id, (), 0)
            return options[0]
        _k, a, turns = best
        self.plan = (sh.id, tuple(turns), 0)
        return a

    # --- fire ------------------------------------------------------------------------------------------
    def _fire(self, world, p: int, legal: list):
        best = None
        lines: dict = {}
        defensive = world.fire_mode == "def"
        for a in legal:
            if not isinstance(a, m.Assign):
                continue
            firer = world.ship(a.ship)
            target = world.ship(a.target)
            code = firer.weapons[a.weapon][0]
            g = shot_geometry(world, firer, code, target, defensive, lines)
            value, chance = (0.0, 0) if g is None else hx.shot_value(world, firer, a.weapon, target, g)
            ltd = firer.weapons[a.weapon][1] >= 0
            floor = 30 if ltd else 10
            if code == "T" and target.kind in ("fighter", "scout"):
                floor = 60  # torpedoes are wasted on evasive small craft
            if chance < floor:
                continue
            if best is None or value > best[0]:
                best = (value, a)
        if best is not None:
            return best[1]
        return m.Fire() if m.Fire() in legal else legal[0]

    def _intercept(self, world, legal: list):
        a = world.attacks[fire_phase.pending_attack(world)]
        code = a[2]
        target = world.ship(a[3])
        can_evade = any(x.evade for x in legal)
        pool = max(x.icms for x in legal)
        per = {"T": 3, "AR": 2, "RB": 1, "S": 3, "M": 2}.get(code, 0)
        if target.kind in ("station", "freighter") or target.points >= 75:
            per += 1
        n = min(pool, per)
        want = m.Intercept(n, can_evade)
        return want if want in legal else legal[0]

    # --- repair ----------------------------------------------------------------------------------------
    def _repair(self, world, p: int, legal: list):
        reps = [a for a in legal if isinstance(a, m.Repair)]
        if not reps:
            return m.EndRepair()
        by_ship: dict[str, list] = {}
        for a in reps:
            by_ship.setdefault(a.ship, []).append(a)
        for sid in sorted(by_ship):
            sh = world.ship(sid)
            targets = sorted({a.target for a in by_ship[sid]})
            order = hx.repair_priorities(sh, targets)
            allocated = [x for x in world.allocations if x[1] == sid]
            left = sh.dcr(world.rules.dcr_rounding == "up") - sum(x[3] for x in allocated)
            if left < 10 or not order:
                continue
            todo = min(len(order), max(1, left // 40))
            size = max(b for b in block_sizes(left) if b <= max(10, min(90, left // todo)))
            want = m.Repair(sid, order[0], size)
            if want in legal:
                return want
        return m.EndRepair()


class _Still:
    """A stand-in plot state for a ship that stays put (speed 0): the fields the plan scorers read (``turns``;
    ``path`` for ``escort.runner_score``)."""

    __slots__ = ("pos", "facing", "end", "turns", "path")

    def __init__(self, pos, facing) -> None:
        self.pos = pos
        self.facing = facing
        self.end = ""
        self.turns = 0
        self.path = (pos,)


def shot_geometry(world, firer, code: str, target, defensive: bool, lines: dict):
    """``fire_phase.geometry`` of one shot, with the firer's sightlines to the target kept in ``lines`` (every
    weapon of a firer sees a target along the same lines)."""
    key = (firer.id, target.id)
    got = lines.get(key)
    if got is None:
        got = lines[key] = fire_phase._sightlines(world, firer, target, defensive)
    return fire_phase.geometry(world, firer, code, target, defensive, got)
