"""Scripted bots for Delta-V tactical.

``ScriptedBot`` ("scripted"): a one-ply course enumeration. For each of its ships it previews every legal order on
a determinized world (own ships are exact there), discards crashes and courses that leave no survivable next move,
and scores the rest by distance to the ship's goal (target base, next Grand Tour checkpoint, the northern edge,
or the nearest visible enemy; see heuristics.py). In combat it attacks any visible target it can hit at 1:1 or
better; it launches nothing; it buys the most expensive hulls it can afford. It only ever returns one of the
legal actions it was given.
"""

from __future__ import annotations

from deltav.core.agent import Agent
from deltav.core.hexgrid import distance
from deltav.core.protocol import Decision

from .heuristics import goal_hexes, score_course
from .movement import drift_destination
from .ordnance_tables import launch_velocity
from .preview import preview_course
from .values import (
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


class ScriptedBot(Agent):
    name = "scripted"

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
        except Exception:  # a heuristic failure must never become an illegal action
            pass
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
        for o in mine:
            pv = preview_course(world, sid, o)
            sc = score_course(world, sh, pv, goals, why)
            if best_score is None or sc > best_score:
                best, best_score = o, sc
        return best

    def _combat(self, d: Decision):
        legal = d.legal_actions
        fires = [a for a in legal if isinstance(a, Fire)]
        if fires:
            world = d.sample_world()
            best = None
            for f in fires:
                t = world.ship(f.target)
                if t is None:
                    continue
                grp = (world.combat.group if world.combat else ())
                strength = sum(world.ship(x).type.combat for x in grp)
                defense = t.type.combat if t.disabled == 0 else 0
                if f.strength is None and strength >= defense and (best is None or defense > best[0]):
                    best = (defense, f)
            if best is not None:
                return best[1]
        adds = [a for a in legal if isinstance(a, AddAttacker)]
        if adds and not fires:
            return adds[0]
        if adds:
            return adds[0]
        return next(a for a in legal if isinstance(a, EndCombat))

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

    def _fleet(self, d: Decision):
        buys = [a for a in d.legal_actions if isinstance(a, Buy) and a.item != "orbitalBaseCargo"]
        from .shiptypes import ship_types

        types = ship_types()
        bought = sum(1 for _ in (d.view.get("purchases") or [[], []])[d.player] or [])
        if buys and bought < 6:
            warships = [b for b in buys if types[b.item].warship] or buys
            return max(warships, key=lambda b: (types[b.item].cost, b.item))
        return next(a for a in d.legal_actions if isinstance(a, FleetReady))


BOTS = {"scripted": ScriptedBot}
