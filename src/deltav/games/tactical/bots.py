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
from deltav.core.protocol import Decision

from .heuristics import goal_hexes, score_course
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
