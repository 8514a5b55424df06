"""The Deep Space Combat ``hard`` level: :class:`PlannerBot`, the whole-side planner of :mod:`deltav.games.deepspace.
bots.lookahead` over the belief of :mod:`deltav.games.deepspace.bots.opponent`
(measurements in ``docs/bots-deepspace.md``).

This module owns the planner bot's decisions; the plan itself, the exact odds and the enemy model live in
those two pure modules.
"""

from __future__ import annotations

from deltav.core.agent import Param
from deltav.core.hexgrid import distance
from deltav.core.protocol import Decision
from deltav.games.deepspace import damage as dmg
from deltav.games.deepspace.bots import lookahead, opponent
from deltav.games.deepspace.bots.heuristics import ship_points
from deltav.games.deepspace.bots.scripted import ScriptedBot, _flag
from deltav.games.deepspace.messages import (
    Allocate,
    AutoAllocate,
    Done,
    EndShip,
    Fire,
    NewShip,
    SelfDestruct,
    SetStat,
    SetVelocity,
    VelocityColumn,
    WeaponDamage,
    WeaponTargeting,
    Withdraw,
)


class PlannerBot(ScriptedBot):
    """The ``hard`` level: plans each round for the whole side with :mod:`lookahead` (belief over enemy designs:
    the scenario's public fleet when it names one, else ``particles`` sampled worlds; enemy movement predicted by
    :mod:`opponent`'s model of a sound player; exact odds; search over candidate velocities with focus-fire
    target assignment and rams on the predicted hexes), allocates damage to keep the ship's most valuable stats
    and self-destructs by expected value. Design and deployment are the scripted bot's.

    Parameters (``bot:planner:name=value``): ``particles`` (belief size), ``search``, ``allocation``,
    ``destruct`` (switch one part off), ``design`` (archetype id or ``scripted``), ``prior`` (use the scenario's
    public fleets), ``model`` (predict enemy movement; off: enemies keep their velocity). Retired (issue 12,
    measured no better in ``docs/bots-deepspace.md``): the ram weight of the allocation and the rollout
    improvement."""

    name = "planner"
    #: the spec parameters (``bot:planner:particles=4``) and their bounds
    PARAMS = {
        "particles": Param(int, 8, "sampled enemy fleets in the belief (without the scenario's public fleet)",
                           minimum=1, maximum=64),
        "search": Param(bool, True, "search candidate velocities for the whole side (off: the scripted plot)"),
        "allocation": Param(bool, True, "allocate damage by value (off: the scripted allocation)"),
        "destruct": Param(bool, True, "self-destruct by expected value (off: never)"),
        "design": Param(str, "armoured-swarm", "the archetype of the fleet library it designs, or scripted"),
        "prior": Param(bool, True, "use the scenario's public fleets as the belief"),
        "model": Param(bool, True, "predict enemy movement (off: enemies keep their velocity)"),
    }

    def __init__(self, particles: int = 8, search: bool = True, allocation: bool = True, destruct: bool = True,
                 design: str = "armoured-swarm", prior: bool = True, model: bool = True):
        self.k = max(1, int(particles))
        self.prior = _flag(prior)
        self.model = _flag(model)
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
        arch = next((a for a in lookahead.archetypes() if a.id == self.design), None)
        cap = view["options"].get("stat_cap", 0)
        if arch is None or (cap and max(arch.ship.thrust, arch.ship.evasion, arch.ship.endurance,
                                        *(x for w in arch.ship.weapons for x in w)) > cap):
            return None  # the scripted design throughout, rather than a mix
        draft = view["mine"]["draft"]
        stage = draft["stage"]
        levels = view["players"][view["you"]]["size_levels"]
        want = lookahead.archetype_fleet(arch, levels)
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
            self._plan = lookahead.plan_round(view, me, parts, pred)
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

    # --- allocation and self-destruct -----------------------------------------------------------------------
    def _context(self, decision):
        view = decision.view
        key = (view["round"], view["phase"], view["step"],
               tuple((s["id"], s["status"], s["hp_taken"], s["incoming"]) for s in view["ships"]))
        if key != self._parts_key:
            self._parts = opponent.particles(decision, self.k, self.prior)
            self._parts_key = key
        parts = self._parts
        mine, enemies = lookahead.units(view, decision.player, parts)
        return view, parts, mine, enemies

    def _value_allocate(self, decision):
        view, parts, mine, enemies = self._context(decision)
        legal = decision.legal_actions
        sid = legal[0].ship
        sv = next(s for s in view["ships"] if s["id"] == sid)
        if not enemies or sv["pending"] >= ship_points(sv) + sv["size"]:
            return next((a for a in legal if isinstance(a, AutoAllocate)), None)  # lost anyway: one step
        refs = lookahead.weighted(d for e in enemies for d in e.defence)
        incoming = lookahead.weighted(w for e in enemies for ws in e.weapons for w in ws)
        scale = max(1, len(mine)) * self.k
        r = min(distance(tuple(sv["pos"]), e.pos) for e in enemies)
        mode = view["options"]["leftover_damage"]
        valuer = lookahead.Valuer(refs, incoming, r, scale)
        lv = lookahead.view_levels(sv)
        step = lookahead.allocation_step(sv["size"], lv, sv["partial"], sv["pending"], mode, valuer)
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
        own_threat = {x.id: lookahead.threat(x, enemies, x.pos, epos) for x in mine}
        e_threat = {e.id: lookahead.threat(e, mine, e.pos, base) for e in enemies}
        value = lookahead.destruct_value(u, mine, enemies, own_threat, e_threat,
                                       view["options"].get("explosion_hits_friends", True))
        return SelfDestruct(sid, value > 0)
