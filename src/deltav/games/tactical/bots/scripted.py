"""Scripted bots for Delta-V tactical.

``ScriptedBot`` ("scripted"): a one-ply course enumeration. For each of its ships it previews every legal order on
a determinized world (own ships are exact there), discards crashes and courses that leave no survivable next move,
and scores the rest by distance to the ship's goal (target base, next Grand Tour checkpoint, the northern edge,
the nearest visible enemy, or a friendly base to refuel; see heuristics.py). In combat it gathers every ship that
sees the target with the best expected damage dealt against counterattack damage taken and fires at full
strength (``heuristics.attack_plan``); it launches a torpedo when the torpedo's next hex meets a visible enemy;
it buys the most expensive warships it can afford (at most six). It only ever returns one of the legal actions
it was given.

Bots see only their ``Decision`` (view, legal actions, rng, sampled worlds); this module owns the scripted bot and
must not read the true state.
"""

from __future__ import annotations

from deltav.core.agent import Agent, Param
from deltav.core.hexgrid import distance
from deltav.core.protocol import Decision
from deltav.games.tactical.bots.heuristics import (
    attack_plan,
    goal_hexes,
    score_course,
)
from deltav.games.tactical.messages import (
    AddAttacker,
    Buy,
    EndAstrogation,
    EndCombat,
    EndLogistics,
    EndOrdnance,
    Fire,
    FleetReady,
    Launch,
    Order,
    Surrender,
)
from deltav.games.tactical.movement import drift_destination
from deltav.games.tactical.ordnance_tables import launch_velocity
from deltav.games.tactical.preview import preview_courses
from deltav.games.tactical.shiptypes import ship_types


class ScriptedBot(Agent):
    name = "scripted"
    #: the spec parameters (``bot:scripted:strict=true``) and their bounds
    PARAMS = {"strict": Param(bool, False, "re-raise a heuristic's error instead of falling back to a safe order "
                                           "(tests)")}
    #: re-raise heuristic failures instead of falling back to a safe legal action (tests set it)
    strict = False
    #: attack with the best group within a range and velocity bound, not every ship that sees the target
    #: (``heuristics.attack_plan``'s ``nearest``; hard's knob ``nearest_group``)
    nearest_group = False

    def __init__(self, strict: bool = False):
        self.strict = strict
        #: (the view's moment and ship records, memo of ``attack_plan``) (``_combat_memo``)
        self._attack_memo = None

    def _combat_memo(self, d: Decision) -> dict:
        """``attack_plan``'s memo, kept over the decisions of a combat phase while every ship of the view is the
        same (adding an attacker to the group changes no ship; a shot's damage does): the world of each of
        those decisions is read from the same ship records, so the values kept are the values computed."""
        v = d.view
        key = (v["turn"], v["phase"], v["active_player"], d.player, v["scenario"], v["ships"])
        hit = self._attack_memo
        if hit is not None and hit[0] == key:
            return hit[1]
        memo: dict = {}
        self._attack_memo = (key, memo)
        return memo

    def act(self, decision: Decision):
        legal = decision.legal_actions
        phase = decision.view.get("phase")
        try:
            if phase == "astrogation":
                return self._astrogation(decision)
            if phase == "combat":
                return self._combat(decision)
            if phase == "ordnance":
                return self._ordnance(decision)
            if phase == "fleet_building":
                return self._fleet(decision)
            if phase == "logistics":
                return self._logistics(decision)
        except Exception:  # a heuristic failure must never become an illegal action
            if self.strict:
                raise
        for cls in (EndOrdnance, EndLogistics, EndCombat, EndAstrogation, FleetReady):
            for a in legal:
                if isinstance(a, cls):
                    return a
        safe = [a for a in legal if not isinstance(a, Surrender)]
        return decision.rng.choice(safe or legal)

    def _astrogation(self, d: Decision):
        orders = [a for a in d.legal_actions if isinstance(a, Order)]
        if not orders:
            return next(a for a in d.legal_actions if isinstance(a, EndAstrogation))
        sid = orders[0].ship
        mine = [o for o in orders if o.ship == sid]
        world = d.sample_world()
        sh = world.ship(sid)
        goals, why = goal_hexes(world, sh)
        best = None
        best_score = None
        for o, pv in zip(mine, preview_courses(world, sid, mine)):
            sc = score_course(world, sh, pv, goals, why)
            if best_score is None or sc > best_score:
                best, best_score = o, sc
        return best

    def _combat(self, d: Decision):
        """Pick the enemy ship whose attack by every ship of ours that sees it has the best expected damage
        dealt minus counterattack damage taken; gather those ships one ``add_attacker`` at a time, then fire
        at full strength. No worthwhile attack: end combat."""
        legal = d.legal_actions
        end = next(a for a in legal if isinstance(a, EndCombat))
        world = d.sample_world()
        cs = world.combat
        if cs is None:
            return end
        if cs.allocated:  # a split-fire remainder: spend it on the best remaining ship in the hex, if any
            fires = [a for a in legal if isinstance(a, Fire) and a.strength is None]
            return fires[0] if fires else end
        plan = attack_plan(world, d.player, self.nearest_group, self._combat_memo(d))
        if plan is None:
            return end
        target, group = plan
        for sid in group:
            if sid not in cs.group:
                a = AddAttacker(sid)
                if a in legal:
                    return a
        f = Fire(target, None)
        return f if f in legal else end

    def _ordnance(self, d: Decision):
        """Launch a torpedo when its course meets a visible enemy's drift next turn (within one hex)."""
        legal = d.legal_actions
        torps = [a for a in legal if isinstance(a, Launch) and a.kind == "torpedo"]
        if torps:
            world = d.sample_world()
            enemies = [e for e in world.ships if e.owner != d.player and not e.destroyed and not e.landed
                       and world.visible(e, d.player)]
            best = None
            for a in torps:
                sh = world.ship(a.ship)
                # the torpedo leaves from the launcher's hex this very phase: own ships near it could walk into it
                if any(o.owner == d.player and o.id != sh.id and not o.destroyed and distance(o.pos, sh.pos) <= 2
                       for o in world.ships):
                    continue
                vel = launch_velocity(sh.vel, a.boost_dir, a.boost)
                nxt = (sh.pos[0] + vel[0], sh.pos[1] + vel[1])
                for e in enemies:
                    drift = drift_destination(e.pos, e.vel, e.pending)
                    dist = min(distance(nxt, drift), distance(nxt, e.pos))
                    if dist <= 1 and (best is None or dist < best[0]):
                        best = (dist, a)
            if best is not None:
                return best[1]
        return next(a for a in legal if isinstance(a, EndOrdnance))

    def _logistics(self, d: Decision):
        """The scripted bot transfers nothing."""
        return next(a for a in d.legal_actions if isinstance(a, EndLogistics))

    def _fleet(self, d: Decision):
        buys = [a for a in d.legal_actions if isinstance(a, Buy) and a.item != "orbitalBaseCargo"]
        types = ship_types()
        bought = sum(1 for _ in (d.view.get("purchases") or [[], []])[d.player] or [])
        if buys and bought < 6:
            warships = [b for b in buys if types[b.item].warship] or buys
            return max(warships, key=lambda b: (types[b.item].cost, b.item))
        return next(a for a in d.legal_actions if isinstance(a, FleetReady))
