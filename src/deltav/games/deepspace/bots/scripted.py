"""The Deep Space Combat scripted bot (``normal``), a baseline that plays every decision from its view and legal
actions:

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

This module owns the scripted bot only; the other levels subclass it (:mod:`.cadet`, :mod:`.planner_bot`).
"""

from __future__ import annotations

from deltav.core.agent import Agent
from deltav.core.hexgrid import distance
from deltav.core.protocol import Decision
from deltav.games.deepspace.bots.heuristics import estimated_enemy_stats, ship_points
from deltav.games.deepspace.choices import velocity_actions
from deltav.games.deepspace.design import load_fleet
from deltav.games.deepspace.messages import (
    Allocate,
    AutoAllocate,
    Done,
    EndShip,
    Fire,
    NewShip,
    Place,
    SelfDestruct,
    SetVelocity,
    UseFleet,
    VelocityColumn,
    WeaponDamage,
    WeaponTargeting,
    Withdraw,
)
from deltav.games.deepspace.odds import expected_damage, expected_shot, p_hit

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
