"""Scripted bots for Delta-V tactical.

``ScriptedBot`` ("scripted"): a one-ply course enumeration. For each of its ships it previews every legal order on
a determinized world (own ships are exact there), discards crashes and courses that leave no survivable next move,
and scores the rest by distance to the ship's goal (target base, next Grand Tour checkpoint, the northern edge,
the nearest visible enemy, or a friendly base to refuel; see heuristics.py). In combat it gathers every ship that
sees the target with the best expected damage dealt against counterattack damage taken and fires at full
strength (``heuristics.attack_plan``); it launches a torpedo when the torpedo's next hex meets a visible enemy;
it buys the most expensive warships it can afford (at most six). It only ever returns one of the legal actions
it was given.

``LevelBot`` ("level", with ``level`` = easy / normal / hard) is the difficulty ladder built on it (see its
docstring, :data:`LEVELS`, :data:`PRESETS` and docs/bots-tactical.md): easy is short-sighted and sometimes
random, normal is the scripted plan, hard adds the astrogation planner (planner.py) and two-ply gun and ordnance
tactics (tactics.py).

Bots see only their ``Decision`` (view, legal actions, rng, sampled worlds); this module must not read the true
state.
"""

from __future__ import annotations

from deltav.core.agent import Agent
from deltav.core.hexgrid import distance
from deltav.core.protocol import Decision

from .heuristics import attack_plan, goal_hexes, preview_pending, score_course, survivable
from .movement import drift_destination
from .ordnance_tables import launch_velocity
from .planner import drift_safe, hazard_count
from .planner import safe as keeps_flying
from .preview import preview_course
from .tactics import Tactics, launch_value
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
    #: re-raise heuristic failures instead of falling back to a safe legal action (tests set it)
    strict = False

    def __init__(self, strict: bool = False):
        self.strict = strict

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
        for o in mine:
            pv = preview_course(world, sid, o)
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
        plan = attack_plan(world, d.player)
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

    def _fleet(self, d: Decision):
        buys = [a for a in d.legal_actions if isinstance(a, Buy) and a.item != "orbitalBaseCargo"]
        from .shiptypes import ship_types

        types = ship_types()
        bought = sum(1 for _ in (d.view.get("purchases") or [[], []])[d.player] or [])
        if buys and bought < 6:
            warships = [b for b in buys if types[b.item].warship] or buys
            return max(warships, key=lambda b: (types[b.item].cost, b.item))
        return next(a for a in d.legal_actions if isinstance(a, FleetReady))



#: The knobs of the three levels (docs/bots-tactical.md). ``noise``: share of turns (after the first) in which a
#: ship takes a random order that neither crashes nor strands it; ``overload``: overloads considered;
#: ``ordnance``: launches torpedoes; ``attacks``: gun attacks per combat phase; ``planner``: follows the
#: astrogation planner's fewest-turns route to a landing or checkpoint (and plans around asteroids, looking
#: three moves ahead); ``tactics``: adds the two-ply gun evaluation (tactics.py) to every course, weighted by
#: ``tactics``; ``follow_up``: weight of the third ply (the next turn's best shot); ``fleet``: ``biggest``
#: hulls or combat factor ``per_credit``; ``lookahead``: penalise courses whose next drift cannot be survived.
LEVELS = {
    "easy": {"noise": 0.25, "overload": False, "ordnance": False, "attacks": 1, "planner": False, "tactics": 0.0,
             "follow_up": 0.0, "fleet": "biggest",
             "lookahead": False},
    "normal": {"noise": 0.0, "overload": True, "ordnance": True, "attacks": 99, "planner": False, "tactics": 0.0,
               "follow_up": 0.0, "fleet": "per_credit",
               "lookahead": True},
    "hard": {"noise": 0.0, "overload": True, "ordnance": True, "attacks": 99, "planner": True, "tactics": 60.0,
             "follow_up": 0.5, "fleet": "per_credit",
             "lookahead": True},
}
NAV_GOALS = ("target", "home", "refuel", "checkpoint")
PLAN_BONUS = 1000.0
RUNNER_FOLLOW_UP = 2.0  # the third ply's weight factor against a side that runs for a goal


class LevelBot(ScriptedBot):
    """The difficulty ladder (``level`` = ``easy``, ``normal`` or ``hard``; see :data:`LEVELS`).

    - **easy** plays the one-ply course scoring short-sightedly: it does not check that its next drift can be
      survived, never overloads, gives one order in four (after the first turn) at random among those that
      neither crash nor strand it, launches no ordnance, fires one gun attack per combat phase and buys the
      biggest hulls it can afford;
    - **normal** is the scripted bot: one-ply course scoring with a survival check, every worthwhile attack
      from the exact odds, torpedoes, and a fleet bought for combat factor per credit;
    - **hard** adds the astrogation planner (``planner.py``: beam search over positions, velocities, pending
      gravity and fuel for the fewest turns to a landing or a Grand Tour checkpoint, followed while the ship is
      where the plan said) and the two-ply gun tactics (``tactics.py``: the best shot this course gives minus
      the best shot every enemy can answer with over all its courses, from the exact odds, plus half the
      best follow-up shot next turn); it launches only ordnance whose flight meets an enemy this very turn
      (a nuke ending in an enemy's hex destroys it).

    Budget: no iterations; every decision is a fixed enumeration (hard: at most one plan search of
    ``beam * 7 * depth`` courses, cached, plus 43 x 43 course pairs per ship in combat)."""

    name = "level"

    def __init__(self, level: str = "normal", strict: bool = False, beam: int = 48, depth: int = 16):
        super().__init__(strict=strict)
        if level not in LEVELS:
            raise ValueError(f"level must be one of {sorted(LEVELS)}, got {level!r}")
        self.level = level
        self.knobs = LEVELS[level]
        self.beam = beam
        self.depth = depth
        from .planner import RouteCache

        self.routes = RouteCache()
        self._attacks = 0
        self._combat_turn = None

    # --- astrogation ------------------------------------------------------------------------------------
    def _astrogation(self, d: Decision):
        k = self.knobs
        orders = [a for a in d.legal_actions if isinstance(a, Order)]
        if not orders:
            return next(a for a in d.legal_actions if isinstance(a, EndAstrogation))
        sid = orders[0].ship
        mine = [o for o in orders if o.ship == sid]
        if not k["overload"]:
            mine = [o for o in mine if o.overload is None] or mine
        world = d.sample_world()
        sh = world.ship(sid)
        goals, why = goal_hexes(world, sh)
        if why == "enemy" and k["planner"]:
            goals = self._intercept_goals(world, sh) or goals
        previews = [(o, preview_course(world, sid, o)) for o in mine]
        if k["noise"] and world.turn > 1 and d.rng.random() < k["noise"]:
            safe = [o for o, pv in previews if not pv.crashes and (pv.lands or survivable(
                world, pv.destination, pv.velocity, preview_pending(pv), pv.fuel_after))]
            if safe:
                return safe[d.rng.below(len(safe))]
        scores = {o: score_course(world, sh, pv, goals, why, k["lookahead"]) for o, pv in previews}
        if k["planner"]:
            # look three moves ahead for a way to keep flying (the one-ply score looks one)
            gmap = world.gmap
            for o, pv in previews:
                if not pv.lands and scores[o] > -10_000 and not keeps_flying(
                        gmap, pv.destination, pv.velocity, preview_pending(pv), pv.fuel_after, 3,
                        frozenset(world.destroyed_bases), world.options["grazing_is_contact"]):
                    scores[o] -= 20_000.0
                if scores[o] > -10_000 and not pv.lands:
                    hz = hazard_count(gmap, sh.pos, pv.destination)
                    if hz:
                        # a hit disables the ship: it then drifts, which must not end in a crash
                        risky = not drift_safe(gmap, pv.destination, pv.velocity, preview_pending(pv),
                                               3 + sh.disabled)
                        scores[o] -= (600.0 if risky else 60.0) * hz * (1.0 + sh.disabled / 2.0)
        if k["planner"] and why in NAV_GOALS and not sh.disabled:
            step = self._plan(world, sh, goals, why)
            if step is not None:
                burn, land, weak, _left = step
                wk = tuple(sorted(f"{h[0]},{h[1]}" for h in weak))
                for o in mine:
                    if o.burn == burn and o.overload is None and o.land == land and tuple(sorted(o.weak)) == wk:
                        scores[o] += PLAN_BONUS
                        break
        if k["tactics"] and world.rules.combat:
            tac = Tactics(world, d.player)
            if tac.enemies:
                w = k["tactics"]
                for o, pv in previews:
                    if scores[o] > -10_000:
                        scores[o] += w * tac.value(sh, pv.contact, pv.destination, pv.velocity, pv.lands)
                        if not pv.lands and k["follow_up"]:
                            scores[o] += w * self.follow_up_weight(world, d.player) * tac.follow_up(
                                sh, pv.destination, pv.velocity, preview_pending(pv), pv.fuel_after)
        best = None
        for o in mine:
            if best is None or scores[o] > scores[best]:
                best = o
        return best

    def follow_up_weight(self, world, player: int) -> float:
        """The weight of the third ply: doubled against a side that runs for a goal (a pursuer's only chance
        is to be on the quarry's course next turn)."""
        w = self.knobs["follow_up"]
        pl = world.players[1 - player]
        return RUNNER_FOLLOW_UP * w if (pl.target or pl.escape_wins) else w

    @staticmethod
    def _intercept_goals(world, sh):
        """Where the visible enemy ships will be after their next move if they coast (an interceptor heads
        there rather than where they are now); runners (ships with a goal of their own) count first."""
        enemies = [e for e in world.ships if e.owner != sh.owner and not e.destroyed and not e.landed
                   and world.visible(e, sh.owner)]
        if not enemies:
            return ()
        pl = world.players[1 - sh.owner]
        if pl.target or pl.escape_wins:
            runners = [e for e in enemies if e.type.defensive or e.passengers or e.hidden] or enemies
        else:
            runners = enemies
        return tuple(sorted({drift_destination(e.pos, e.vel, e.pending) for e in runners}))

    def _plan(self, world, sh, goals, why):
        gmap = world.gmap
        if why == "checkpoint":
            body = None
            for h in goals:
                g = gmap.gravity.get(h)
                body = g[1] if g is not None else gmap.surface.get(h)
                if body is not None:
                    break
            kind = "visit"
        else:
            body, kind = None, "land"
        return self.routes.next_step(gmap, sh, kind, tuple(sorted(goals)), body, world.destroyed_bases,
                                     world.options["grazing_is_contact"], world.options["takeoff_costs_fuel"],
                                     self.beam, self.depth, 3 + sh.disabled)

    # --- combat and ordnance ----------------------------------------------------------------------------
    def _combat(self, d: Decision):
        turn = (d.view.get("turn"), d.view.get("active_player"))
        if turn != self._combat_turn:
            self._combat_turn = turn
            self._attacks = 0
        legal = d.legal_actions
        if self._attacks >= self.knobs["attacks"]:
            return next(a for a in legal if isinstance(a, EndCombat))
        a = super()._combat(d)
        if isinstance(a, Fire):
            self._attacks += 1
        return a

    def _fleet(self, d: Decision):
        """easy buys the biggest hulls it can afford (the scripted rule: a dreadnaught for 600 MC); normal and
        hard buy combat factor per credit: frigates (8 for 150 MC), then corsairs and corvettes with the rest,
        at most eight ships."""
        if self.knobs["fleet"] == "biggest":
            return super()._fleet(d)
        from .shiptypes import ship_types

        types = ship_types()
        buys = [a for a in d.legal_actions if isinstance(a, Buy) and a.item != "orbitalBaseCargo"
                and types[a.item].warship]
        bought = len((d.view.get("purchases") or [[], []])[d.player] or [])
        if buys and bought < 8:
            def value(b):
                t = types[b.item]
                return (t.combat / t.cost, t.combat, b.item)

            return max(buys, key=value)
        return next(a for a in d.legal_actions if isinstance(a, FleetReady))

    def _ordnance(self, d: Decision):
        if not self.knobs["ordnance"]:
            return next(a for a in d.legal_actions if isinstance(a, EndOrdnance))
        if self.knobs["tactics"]:
            # only launches that meet an enemy this very turn: cargo is kept for a sure nuke
            a = self._exact_launch(d)
            if a is not None:
                return a
            return next(a for a in d.legal_actions if isinstance(a, EndOrdnance))
        return super()._ordnance(d)

    def _exact_launch(self, d: Decision):
        """The launch whose flight this very movement phase meets an enemy ship with the best expected value
        (tactics.launch_value, in units of a ship's worth; a nuke ending in an enemy's hex destroys it), if
        worth more than 1."""
        world = d.sample_world()
        own_paths = {}
        for s in world.ships:
            if s.owner == d.player and not s.destroyed:
                order = world.orders.get(s.id) or Order(s.id)
                try:
                    c = world.course_for(s, order)
                except Exception:
                    continue
                own_paths[s.id] = (tuple(c.contact), c.destination)
        best = None
        for a in d.legal_actions:
            if not isinstance(a, Launch):
                continue
            sh = world.ship(a.ship)
            vel = launch_velocity(sh.vel, a.boost_dir, a.boost)
            v = launch_value(world, d.player, sh, a.kind, vel, own_paths)
            if v > 1.0 and (best is None or v > best[0]):
                best = (v, a)
        return None if best is None else best[1]


BOTS = {"scripted": ScriptedBot, "level": LevelBot}

#: Difficulty presets (schema of deltav.agents.presets): the ladder is LevelBot at three levels.
PRESETS = {
    "easy": {"agent": "level", "params": {"level": "easy"},
             "budget": "one-ply course scoring, 25% random safe orders, no overloads or ordnance: about 1 ms"},
    "normal": {"agent": "level", "params": {"level": "normal"},
               "budget": "one-ply course scoring with a survival check, exact-odds attacks: about 1 ms"},
    "hard": {"agent": "level", "params": {"level": "hard"},
             "budget": "planner (beam 48 x 16 turns, cached) + two-ply gun tactics over 43 x 43 courses: "
                       "a few ms, at most ~0.1 s"},
}


def race_figures(scenario: str, level: str = "hard", n: int = 20, seed: int = 1) -> dict:
    """Race figures of one level playing itself (docs/bots-tactical.md): per game the game turn at the end
    (``state.turn``, the reference's ``turnNumber``) and how it ended; the mean turn of the games won by the
    scenario's objective (a landing or the completed Grand Tour)."""
    from deltav.core.match import play_match
    from deltav.core.rng import derive_seed
    from deltav.games import load_all

    game = load_all()["tactical"]
    games = []
    for i in range(n):
        _, final, _ = play_match(game, {"scenario": scenario}, derive_seed(seed, "game", i),
                                 [LevelBot(level), LevelBot(level)])
        res = final.result()
        games.append({"turn": final.turn, "winners": list(res.winners), "reason": res.reason})
    done = [g["turn"] for g in games if "Landed" in g["reason"] or "Grand Tour complete" in g["reason"]]
    return {
        "scenario": scenario, "level": level, "games": n,
        "objective_games": len(done),
        "mean_objective_turn": sum(done) / len(done) if done else None,
        "mean_turn": sum(g["turn"] for g in games) / n,
        "p0_wins": sum(1 for g in games if g["winners"] == [0]),
        "reasons": {r: sum(1 for g in games if g["reason"] == r) for r in sorted({g["reason"] for g in games})},
    }


if __name__ == "__main__":  # python -m deltav.games.tactical.bots SCENARIO [LEVEL] [N] [SEED]
    import json
    import sys

    args = sys.argv[1:]
    print(json.dumps(race_figures(args[0], *(args[1:2] or ["hard"]), *[int(x) for x in args[2:4]]), indent=2))
