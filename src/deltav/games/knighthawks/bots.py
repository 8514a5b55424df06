"""Knight Hawks bots and the difficulty ladder.

``BOTS``: ``scripted``/``captain`` (:class:`ScriptedCaptain`, the *normal* level), ``cadet`` (:class:`Cadet`,
*easy*) and ``admiral`` (:class:`Admiral`, *hard*); ``PRESETS`` maps the levels to them (same schema as
``deltav.agents.presets``). Measurements: ``docs/bots-knighthawks.md``.

Every bot decides from its Decision only (its view, its legal actions, its rng and a world sampled from the
view by ``sample_world``) and sends only actions from its legal list.

- The scripted captain picks screens against the enemy's weapons, plots each ship's move by scoring a few
  turn patterns per speed (weapons bearing, range, map edge, break-up risk, the scenario's objective),
  assigns weapons to targets by expected damage, fires ICMs in proportion to the threat, evades torpedoes,
  activates seekers near enemies and spends DCR by repair priority.
- The cadet plays a beginner's plan: it charges, fires at whatever is nearest, wastes torpedoes, ignores
  screens, fires one ICM at anything and repairs the first thing listed.
- The admiral scores every move by the exact expected exchange of fire it leads to (``planner.py``) and
  assigns fire and ICMs by expected damage; raiders hunt the escorted ship, the escorted ship never lets its
  momentum carry it off the wrong edge (``escort.py``); in fleet battles its ships never end where their
  momentum must crash them into a planet or carry them off the map (``fleet.py``), weighing break-up risk
  more than the captain (see its docstring).
- The tactician (``tactician.py``, not a preset) picks each movement phase's fleet plan by rollouts.

Owns: the bots. Must not reach into the true game state.
"""

from __future__ import annotations

from deltav.core import hexgrid
from deltav.core.agent import Agent
from deltav.core.protocol import Decision
from deltav.core.rng import Rng
from deltav.games.knighthawks import heuristics as hx
from deltav.games.knighthawks import messages as m
from deltav.games.knighthawks.damage import breakup_chance
from deltav.games.knighthawks.movement import rotation_cost
from deltav.games.knighthawks.repair import block_sizes


class ScriptedCaptain(Agent):
    name = "scripted"

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
        world = decision.sample_world()
        p = decision.player
        if m.Step in kinds:
            return self._step(legal)
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
                h = world._plotted_path(sh)[a.at]
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
                score = hx.position_value(world, sh, st.pos, st.facing, a.speed, p, self.closing)
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
        for a in legal:
            if not isinstance(a, m.Assign):
                continue
            firer = world.ship(a.ship)
            target = world.ship(a.target)
            value, chance = hx.shot_value(world, firer, a.weapon, target)
            code = firer.weapons[a.weapon][0]
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
        a = world.attacks[world._pending_attack()]
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
            allocated = [x for x in world.allocs if x[1] == sid]
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


class _EscortCaptain(ScriptedCaptain):
    """The captain's plan for the escorts of a ship that must get away, with ``cover``: a ship that carries
    interceptors (ICMs) gains ``cover`` for ending its move in the escorted ship's plotted end hex (any ship
    of a side fires its ICMs for every target in its hex: torpedoes and rockets aimed at the freighter then
    face them)."""

    def __init__(self, cover: float = 0.0, safe: bool = False) -> None:
        super().__init__()
        self.cover = cover
        self.safe = safe

    def _objective_bonus(self, world, sh, st, speed: int, p: int) -> float:
        bonus = super()._objective_bonus(world, sh, st, speed, p)
        v = world.victory
        if self.safe and v.get("kind") == "exit" and v.get("ship") == sh.id and st.end == "":
            # the escorted ship: never end where momentum must carry it off the wrong edge next turn, and
            # weigh break-up risk as the lost game it is
            from deltav.games.knighthawks import escort as es

            nxt = es.next_outcomes(world.map, v, st.pos, st.facing, speed, sh.adf, sh.mr, 2)
            if "stay" not in nxt and "escape" not in nxt:
                bonus -= 500.0
            elif sh.mr > 0 and not ({"stay", "escape"} & es.next_outcomes(world.map, v, st.pos, st.facing, speed,
                                                                            sh.adf, 0, 2)):
                bonus -= 150.0  # only its steering keeps it on the map: one steering hit and it is lost
            if sh.severe():
                used = abs(speed - sh.speed) + st.turns + rotation_cost(sh.facing, st.facing if speed == 0
                                                                        else sh.facing)
                bonus -= 10.0 * breakup_chance(sh.hp, sh.dmg, used)
        if self.cover and v.get("kind") == "exit" and v.get("ship") != sh.id and sh.icms_available() > 0:
            charge = world.ship(v["ship"])
            if (charge.owner == p and charge.status == 0 and charge.id in world.plots
                    and world._plotted_path(charge)[-1] == st.pos):
                bonus += self.cover
        return bonus


class _FocusCaptain(ScriptedCaptain):
    """The captain's plan for fleet actions with one shared target: instead of each ship closing on the
    enemy nearest to it (the fleet trickles in and spreads its fire), every ship closes on the same enemy,
    the focus (chosen each movement phase: the most valuable enemy for its remaining hull, nearest the
    fleet's centre), with weight ``focus``; fire then prefers it (``focus_fire``)."""

    def __init__(self, focus: float = 0.5, focus_fire: float = 1.5, **kw) -> None:
        super().__init__(**kw)
        self.focus = focus
        self.focus_fire = focus_fire
        self._focus: tuple | None = None  # (turn, half, target id)

    def focus_target(self, world, p: int):
        key = (world.turn, world.half)
        if self._focus is not None and self._focus[:2] == key:
            t = world.ship(self._focus[2])
            if t.status == 0:
                return t
        mine = [s for s in world.ships if s.owner == p and s.status == 0 and s.kind not in ("fighter",)]
        foes = [s for s in world.ships if s.owner != p and s.status == 0
                and not (s.docked is not None and s.kind in ("fighter", "scout"))]
        if not mine or not foes:
            return None
        cq = sum(s.pos[0] for s in mine) / len(mine)
        cr = sum(s.pos[1] for s in mine) / len(mine)
        centre = (round(cq), round(cr))

        def value(e):
            left = max(1, e.hp - e.dmg)
            return (e.points / left * (1 + e.dmg / e.hp)) / (1 + hexgrid.distance(centre, e.pos) / 6), e.id

        best = max(foes, key=value)
        self._focus = (key[0], key[1], best.id)
        return best

    def _objective_bonus(self, world, sh, st, speed: int, p: int) -> float:
        bonus = super()._objective_bonus(world, sh, st, speed, p)
        if self.focus and world.victory.get("kind") == "battle":
            t = self.focus_target(world, p)
            if t is not None:
                foes = [e for e in world.ships if e.owner != p and e.status == 0]
                nearest = min(hexgrid.distance(st.pos, e.pos) for e in foes)
                bonus += self.closing * nearest - self.focus * hexgrid.distance(st.pos, t.pos)
        return bonus

    def _fire(self, world, p: int, legal: list):
        t = self.focus_target(world, p) if self.focus_fire != 1.0 else None
        if t is None:
            return super()._fire(world, p, legal)
        best = None
        for a in legal:
            if not isinstance(a, m.Assign):
                continue
            firer = world.ship(a.ship)
            target = world.ship(a.target)
            value, chance = hx.shot_value(world, firer, a.weapon, target)
            code = firer.weapons[a.weapon][0]
            floor = 30 if firer.weapons[a.weapon][1] >= 0 else 10
            if code == "T" and target.kind in ("fighter", "scout"):
                floor = 60
            if chance < floor:
                continue
            if target.id == t.id:
                value *= self.focus_fire
            if best is None or value > best[0]:
                best = (value, a)
        if best is not None:
            return best[1]
        return m.Fire() if m.Fire() in legal else legal[0]


class _Safe:
    """A mixin for the captain's plans in fleet actions (``fleet.doomed``): a move that ends where every move
    next turn crashes into a planet costs ``doom`` (a lost ship), one where every move next turn carries the
    ship off the map costs ``doom`` / 2 (it leaves the battle; half its points to the enemy)."""

    doom = 0.0

    def _objective_bonus(self, world, sh, st, speed: int, p: int) -> float:
        bonus = super()._objective_bonus(world, sh, st, speed, p)
        if self.doom and speed > 0 and st.end == "" and sh.kind != "station":
            from deltav.games.knighthawks import fleet as fl

            if fl.doomed(world.map, st.pos, st.facing, speed, sh.adf, sh.mr):
                bonus -= self.doom
            elif fl.doomed(world.map, st.pos, st.facing, speed, sh.adf, sh.mr, stay=True):
                bonus -= self.doom / 2
        return bonus


class _SafeCaptain(_Safe, ScriptedCaptain):
    """The captain's plan with the fleet safety checks of :class:`_Safe`."""

    def __init__(self, doom: float = 100.0, **kw) -> None:
        super().__init__(**kw)
        self.doom = doom


class _SafeFocusCaptain(_Safe, _FocusCaptain):
    """The focused plan with the fleet safety checks of :class:`_Safe`."""

    def __init__(self, doom: float = 100.0, **kw) -> None:
        super().__init__(**kw)
        self.doom = doom


class Cadet(ScriptedCaptain):
    """The easy level: a beginner's plan. Charges the nearest enemy (straight or one turn, whatever the arcs
    say), fires every weapon at the nearest target it can reach (torpedoes too, whatever the odds), fires one
    ICM at anything and never evades, leaves its screens alone and repairs whatever comes first. It still
    plays the scenario's objective (an escort runs for its edge). ``epsilon`` (default 0: none) makes it
    also forget a share of its decisions (a random legal action instead)."""

    name = "cadet"

    def __init__(self, epsilon: float = 0.0) -> None:
        super().__init__()
        self.epsilon = epsilon

    def act(self, decision: Decision):
        legal = decision.legal_actions
        if self.epsilon and len(legal) > 1 and decision.rng.random() < self.epsilon:
            return legal[decision.rng.below(len(legal))]
        return super().act(decision)

    def _screen_wish(self, world, sh, p: int) -> str | None:
        return None

    def _plot(self, world, p: int, sh, options: list):
        best = None
        foes = [s.pos for s in world.ships if s.owner != p and s.status == 0]
        for a in options:
            if a.speed == 0:
                cands = [((), _Still(sh.pos, a.facing))]
            else:
                cands = [(t, st) for t, st in hx.plans(world, sh, a.speed, a.facing, sh.navdir if sh.nav else 0,
                                                       sh.evading and sh.mr > 0) if sum(1 for x in t if x) <= 1]
            for turns, st in cands:
                if st.end == "exit" and not (world.victory.get("kind") == "exit"
                                             and world.victory.get("ship") == sh.id):
                    continue
                near = min((hexgrid.distance(st.pos, f) for f in foes), default=0)
                score = -near + self._objective_bonus(world, sh, st, a.speed, p)
                edge = world.map.radius - hexgrid.length(st.pos)
                if edge < 2:
                    score -= 3 * (2 - edge)
                key = (score, -a.speed)
                if best is None or key > best[0]:
                    best = (key, a, turns)
        return self._commit(sh, best, options)

    def _fire(self, world, p: int, legal: list):
        best = None
        for a in legal:
            if not isinstance(a, m.Assign):
                continue
            d = hexgrid.distance(world.ship(a.ship).pos, world.ship(a.target).pos)
            key = (d, a.ship, a.weapon, a.target)
            if best is None or key < best[0]:
                best = (key, a)
        if best is not None:
            return best[1]
        return m.Fire() if m.Fire() in legal else legal[0]

    def _intercept(self, world, legal: list):
        want = m.Intercept(1, False)
        return want if want in legal else m.Intercept(0, False) if m.Intercept(0, False) in legal else legal[0]

    def _repair(self, world, p: int, legal: list):
        reps = [a for a in legal if isinstance(a, m.Repair)]
        if not reps:
            return m.EndRepair()
        first = reps[0]
        return max((a for a in reps if a.ship == first.ship and a.target == first.target), key=lambda a: a.points)


class Admiral(ScriptedCaptain):
    """The hard level. Moves: in battles and assaults (``move="auto"``) every candidate move of a ship (the
    captain's turn patterns plus a single turn at every hex, at every speed) is scored by the expected
    exchange of fire it leads to (``planner``): its offense from the end hex and facing with the real defense
    columns, ICMs and head-on row, minus the enemy's defensive fire along its path, minus the enemy's reach
    next turn, plus its own reach, with the map-edge momentum check and break-up risk. Fire: every shot
    valued by its exact expected damage with the damage already declared on each target counted (focus fire,
    no overkill), the scenario's key ship counted double, limited rounds kept for 35% (torpedoes) / 25% odds.
    ICMs, screens, seekers and repairs as the captain (``exact_icms=True`` fires ICMs while each saves more
    than it is worth: measured weaker, it never spends them on assault rockets).

    Escort (``exit``) scenarios: the raiders plot with the exchange scoring plus ``raid_hunt`` (1.5) per hex
    of distance to the ship that must get away (they converge on it instead of trading with the escorts)
    and fire with the admiral's rule; the escorting side plays the captain's plan and fire (measured better
    for it than the exchange scoring and the admiral's fire) with ``safe``: the escorted ship never ends a
    move from which its momentum must carry it off the wrong edge within two turns (also if a steering hit
    took its MR) and weighs break-up risk as the lost game it is (``escort.next_outcomes``).
    ``runner=True`` scores the escorted ship's moves by ``escort.runner_score`` instead (measured weaker),
    ``cover`` > 0 makes escorts with ICMs end in its hex (no measured gain).

    Fleet actions: with more than ``fleet_limit`` (4) ships a side at the start (the fleet battle) the
    admiral plays the captain's plan with three corrections (session 2, round 2): the **doom check**
    (``fleet.doomed``, weight ``doom`` 100: never end a move from which every move next turn crashes into a
    planet, nor, at half the weight, one from which every move next turn leaves the map), break-up risk
    weighted ``fleet_breakup`` (2, the captain's 0.5) per percent, and the captain's fire (``fleet_fire``:
    ``captain``; ``weaker``: the admiral's exact expected-value fire while its fleet is the weaker one by
    surviving points, the default of round 2, measured weaker under the issue-18 rules; ``admiral``). ``focus_when`` (``never``;
    ``weaker``, ``always``) switches on the focused plan of round 1 (``_FocusCaptain``: every ship closes on
    one shared target), measured no better. The exchange scoring and the admiral's fire for the stronger
    side were measured weaker there.

    Parameters (``bot:admiral:threat=0.3``): ``exposure`` 0.8, ``threat`` 0.2, ``reach`` 0.25, ``closing``
    0.0 (weights of the move score), ``hunt`` 0.5 (raiders' weight with ``move="exchange"``), ``move``
    (``auto``, ``exchange`` everywhere, ``scripted`` everywhere), ``fire`` (``auto``: the captain's for the
    escorting side, the admiral's elsewhere; ``admiral``; ``captain``), ``reply`` (0: off; weight of an
    exact best-reply threat over the enemy's reachable hexes, slow in big fleets), ``rollouts``/
    ``candidates`` (0/4: off; >0 plays each of the top candidates out with the scripted captains to the next
    own movement phase and picks by material: measured weaker at 4 rollouts, the dice noise swamps the
    differences)."""

    name = "admiral"

    def __init__(self, exposure: float = 0.8, threat: float = 0.2, reach: float = 0.25,
                 closing: float = 0.0, candidates: int = 4, rollouts: int = 0, objective_weight: float = 1.0,
                 reply: float = 0.0, rerank: int = 12, hunt: float = 0.5, move: str = "auto",
                 exact_icms: bool = False, torpedo_floor: float = 0.35, ltd_floor: float = 0.25,
                 fleet_limit: int = 4, runner: bool = False, danger: float = 1.0, progress: float = 20.0,
                 fleet_breakup: float = 2.0, raid_hunt: float = 1.5, fire: str = "auto",
                 cover: float = 0.0, safe: bool = True, focus: float = 0.5, focus_fire: float = 1.5,
                 focus_when: str = "never", doom: float = 100.0, fleet_fire: str = "captain") -> None:
        super().__init__(closing=closing)
        self.runner = runner
        self.w_danger = danger
        self.w_progress = progress
        if move not in ("auto", "scripted", "exchange"):
            raise ValueError(f"move must be auto, scripted or exchange, not {move!r}")
        self.move = move
        self.exact_icms = exact_icms
        self.fleet_limit = fleet_limit
        self._captain = _SafeCaptain(doom, breakup=fleet_breakup)
        self._focused = _SafeFocusCaptain(doom, focus=focus, focus_fire=focus_fire, breakup=fleet_breakup)
        if fleet_fire not in ("captain", "admiral", "weaker"):
            raise ValueError(f"fleet_fire must be captain, admiral or weaker, not {fleet_fire!r}")
        self.fleet_fire = fleet_fire
        if focus_when not in ("weaker", "always", "never"):
            raise ValueError(f"focus_when must be weaker, always or never, not {focus_when!r}")
        self.focus_when = focus_when
        self._fleet_bot: tuple | None = None  # (turn, half, bot, exact fire) chosen for the current side turn
        self.fleet_breakup = fleet_breakup
        self.raid_hunt = raid_hunt
        self.cover = cover
        self.safe = safe
        if fire not in ("auto", "admiral", "captain"):
            raise ValueError(f"fire must be auto, admiral or captain, not {fire!r}")
        self.fire = fire
        self._fleet: int | None = None
        self.torpedo_floor = torpedo_floor
        self.ltd_floor = ltd_floor
        self.hunt = hunt
        self.w_reply = reply
        self.rerank = rerank
        self.candidates = candidates
        self.rollouts = rollouts
        self.objective_weight = objective_weight
        self.w_exposure = exposure
        self.w_threat = threat
        self.w_reach = reach

    def act(self, decision: Decision):
        self._decision = decision
        if self._fleet is None:  # the size of our fleet at the start of the action
            self._fleet = sum(1 for s in decision.view["ships"] if s["owner"] == decision.player)
        if self.fleet_limit and self._fleet > self.fleet_limit:
            return self._fleet_action(decision)
        return super().act(decision)

    def _fleet_action(self, decision: Decision):
        """Fleet actions: the captain's plan with the doom check and break-up weight (``_SafeCaptain``); when
        our fleet is the weaker one (surviving points, each ship's points scaled by its remaining hull) the
        admiral's exact fire (``fleet_fire="weaker"``) and, with ``focus_when="weaker"``, the focused plan
        (``_SafeFocusCaptain``). Chosen once per side turn so a plot is never split between plans."""
        v = decision.view
        key = (v["turn"], v["half"])
        if self._fleet_bot is None or self._fleet_bot[:2] != key:
            weaker = _fleet_strength(v, decision.player) < 0
            bot = self._captain
            if self.focus_when == "always" or (self.focus_when == "weaker" and weaker):
                bot = self._focused
            exact = self.fleet_fire == "admiral" or (self.fleet_fire == "weaker" and weaker)
            self._fleet_bot = (key[0], key[1], bot, exact)
        if self._fleet_bot[3] and any(isinstance(a, (m.Assign, m.Fire)) for a in decision.legal_actions):
            return ScriptedCaptain.act(self, decision)  # dispatches to the admiral's exact-value fire
        return self._fleet_bot[2].act(decision)

    def _analytic(self, world, p: int, sh, options: list) -> list:
        """Every candidate plan of ``sh`` with its analytic score: [(score, course action, turns, plot)]."""
        from deltav.games.knighthawks import planner as pl

        navdir = sh.navdir if sh.nav else 0
        evading = sh.evading and sh.mr > 0
        mine = [s for s in world.ships if s.owner == p and s.status == 0 and s.docked is None]
        share = {}
        for e in world.ships:
            if e.owner != p and e.status == 0:
                share[e.id] = max(1, sum(1 for s in mine if hexgrid.distance(s.pos, e.pos) <= 12))
        foes = [s for s in world.ships if s.owner != p and s.status == 0]
        v = world.victory
        charge = world.ship(v["ship"]) if v.get("kind") == "exit" else None
        if charge is not None and (charge.owner == p or charge.status != 0):
            charge = None
        hunt = self.raid_hunt if self.move == "auto" else self.hunt
        out = []
        for a in options:
            if a.speed == 0:
                cands = [((), _Still(sh.pos, a.facing))]
            else:
                cands = _more_plans(world, sh, a.speed, a.facing, navdir, evading)
            for turns, st in cands:
                if st.end == "exit" and not (world.victory.get("kind") == "exit"
                                             and world.victory.get("ship") == sh.id):
                    continue
                path = st.path if a.speed else (sh.pos,)
                score = pl.offense(world, sh, st.pos, st.facing, p)
                score -= self.w_exposure * pl.exposure(world, sh, path, p, share)
                score -= self.w_threat * pl.threat(world, sh, st.pos, p)
                score += self.w_reach * pl.potential(world, sh, st.pos, p)
                if foes:
                    score -= self.closing * min(hexgrid.distance(st.pos, e.pos) for e in foes)
                edge = world.map.radius - hexgrid.length(st.pos)
                if edge < 3:
                    score -= (3 - edge) * 2.0 + a.speed * 0.3
                score -= _momentum_penalty(world, sh, st, a.speed)
                score += self._objective_bonus(world, sh, st, a.speed, p)
                if charge is not None:  # raiders: close on the ship that must get away
                    score -= hunt * hexgrid.distance(st.pos, charge.pos)
                if sh.severe():
                    used = abs(a.speed - sh.speed) + sum(1 for t in turns if t) + rotation_cost(sh.facing, a.facing)
                    score -= breakup_chance(sh.hp, sh.dmg, used) / 100 * 60 * pl.worth(sh) / 2
                if sh.docked is not None and a.speed == 0:
                    score += 0.2
                if sh.ms_turns >= 99 and (a.speed != sh.speed or a.facing != sh.facing or any(turns)
                                          or st.facing != sh.facing):
                    score -= 4.0
                out.append((score, a, tuple(turns), st))
        out.sort(key=lambda x: (-x[0], x[1].speed, x[1].facing, x[2]))
        if self.w_reply and out:
            replies = self._replies(world, p)
            top = out[:self.rerank]
            top = [(sc - self.w_reply * pl.reply_threat(world, sh, st.pos, replies), a, t, st) for sc, a, t, st in top]
            top.sort(key=lambda x: (-x[0], x[1].speed, x[1].facing, x[2]))
            out = top + out[self.rerank:]
        return out

    def _replies(self, world, p: int) -> dict:
        from deltav.games.knighthawks import planner as pl

        key = (world.turn, world.half)
        if getattr(self, "_reply_key", None) != key:
            self._reply_key = key
            self._reply_cache = {e.id: pl.reply_states(world, e) for e in world.ships
                                 if e.owner != p and e.status == 0}
        return self._reply_cache

    def _plot(self, world, p: int, sh, options: list):
        v = world.victory
        if self.runner and v.get("kind") == "exit" and v.get("ship") == sh.id:
            return self._runner_plot(world, p, sh, options)
        kinds = {"auto": ("exit",), "scripted": ("exit", "destroy", "battle"), "exchange": ()}[self.move]
        use_captain = v.get("kind") in kinds or (v.get("kind") == "exit" and v.get("ship") == sh.id)
        if self.move == "auto" and v.get("kind") == "exit" and world.ship(v["ship"]).owner != p:
            use_captain = False  # raiders: the exchange scoring, hunting the escorted ship (raid_hunt)
        if use_captain:
            # measured: for the escorts the captain's plan beats the exchange plot (with ``cover``: a ship
            # with ICMs ends in the escorted ship's hex)
            cap = _EscortCaptain(self.cover, self.safe)
            a = cap._plot(world, p, sh, options)
            self.plan = cap.plan
            return a
        ranked = self._analytic(world, p, sh, options)
        if not ranked:
            self.plan = (sh.id, (), 0)
            return options[0]
        cands = []
        seen = set()
        for score, a, turns, st in ranked:
            key = (st.pos, st.facing, a.speed, st.end)
            if key in seen:
                continue
            seen.add(key)
            cands.append((score, a, turns, st))
            if len(cands) >= self.candidates:
                break
        # the scripted captain's own choice is always a candidate
        cap = ScriptedCaptain()
        ca = cap._plot(world, p, sh, options)
        ct = cap.plan[1] if cap.plan else ()
        if all((c[1], c[2]) != (ca, ct) for c in cands):
            match = [r for r in ranked if r[1] == ca and r[2] == ct]
            cands.append(match[0] if match else (0.0, ca, ct, None))
        if len(cands) == 1 or self.rollouts <= 0:
            _s, a, turns, _st = cands[0]
            self.plan = (sh.id, turns, 0)
            return a
        best = None
        decision = getattr(self, "_decision", None)
        seeds = [decision.rng.next64() if decision is not None else k for k in range(self.rollouts)]
        worlds = [decision.sample_world(Rng(sd)) if decision is not None else world for sd in seeds]
        for score, a, turns, st in cands:
            total = 0.0
            for sd, w0 in zip(seeds, worlds):
                total += _rollout(w0, p, a, turns, sd)
            value = total / len(seeds) + self.objective_weight * (
                self._objective_bonus(world, sh, st, a.speed, p) if st is not None else 0.0)
            key = (value, score)
            if best is None or key > best[0]:
                best = (key, a, turns)
        _k, a, turns = best
        self.plan = (sh.id, tuple(turns), 0)
        return a

    def _runner_plot(self, world, p: int, sh, options: list):
        """The escorted ship's move: every candidate plan scored by ``escort.runner_score`` (get away on the
        right edge, never be carried off elsewhere, progress, the raiders' fire, break-up risk)."""
        from deltav.games.knighthawks import escort as es

        navdir = sh.navdir if sh.nav else 0
        evading = sh.evading and sh.mr > 0
        best = None
        for a in options:
            if a.speed == 0:
                cands = [((), _Still(sh.pos, a.facing))]
            else:
                cands = _more_plans(world, sh, a.speed, a.facing, navdir, evading)
            for turns, st in cands:
                if a.speed == 0:
                    st = _Still(sh.pos, a.facing)
                score = es.runner_score(world, sh, a, tuple(turns), st, p, self.w_danger, self.w_progress)
                key = (score, a.speed, -a.facing, tuple(turns))
                if best is None or key > best[0]:
                    best = (key, a, tuple(turns))
        return self._commit(sh, best, options)

    def _fire(self, world, p: int, legal: list):
        from deltav.games.knighthawks import planner as pl

        if self.fire == "captain" or (self.fire == "auto" and world.victory.get("kind") == "exit"
                                      and world.ship(world.victory["ship"]).owner == p):
            return ScriptedCaptain._fire(self, world, p, legal)
        defensive = world.fire_mode == "def"
        extra: dict[str, float] = {}
        for d in world.declared:
            tg = world.ship(d[3])
            prob, half = pl.hit_chance(world, d[2], tg, d[5], d[6], world.ship(d[0]).ccs)
            extra[d[3]] = extra.get(d[3], 0.0) + prob * hx.hit_value(d[2]) * (0.6 if half else 1.0)
        best = None
        for a in legal:
            if not isinstance(a, m.Assign):
                continue
            firer = world.ship(a.ship)
            target = world.ship(a.target)
            code, n = firer.weapons[a.weapon][0], firer.weapons[a.weapon][1]
            g = world._geometry(firer, code, target, defensive)
            if g is None:
                continue
            prob, half = pl.hit_chance(world, code, target, g[1], g[2], firer.ccs, firer.ms_turns > 0)
            left = target.hp - target.dmg
            have = extra.get(target.id, 0.0)
            value = (prob * hx.hit_value(code) * (0.6 if half else 1.0) * pl.worth(target, have)
                     * pl.objective_factor(world, target))
            if have > left * 1.5:
                value *= 0.3  # already likely dead: spread the fire
            if n >= 0:  # limited rounds: keep them for decent odds
                floor = self.torpedo_floor if code == "T" else self.ltd_floor
                if prob < floor:
                    continue
            key = (value, -a.weapon, a.ship, a.target)
            if best is None or key > best[0]:
                best = (key, a)
        if best is not None:
            return best[1]
        return m.Fire() if m.Fire() in legal else legal[0]

    def _intercept(self, world, legal: list):
        if not self.exact_icms:
            return ScriptedCaptain._intercept(self, world, legal)
        from deltav.games.knighthawks import planner as pl
        from deltav.games.knighthawks.combat import chance_to_hit, defense_column, operating_defenses

        a = world.attacks[world._pending_attack()]
        code, target = a[2], world.ship(a[3])
        firer = world._get(a[0])
        ccs = firer.ccs if firer is not None else False
        can_evade = any(x.evade for x in legal)
        pool = max(x.icms for x in legal)
        col = defense_column(code, operating_defenses(target, world.rules), world.rules)
        evade = target.mr if can_evade else 0
        hv = hx.hit_value(code) * pl.worth(target)
        cost = 1.2 * (1 + 6 / max(1, pool))  # an ICM kept is worth more when few are left
        best = None
        for n in range(pool + 1):
            prob = pl.clamp_chance(chance_to_hit(code, col, a[5], a[6], ccs, n, evade))
            v = -prob * hv - n * cost
            if best is None or v > best[0] + 1e-9:
                best = (v, n)
        want = m.Intercept(best[1], can_evade)
        return want if want in legal else legal[0]


def _fleet_strength(view: dict, p: int) -> float:
    """Our surviving strength minus the enemy's from a view: each active ship's points scaled by the share of
    its hull left."""
    total = 0.0
    for s in view["ships"]:
        if s["status"] != "active":
            continue
        v = s["points"] * max(0, s["hp"] - s["damage"]) / max(1, s["hp"])
        total += v if s["owner"] == p else -v
    return total


def _momentum_penalty(world, sh, st, speed: int) -> float:
    """A ship ending fast near the map edge may be unable to stay in the battle next turn (it must move at
    least speed - ADF hexes, turning at most MR times): a penalty when the hexes ahead leave the map."""
    if st.end == "exit" or speed == 0:
        return 0.0
    ahead = max(0, speed - sh.adf) - max(0, sh.mr - 1)
    if ahead <= 0:
        return 0.0
    d = hexgrid.DIRECTIONS[st.facing % 6]
    h = (st.pos[0] + d[0] * ahead, st.pos[1] + d[1] * ahead)
    over = hexgrid.length(h) - world.map.radius
    return 0.0 if over <= 0 else 20.0 + 5.0 * over


def _rollout(world, p: int, course, turns: tuple, seed: int) -> float:
    """Plays one candidate plan in a copy of a sampled world with fresh dice (``seed``), then the scripted
    captains on both sides until ``p``'s next movement phase; the material value for ``p`` then."""
    from deltav.core.errors import IllegalAction
    from deltav.games.knighthawks import planner as pl

    w = world.clone()
    w.rng = Rng(seed)
    try:
        w.apply_action(p, course)
        for t in turns:
            if w.cur is None:
                break
            w.apply_action(p, m.Step(t))
    except IllegalAction:
        return -1e9
    pl.play_until_next_move(w, p, (ScriptedCaptain(), ScriptedCaptain()))
    return pl.outcome_value(w, p)


def _more_plans(world, sh, speed: int, facing: int, navdir: int, evading: bool):
    """The scripted captain's turn patterns plus a single turn at every hex of the move."""
    out = hx.plans(world, sh, speed, facing, navdir, evading)
    if sh.mr <= 0 or navdir or evading or speed <= 1:
        return out
    seen = {t for t, _st in out}
    from deltav.games.knighthawks.movement import advance, start_plot

    for d in (1, -1):
        for at in range(speed):
            t = tuple(d if i == at else 0 for i in range(speed))
            if t in seen:
                continue
            seen.add(t)
            st = start_plot(sh.pos, facing)
            ok = True
            for x in t:
                if st.end:
                    break
                nxt = advance(world.map, st, x, speed)
                if nxt is None:
                    ok = False
                    break
                st = nxt
            if ok and st.end != "crash":
                out.append((t, st))
    return out


from deltav.games.knighthawks.tactician import Tactician  # noqa: E402  (it builds the bots above)

BOTS = {"scripted": ScriptedCaptain, "cadet": Cadet, "captain": ScriptedCaptain, "admiral": Admiral,
        "tactician": Tactician}

#: The difficulty ladder (same schema as ``deltav.agents.presets``; measurements in docs/bots-knighthawks.md).
PRESETS = {
    "easy": {"agent": "cadet", "params": {},
             "budget": "a beginner's plan (charge the nearest enemy, fire at the nearest target): a few ms"},
    "normal": {"agent": "captain", "params": {},
               "budget": "the scripted captain's heuristic plan: a few ms per decision"},
    "hard": {"agent": "admiral", "params": {},
             "budget": "expected-exchange scoring of every candidate move and shot, the raiders' hunt, the "
                       "escorted ship's two-turn momentum check, the fleet's planet/edge doom check and break-up "
                       "weight (no search tree): a few ms per decision, the slowest plotting decisions about 0.2 s"},
}
