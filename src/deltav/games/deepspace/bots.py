"""Deep Space Combat bots: the difficulty ladder ``easy`` = :class:`CadetBot`, ``normal`` = :class:`ScriptedBot`,
``hard`` = :class:`PlannerBot` (``PRESETS``; measurements in ``docs/bots-deepspace.md``). Every bot decides from
its ``Decision`` only and never sends an action outside the legal list.

The scripted bot (``normal``), a baseline that plays every decision from its view and legal actions:

- Design: a ready-made fleet when one uses at least 3/4 of the side's size levels; otherwise ships of up to 4
  size levels, thrust 4, about 30% of the points in evasion and 20% in endurance, the
  rest split over two weapons (targeting ~ damage).
- Deployment: the zone hex nearest the enemy zones, at rest.
- Velocity (intercept / range keeping): every legal velocity is scored by the exact expected hit points this
  ship would deal (best weapon against each enemy at the predicted range, enemies assumed to keep their
  velocity) minus the expected hit points the enemies would deal to it, with estimated enemy stats. A ship that
  outguns its enemies closes in; one that is outgunned keeps its distance. Badly damaged ships withdraw when
  they may (only in battles of three or more fleets: with two, leaving the field loses).
- Weapons: each weapon fires at the enemy with the highest expected damage at the predicted range. With two
  fleets (annihilation) a shot's value is capped by what the target has left after the fire its side already
  plotted at it (no overkill); under the campaign score a quarter of the expected overkill still counts.
  It holds only when no enemy can be hurt.
- Damage: first strip stats that are useless (a weapon's damage when its targeting is 0 and the reverse),
  then the documented default allocation (``auto_allocate``).
- Self-destruct: when the expected damage to enemies in the hex exceeds 1.5 times the ship's own remaining
  design points plus the expected damage to friends.

It only uses the Decision (view, legal actions, its rng); it never sends an action outside the legal list.
"""

from __future__ import annotations

from deltav.core.agent import Agent
from deltav.core.hexgrid import distance
from deltav.core.protocol import Decision
from deltav.games.deepspace import damage as dmg
from deltav.games.deepspace import opponent, planner, rollout
from deltav.games.deepspace.design import load_fleet
from deltav.games.deepspace.heuristics import (
    estimated_enemy_stats,
    expected_damage,
    expected_shot,
    p_hit,
    ship_points,
)
from deltav.games.deepspace.messages import (
    Allocate,
    AutoAllocate,
    Done,
    EndShip,
    Fire,
    NewShip,
    Place,
    SelfDestruct,
    SetStat,
    SetVelocity,
    UseFleet,
    VelocityColumn,
    WeaponDamage,
    WeaponTargeting,
    Withdraw,
)
from deltav.games.deepspace.movement import thrust_cost
from deltav.games.deepspace.state import velocity_actions

#: share of the expected overkill a shot is credited with under the campaign score (measured: 0 to 0.5 play
#: alike against random seats in ``melee`` and ``squadrons``)
OVERKILL = 0.25


def _closest(actions, target: int, key):
    return min(actions, key=lambda a: (abs(key(a) - target), key(a)))


def _flag(x) -> bool:
    """A boolean parameter that may come as a string from the command line (``model=false``)."""
    if isinstance(x, str):
        return x.strip().lower() not in ("false", "0", "no", "off", "")
    return bool(x)


class ScriptedBot(Agent):
    name = "scripted"

    def act(self, decision: Decision):
        legal = decision.legal_actions
        view = decision.view
        first = legal[0]
        if len(legal) == 1:
            return first
        try:
            if view["phase"] == "design":
                choice = self._design(view, legal)
            elif isinstance(first, Place):
                choice = self._place(view, decision.player, legal)
            elif view["phase"] == "deploy":
                choice = next((a for a in legal if (a.dq, getattr(a, "dr", 0)) == (0, 0)), first)
            elif isinstance(first, VelocityColumn):
                best = self._velocity(view, decision.player, legal)
                if isinstance(best, SetVelocity):
                    best = VelocityColumn(best.ship, best.dq)
                choice = best
            elif isinstance(first, SetVelocity | Withdraw):
                choice = self._velocity(view, decision.player, legal)
            elif isinstance(first, Fire):
                choice = self._fire(view, decision.player, legal)
            elif isinstance(first, AutoAllocate):
                choice = self._allocate(view, legal)
            elif isinstance(first, SelfDestruct):
                choice = self._destruct(view, decision.player, legal)
            else:
                choice = first
        except (KeyError, IndexError, ValueError):
            choice = first
        return choice if choice in legal else first

    # --- design ----------------------------------------------------------------------------------------
    def _design(self, view, legal):
        draft = view["mine"]["draft"]
        stage = draft["stage"]
        if stage == "size":
            levels = view["players"][view["you"]]["size_levels"]
            fleets = [a for a in legal if isinstance(a, UseFleet)]
            if fleets:
                best = max(fleets, key=lambda a: (load_fleet(a.fleet).levels_used, a.fleet))
                if load_fleet(best.fleet).levels_used * 4 >= levels * 3:
                    return best
            sizes = [a for a in legal if isinstance(a, NewShip)]
            if not sizes:
                return Done()
            return max((a for a in sizes if a.size <= 4), key=lambda a: a.size, default=sizes[0])
        size = draft["size"]
        budget = 60 * size
        spent = size * (draft["thrust"] + draft["evasion"] + draft["endurance"]) + sum(t + d for t, d in draft["weapons"])
        left = budget - spent
        if stage in ("thrust", "evasion", "endurance"):
            want = {"thrust": 4, "evasion": int(0.30 * budget / size), "endurance": int(0.20 * budget / size)}[stage]
            return _closest(legal, want, lambda a: a.level)
        if stage == "weapon":
            n = len(draft["weapons"])
            if n >= 2 or left < 2:
                return EndShip() if EndShip() in legal else legal[-1]
            share = left // (2 - n)
            opts = [a for a in legal if isinstance(a, WeaponTargeting)]
            return _closest(opts, share // 2, lambda a: a.level)
        n = len(draft["weapons"])
        share = (left + draft["targeting"]) // max(1, 2 - n) - draft["targeting"]
        if n == 1:
            share = left - draft["targeting"]
        return _closest([a for a in legal if isinstance(a, WeaponDamage)], share, lambda a: a.level)

    # --- deployment --------------------------------------------------------------------------------------
    def _place(self, view, me, legal):
        others = [pl["zone"] for i, pl in enumerate(view["players"]) if i != me]
        cq = sum(z[0] for z in others) / len(others)
        cr = sum(z[1] for z in others) / len(others)
        return min(legal, key=lambda a: (abs(a.q - cq) + abs(a.r - cr) + abs(a.q + a.r - cq - cr), a.q, a.r))

    # --- plotting ----------------------------------------------------------------------------------------
    def _ships(self, view, me):
        mine = {s["id"]: s for s in view["ships"] if s["owner"] == me and s["status"] == "active"}
        enemies = []
        for s in view["ships"]:
            if s["owner"] != me and s["status"] == "active" and s["pos"] is not None:
                t, e, en, ws = estimated_enemy_stats(s)
                enemies.append((s, t, e, en, ws))
        return mine, enemies

    def _velocity(self, view, me, legal):
        sid = legal[0].ship
        mine, enemies = self._ships(view, me)
        ship = mine[sid]
        withdraw = next((a for a in legal if isinstance(a, Withdraw)), None)
        if withdraw is not None and len(view["players"]) > 2 and ship_points(ship) < 15 * ship["size"]:
            return withdraw
        if not enemies:
            return next((a for a in legal if isinstance(a, SetVelocity) and (a.dq, a.dr) == tuple(ship["vel"])), legal[0])
        pos = ship["pos"]
        weapons = [w for w in ship["weapons"] if w[0] + w[1] > 0]
        candidates = [a for a in legal if isinstance(a, SetVelocity)]
        if isinstance(legal[0], VelocityColumn):  # a high-thrust ship: score every velocity, then take its column
            candidates = list(velocity_actions(sid, tuple(ship["vel"]), ship["thrust"]))
        best = None
        best_score = None
        for a in candidates:
            npos = (pos[0] + a.dq, pos[1] + a.dr)
            score = 0.0
            for s, _t, e, en, ws in enemies:
                epos = (s["pos"][0] + s["vel"][0], s["pos"][1] + s["vel"][1])
                r = distance(npos, epos)
                give = max((expected_shot(t, d, e, en, r) for t, d in weapons), default=0.0)
                take = sum(expected_shot(t, d, ship["evasion"], ship["endurance"], r) for t, d in ws)
                score += give - take
            score -= 0.01 * (abs(a.dq) + abs(a.dr))  # mild preference for low speeds
            if best_score is None or score > best_score:
                best, best_score = a, score
        return best or legal[0]

    def _fire(self, view, me, legal):
        a0 = legal[0]
        mine, enemies = self._ships(view, me)
        plans = view["mine"]["plans"]
        by_id = {s["id"]: (s, e, en) for s, _t, e, en, _ws in enemies}

        def npos(sid):
            ship = mine[sid] if sid in mine else by_id[sid][0]
            vel = (plans.get(sid) or {}).get("vel") or ship["vel"]
            return (ship["pos"][0] + vel[0], ship["pos"][1] + vel[1])

        # expected damage already plotted against each enemy by this side's other weapons this round
        assigned: dict[str, float] = {}
        for sid, plan in plans.items():
            for w, target in plan.get("shots", []):
                if target in by_id and sid in mine:
                    t, d = mine[sid]["weapons"][w]
                    s, e, en = by_id[target]
                    r = distance(npos(sid), npos(target))
                    assigned[target] = assigned.get(target, 0.0) + expected_shot(t, d, e, en, r)
        t, d = mine[a0.ship]["weapons"][a0.weapon]
        here = npos(a0.ship)
        scored = len(view["players"]) > 2 or view["options"]["two_fleet_victory"] == "score"
        best, best_score = a0, 0.0
        for a in legal:
            if a.target is None or a.target not in by_id:
                continue
            s, e, en = by_id[a.target]
            r = distance(here, npos(a.target))
            left = max(1.0, 60 * s["size"] - s["hp_taken"] - assigned.get(a.target, 0.0))
            ed = expected_damage(d, en)
            # a hit is worth what the target has left after the fire its side already plotted at it; under the
            # campaign score the overkill still counts a little (every hit point inflicted scores)
            score = p_hit(t, e, r) * (min(ed, left) + OVERKILL * max(0.0, ed - left) * scored)
            if score > best_score:
                best, best_score = a, score
        return best

    # --- damage and self-destruct ------------------------------------------------------------------------
    def _allocate(self, view, legal):
        sid = legal[0].ship
        ship = next(s for s in view["ships"] if s["id"] == sid)
        for w, (t, d) in enumerate(ship["weapons"]):
            for stat, level, other in (("damage", d, t), ("targeting", t, d)):
                if level > 0 and other == 0:
                    opts = [a for a in legal if isinstance(a, Allocate) and a.stat == stat and a.weapon == w]
                    if opts:
                        return max(opts, key=lambda a: a.hp)
        return legal[0]

    def _destruct(self, view, me, legal):
        sid = legal[0].ship
        mine, enemies = self._ships(view, me)
        ship = mine[sid]
        power = ship["thrust"] + ship["evasion"] + ship["endurance"] + sum(t + d for t, d in ship["weapons"])
        gain = 0.0
        for s, _t, _e, en, _ws in enemies:
            if s["pos"] == ship["pos"]:
                gain += min(expected_damage(power, en), 60 * s["size"])
        loss = ship_points(ship)
        for other in mine.values():
            if other["id"] != sid and other["pos"] == ship["pos"]:
                loss += min(expected_damage(power, other["endurance"]), ship_points(other))
        return SelfDestruct(sid, gain > 1.5 * loss)


class CadetBot(ScriptedBot):
    """The ``easy`` level: a short-sighted player. It charges straight at the nearest enemy, fires every weapon
    at the nearest enemy whatever the odds, lets the default allocation place its damage and never
    self-destructs. No random moves: it is weak the way a beginner is, predictably."""

    name = "cadet"

    def _velocity(self, view, me, legal):
        mine, enemies = self._ships(view, me)
        ship = mine[legal[0].ship]
        if not enemies:
            return super()._velocity(view, me, legal)
        pos = ship["pos"]
        near = min(enemies, key=lambda e: (distance(pos, e[0]["pos"]), e[0]["id"]))[0]["pos"]
        cands = [a for a in legal if isinstance(a, SetVelocity)]
        if isinstance(legal[0], VelocityColumn):
            cands = list(velocity_actions(ship["id"], tuple(ship["vel"]), ship["thrust"]))
        if not cands:
            return legal[0]
        return min(cands, key=lambda a: (distance((pos[0] + a.dq, pos[1] + a.dr), near), abs(a.dq) + abs(a.dr),
                                         a.dq, a.dr))

    def _fire(self, view, me, legal):
        mine, enemies = self._ships(view, me)
        pos = mine[legal[0].ship]["pos"]
        ids = {s["id"]: s["pos"] for s, *_ in enemies}
        shots = [a for a in legal if a.target in ids]
        if not shots:
            return legal[0]
        return min(shots, key=lambda a: (distance(pos, ids[a.target]), a.target))

    def _allocate(self, view, legal):
        return next((a for a in legal if isinstance(a, AutoAllocate)), legal[0])

    def _destruct(self, view, me, legal):
        return SelfDestruct(legal[0].ship, False)


class PlannerBot(ScriptedBot):
    """The ``hard`` level: plans each round for the whole side with :mod:`planner` (belief over enemy designs:
    the scenario's public fleet when it names one, else ``particles`` sampled worlds; enemy movement predicted by
    :mod:`opponent`'s model of a sound player; exact odds; search over candidate velocities with focus-fire
    target assignment and rams on the predicted hexes), allocates damage to keep the ship's most valuable stats
    and self-destructs by expected value. Design and deployment are the scripted bot's.

    Parameters (``bot:planner:name=value``): ``particles`` (belief size), ``search``, ``allocation``,
    ``destruct`` (switch one part off), ``design`` (archetype id or ``scripted``), ``prior`` (use the scenario's
    public fleets), ``model`` (predict enemy movement; off: enemies keep their velocity), ``ram`` (weight of
    thrust kept for rams in the allocation, 0 by default: measured no better), and the optional rollout
    improvement of :mod:`rollout` (``rollouts`` worlds per plot, ``alloc_rollouts`` per damaged ship,
    ``horizon`` rounds, ``margin`` / ``alloc_margin`` standard errors; all 0 by default: measured no better, see
    ``docs/bots-deepspace.md``)."""

    name = "planner"

    def __init__(self, particles: int = 8, search: bool = True, allocation: bool = True, destruct: bool = True,
                 design: str = "armoured-swarm", prior: bool = True, model: bool = True, ram: float = 0.0,
                 rollouts: int = 0, alloc_rollouts: int = 0, horizon: int = 3, margin: float = 1.0,
                 alloc_margin: float = 0.0):
        self.k = max(1, int(particles))
        self.prior = _flag(prior)
        self.ram_weight = float(ram)
        self.model = _flag(model)
        self.rollouts = max(0, int(rollouts))
        self.alloc_rollouts = max(0, int(alloc_rollouts))
        self.horizon = max(0, int(horizon))
        self.margin = float(margin)
        self.alloc_margin = float(alloc_margin)
        self._alloc_key = None
        self._alloc_target: dict = {}
        self.design = str(design)
        self.search = bool(search)
        self.value_allocation = bool(allocation)
        self.value_destruct = bool(destruct)
        self._plan_key = None
        self._plan: dict = {}
        self._parts_key = None
        self._parts: dict = {}

    def act(self, decision: Decision):
        legal = decision.legal_actions
        if len(legal) <= 1:
            return legal[0]
        view = decision.view
        first = legal[0]
        choice = None
        try:
            if view["phase"] == "design" and self.design != "scripted":
                choice = self._archetype_step(view, legal)
            elif view["phase"] == "plot" and self.search and isinstance(first, SetVelocity | VelocityColumn | Withdraw
                                                                         | Fire):
                choice = self._planned(decision)
            elif view["phase"] in ("allocate", "destruct") and isinstance(first, AutoAllocate | SelfDestruct):
                if isinstance(first, AutoAllocate) and self.value_allocation:
                    choice = self._value_allocate(decision)
                elif isinstance(first, SelfDestruct) and self.value_destruct:
                    choice = self._value_destruct(decision)
        except (KeyError, IndexError, ValueError, ZeroDivisionError):
            choice = None
        if choice is not None and choice in legal:
            return choice
        return super().act(decision)

    # --- design: an archetype of the library, step by step ----------------------------------------------------
    def _archetype_step(self, view, legal):
        arch = next((a for a in planner.archetypes() if a.id == self.design), None)
        cap = view["options"].get("stat_cap", 0)
        if arch is None or (cap and max(arch.ship.thrust, arch.ship.evasion, arch.ship.endurance,
                                        *(x for w in arch.ship.weapons for x in w)) > cap):
            return None  # the scripted design throughout, rather than a mix
        draft = view["mine"]["draft"]
        stage = draft["stage"]
        levels = view["players"][view["you"]]["size_levels"]
        want = planner.archetype_fleet(arch, levels)
        ship = arch.ship
        if stage == "size":
            if len(view["mine"]["designs"]) < len(want):
                return NewShip(ship.size)
            return Done()
        if stage in ("thrust", "evasion", "endurance"):
            return SetStat(stage, getattr(ship, stage))
        n = len(draft["weapons"])
        if stage == "weapon":
            return WeaponTargeting(ship.weapons[n][0]) if n < len(ship.weapons) else EndShip()
        return WeaponDamage(ship.weapons[n][1])

    # --- plotting: the whole side's plan, made at the side's first plot step of the round ---------------------
    def _planned(self, decision):
        view = decision.view
        me = decision.player
        legal = decision.legal_actions
        first = legal[0]
        key = (view["round"], view["mine"].get("plot_id"),
               tuple((s["id"], tuple(s["pos"]), tuple(s["vel"]), s["hp_taken"]) for s in view["ships"]
                     if s["status"] == "active" and s["pos"] is not None))
        if key != self._plan_key:
            parts = opponent.particles(decision, self.k, self.prior)
            pred = opponent.predict_moves(view, me, parts) if self.model else None
            self._plan = planner.plan_round(view, me, parts, pred)
            if self.rollouts and self._plan:
                self._plan = self._improve_plan(decision, parts, pred, self._plan)
            self._plan_key = key
        sid = first.ship
        if sid not in self._plan:
            return None
        vel, shots = self._plan[sid]
        if isinstance(first, Fire):
            return Fire(sid, first.weapon, shots.get(first.weapon))
        withdraw = next((a for a in legal if isinstance(a, Withdraw)), None)
        if withdraw is not None and len(view["players"]) > 2:
            ship = next(s for s in view["ships"] if s["id"] == sid)
            if ship_points(ship) < 15 * ship["size"]:
                return withdraw
        if isinstance(first, VelocityColumn):
            return VelocityColumn(sid, vel[0])
        return SetVelocity(sid, vel[0], vel[1])

    def _improve_plan(self, decision, parts, pred, plan):
        """Rollout policy improvement of the side's plot: the plan, the scripted velocities, fire focused on
        each enemy in turn, holding velocity and rams on the predicted enemy hexes, compared by play-outs."""
        view = decision.view
        me = decision.player
        ships = view["ships"]
        mine = [sv for sv in ships if sv["owner"] == me and sv["status"] == "active" and sv["id"] in plan]
        enemies = [sv for sv in ships if sv["owner"] != me and sv["status"] == "active" and sv["pos"] is not None]
        if not mine or not enemies:
            return plan
        cands = [plan]

        def add(c):
            if c not in cands and len(cands) < 6:
                cands.append(c)

        n_players = len(view["players"])
        scripted = {}
        for sv in mine:
            v = opponent._velocity_choice(ships, me, sv, planner.view_levels(sv), n_players)
            scripted[sv["id"]] = (v, plan[sv["id"]][1])
        add(scripted)
        pred = pred or {}
        groups: dict = {}
        for e in enemies:
            for pos, _v in pred.get(e["id"], []):
                groups[pos] = groups.get(pos, 0) + 1
        for pos, _n in sorted(groups.items(), key=lambda kv: (-kv[1], kv[0]))[:2]:
            for sv in mine:
                v = (pos[0] - sv["pos"][0], pos[1] - sv["pos"][1])
                if sv["thrust"] > 0 and thrust_cost(tuple(sv["vel"]), v) <= sv["thrust"]:
                    ram = dict(plan)
                    ram[sv["id"]] = (v, plan[sv["id"]][1])
                    add(ram)
                    break
        order = sorted(enemies, key=lambda e: (-e["size"], e["id"]))
        for e in order[:2]:
            add({sid: (vel, {w: e["id"] for w in shots}) for sid, (vel, shots) in plan.items()})
        add({sid: (tuple(next(x for x in mine if x["id"] == sid)["vel"]), shots) for sid, (_v, shots) in plan.items()})
        if len(cands) == 1:
            return plan
        bank = rollout.Bank(decision, parts, self.rollouts, self.horizon)
        best, _means = bank.choose(cands, rollout.plan_chooser, self.margin)
        return cands[best]

    # --- allocation and self-destruct -----------------------------------------------------------------------
    def _context(self, decision):
        view = decision.view
        key = (view["round"], view["phase"], view["step"],
               tuple((s["id"], s["status"], s["hp_taken"], s["incoming"]) for s in view["ships"]))
        if key != self._parts_key:
            self._parts = opponent.particles(decision, self.k, self.prior)
            self._parts_key = key
        parts = self._parts
        mine, enemies = planner.units(view, decision.player, parts)
        return view, parts, mine, enemies

    def _value_allocate(self, decision):
        view, parts, mine, enemies = self._context(decision)
        legal = decision.legal_actions
        sid = legal[0].ship
        sv = next(s for s in view["ships"] if s["id"] == sid)
        if not enemies or sv["pending"] >= ship_points(sv) + sv["size"]:
            return next((a for a in legal if isinstance(a, AutoAllocate)), None)  # lost anyway: one step
        refs = planner.weighted(d for e in enemies for d in e.defence)
        incoming = planner.weighted(w for e in enemies for ws in e.weapons for w in ws)
        scale = max(1, len(mine)) * self.k
        r = min(distance(tuple(sv["pos"]), e.pos) for e in enemies)
        mode = view["options"]["leftover_damage"]
        ram = self.ram_weight if view["options"].get("self_destruct", True) else 0.0
        valuer = planner.Valuer(refs, incoming, r, scale, ram, sv["thrust"])
        lv = planner.view_levels(sv)
        if self.alloc_rollouts and mode == "lost":
            key = (view["round"], view["step"], sid, sv["hp_taken"])
            if key != self._alloc_key:
                self._alloc_key = key
                self._alloc_target = None
                planned = planner.allocation_target(sv["size"], lv, sv["pending"], valuer)
                cands = rollout.allocation_candidates(sv["size"], lv, sv["pending"], mode, planned)
                if len(cands) > 1:
                    bank = rollout.Bank(decision, parts, self.alloc_rollouts, self.horizon)
                    best, _m = bank.choose(cands, lambda t: rollout.allocation_chooser(sid, t), self.alloc_margin)
                    self._alloc_target = cands[best]
                else:
                    self._alloc_target = cands[0] if cands else None
            if self._alloc_target is not None:
                step = rollout.step_toward(sv["size"], lv, sv["partial"], sv["pending"], mode, self._alloc_target)
                if step is not None:
                    stat, weapon = dmg.slot_name(step[0])
                    return Allocate(sid, stat, weapon, step[1])
        step = planner.allocation_step(sv["size"], lv, sv["partial"], sv["pending"], mode, valuer)
        if step is None:
            return None
        stat, weapon = dmg.slot_name(step[0])
        return Allocate(sid, stat, weapon, step[1])

    def _value_destruct(self, decision):
        view, parts, mine, enemies = self._context(decision)
        sid = decision.legal_actions[0].ship
        u = next(x for x in mine if x.id == sid)
        base = {x.id: x.pos for x in mine}
        epos = {e.id: e.pos for e in enemies}
        own_threat = {x.id: planner.threat(x, enemies, x.pos, epos) for x in mine}
        e_threat = {e.id: planner.threat(e, mine, e.pos, base) for e in enemies}
        value = planner.destruct_value(u, mine, enemies, own_threat, e_threat,
                                       view["options"].get("explosion_hits_friends", True))
        return SelfDestruct(sid, value > 0)


BOTS = {"scripted": ScriptedBot, "cadet": CadetBot, "planner": PlannerBot}

#: The difficulty ladder (same entry schema as ``deltav.agents.presets``): levels differ in what they think
#: about, not in random noise. Budgets are counts (sampled worlds), so a seeded match replays exactly.
PRESETS = {
    "easy": {
        "agent": "cadet",
        "params": {},
        "budget": "cadet bot (charges the nearest enemy, fires at the nearest, default allocation, never "
                  "self-destructs, the scripted design): under 1 ms per decision",
    },
    "normal": {
        "agent": "scripted",
        "params": {},
        "budget": "scripted bot (one-ship expected-damage plotting, greedy expected-damage targeting): about "
                  "1 ms per decision",
    },
    "hard": {
        "agent": "planner",
        "params": {"particles": 8},
        "budget": "planner: 8 particles per enemy ship (the scenario's public fleet, else 8 sampled worlds); "
                  "one whole-side plan per round (enemy moves predicted, candidate velocities x exact-odds "
                  "target assignment), 0.01-0.5 s at a round's first plot step, a few ms otherwise",
    },
}
