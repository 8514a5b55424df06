"""``LevelBot`` ("level", with ``level`` = easy / normal / hard) is the difficulty ladder built on it (see its
docstring, :data:`LEVELS`, :data:`PRESETS` and docs/bots-tactical.md): easy is short-sighted and sometimes
random, normal is the scripted plan (with escorts keeping station with colonists and colonists shared over several
hulls), hard adds the astrogation planner (bots/routes.py), the one-move landing look-ahead, two-ply gun and ordnance
tactics (tactics.py), the multi-turn intercept of runners (intercept.py) and the hold doctrine of an outgunned
last ship.

Bots see only their ``Decision`` (view, legal actions, rng, sampled worlds); this module must not read the true
state. This module owns :class:`LevelBot`; its per-level knobs are data in :mod:`.levels`.
"""

from __future__ import annotations

from deltav.core.agent import Param
from deltav.core.frozen import Frozen
from deltav.core.protocol import Decision
from deltav.games.tactical.bots.heuristics import (
    defense_survival,
    goal_hexes,
    gun_threat,
    landing_next,
    preview_pending,
    score_course,
    survivable,
)
from deltav.games.tactical.bots.intercept import intercept_values, quarry_column, runner_track
from deltav.games.tactical.bots.levels import LEVELS
from deltav.games.tactical.bots.routes import RouteCache, drift_safe, edge_row, hazard_count, hazard_weight
from deltav.games.tactical.bots.routes import safe as keeps_flying
from deltav.games.tactical.bots.scripted import ScriptedBot
from deltav.games.tactical.bots.tactics import (
    RAM_DAMAGE_CHANCE,
    Tactics,
    can_fire,
    enemy_hexes,
    launch_value,
    meets_enemy,
    ram_loss_beyond,
    strength,
)
from deltav.games.tactical.combat import effective_strength
from deltav.games.tactical.courses import course_for
from deltav.games.tactical.messages import (
    Buy,
    EndAstrogation,
    EndCombat,
    EndLogistics,
    EndOrdnance,
    Fire,
    FleetReady,
    Launch,
    Order,
    Transfer,
)
from deltav.games.tactical.movement import drift_destination
from deltav.games.tactical.ordnance_tables import launch_velocity
from deltav.games.tactical.preview import preview_courses
from deltav.games.tactical.scenarios import get_scenario
from deltav.games.tactical.shiptypes import ship_types

NAV_GOALS = ("target", "home", "refuel", "checkpoint")
PLAN_BONUS = 1000.0
RUNNER_FOLLOW_UP = 2.0
#: the intercept plan's cost of one asteroid hazard (in chances of a hit); in Escape an enforcer hit for D2 hands
#: the Pilgrims their moral victory
HAZARD = 0.1
#: score bonus of keeping station with the colonists' carrier (normal and hard; see LevelBot._escort_order)
ESCORT_BONUS = 2000.0
#: the speed from which a course's unsafe drift is guarded with every enemy out of sight (``_blind_guard``)
BLIND_SPEED = 3
#: score bonus of a course from which the next order lands on the goal (hard; see LevelBot._land_next)
LAND_NEXT_BONUS = 1500.0
#: colonists a carrier shares with each undamaged ship on its course (knob ``spread``; LevelBot._logistics)
SPREAD = 5
#: cost of a certain hit on a ship carrying colonists (hard; see LevelBot._land_next)
CARRIER_RISK = 600.0
ESCAPE_HAZARD = 0.6  # the third ply's weight factor against a side that runs for a goal


class LevelBot(ScriptedBot):
    """The difficulty ladder (``level`` = ``easy``, ``normal`` or ``hard``; see :data:`LEVELS`).

    - **easy** plays the one-ply course scoring short-sightedly: it does not check that its next drift can be
      survived, never overloads, gives one order in four (after the first turn) at random among those that
      neither crash nor strand it, launches no ordnance, fires one gun attack per combat phase and buys the
      biggest hulls it can afford;
    - **normal** is the scripted bot: one-ply course scoring with a survival check, every worthwhile attack
      from the exact odds, torpedoes, and a fleet bought for combat factor per credit;
    - **hard** adds the astrogation planner (``bots/routes.py``: beam search over positions, velocities, pending
      gravity and fuel for the fewest turns to a landing or a Grand Tour checkpoint, followed while the ship is
      where the plan said) and the two-ply gun tactics (``bots/tactics.py``: the best shot this course gives minus
      the best shot every enemy can answer with over all its courses, from the exact odds, plus half the
      best follow-up shot next turn); it launches only ordnance whose flight meets an enemy this very turn
      (a nuke ending in an enemy's hex destroys it). Chasing a runner (the Blockade runner, Escape's pilgrims,
      colonists), it plans a multi-turn intercept (``bots/intercept.py``: the runner's predicted track against a
      beam over our next six moves, for the best chance of a damaging shot), remembering where a runner hidden
      by fog of war was last seen (or, on the first turn, the scenario's published start); in Escape it never
      rams (an enforcer damaged for two turns gives the Pilgrims their moral victory); under enemy guns it
      avoids courses whose disabled drift would crash.

    Normal and hard escorts keep station with the colonists' carrier (Convoy, Lunar Evacuation) and never land
    on the target without colonists; in the logistics phase the carrier shares colonists with every undamaged
    ship on its course (``_logistics``), so one hit cannot end the passenger objective. Hard also looks one move
    past each course for a landing on its goal (``_land_next``: Lunar Evacuation's two-turn landing past Terra's
    defense), values its chase against each colonist carrier, and an outgunned last ship holds at its bases
    (``_hold``).

    Budget: no iterations; every decision is a fixed enumeration (hard: at most one plan search of
    ``beam * 7 * depth`` courses, cached, plus at most 43 x 43 course pairs per ship in combat, fewer by the
    exact branch and bound of :meth:`_tactics`)."""

    name = "level"
    #: the spec parameters (``bot:level:level=hard``) and their bounds
    PARAMS = {
        "level": Param(str, "normal", "the level of the ladder", choices=tuple(LEVELS)),
        "strict": ScriptedBot.PARAMS["strict"],
        "beam": Param(int, 48, "positions the hard level's astrogation planner keeps per turn", minimum=1,
                      maximum=256),
        "depth": Param(int, 16, "turns the hard level's astrogation planner looks ahead", minimum=1, maximum=64),
    }

    def __init__(self, level: str = "normal", strict: bool = False, beam: int = 48, depth: int = 16):
        super().__init__(strict=strict)
        if level not in LEVELS:
            raise ValueError(f"level must be one of {sorted(LEVELS)}, got {level!r}")
        self.level = level
        self.knobs = LEVELS[level]
        self.nearest_group = self.knobs.nearest_group
        self.beam = beam
        self.depth = depth
        self.routes = RouteCache()
        self._attacks = 0
        self._combat_turn = None
        #: last seen state of each enemy ship (hard's chase of a runner hidden by fog of war)
        self.seen: dict[str, tuple] = {}
        #: ship id -> (stamp, the read-only view record ``seen`` was last updated from at that stamp)
        self._seen_recs: dict[str, tuple] = {}
        #: (tactics_key, Tactics) of the last decision that asked for one (``_tactics_of``)
        self._tac = None

    # --- astrogation ------------------------------------------------------------------------------------
    def _astrogation(self, d: Decision):
        k = self.knobs
        orders = [a for a in d.legal_actions if isinstance(a, Order)]
        if not orders:
            return next(a for a in d.legal_actions if isinstance(a, EndAstrogation))
        sid = orders[0].ship
        mine = [o for o in orders if o.ship == sid]
        if not k.overload:
            mine = [o for o in mine if o.overload is None] or mine
        world = d.sample_world()
        sh = world.ship(sid)
        goals, why = goal_hexes(world, sh)
        if k.hold and why in ("enemy", "patrol"):
            home = self._hold(world, sh)
            if home:
                goals, why = home, "refuel"  # land (or stay landed) at our base: out of reach, resupplied
        if why == "enemy" and k.planner:
            goals = self._intercept_goals(world, sh) or goals
        previews = list(zip(mine, preview_courses(world, sid, mine, legal=True)))
        if k.noise and world.turn > 1 and d.rng.random() < k.noise:
            safe = [o for o, pv in previews if not pv.crashes and (pv.lands or survivable(
                world, pv.destination, pv.velocity, preview_pending(pv), pv.fuel_after))]
            if safe:
                return safe[d.rng.below(len(safe))]
        sc = []
        scored: dict[int, float] = {}  # orders sharing a preview (overloads (b, o) and (o, b)) share its score
        for _o, pv in previews:
            x = scored.get(id(pv))
            if x is None:
                x = scored[id(pv)] = score_course(world, sh, pv, goals, why, k.lookahead)
            sc.append(x)
        if k.planner:
            # look three moves ahead for a way to keep flying (the one-ply score looks one)
            gmap = world.gmap
            dbases = frozenset(world.destroyed_bases)
            grazing = world.options["grazing_is_contact"]
            for i, (_o, pv) in enumerate(previews):
                s = sc[i]
                if pv.lands or s <= -10_000:
                    continue
                pending = preview_pending(pv)
                if not keeps_flying(gmap, pv.destination, pv.velocity, pending, pv.fuel_after, 3, dbases, grazing):
                    s -= 20_000.0
                if s > -10_000:
                    hz = hazard_weight(hazard_count(gmap, sh.pos, pv.destination))
                    if hz:
                        # a hit disables the ship: it then drifts, which must not end in a crash
                        risky = not drift_safe(gmap, pv.destination, pv.velocity, pending, 3 + sh.disabled)
                        s -= (600.0 if risky else 60.0) * hz * (1.0 + sh.disabled / 2.0)
                sc[i] = s
        scores = {o: sc[i] for i, (o, _pv) in enumerate(previews)}
        if k.land_next and why in ("target", "home") and not sh.disabled:
            self._land_next(d, world, sh, previews, scores, goals)
        if k.escort and why == "target" and not sh.passengers and world.rules.target_requires_passengers:
            # only colonists count: an escort landing on the target (an enemy base: no resupply) wins nothing
            target = world.players[sh.owner].target
            for o, pv in previews:
                if pv.lands and pv.body == target:
                    scores[o] = min(scores[o], -100.0)
        if k.escort and why == "target" and not sh.passengers and not sh.disabled:
            o = self._escort_order(world, sh, mine)
            if o is not None:
                scores[o] += ESCORT_BONUS
        if k.planner and why in NAV_GOALS and not sh.disabled:
            step = self._plan(world, sh, goals, why)
            if step is not None:
                burn, land, weak, _left = step
                wk = tuple(sorted(f"{h[0]},{h[1]}" for h in weak))
                for o in mine:
                    if o.burn == burn and o.overload is None and o.land == land and tuple(sorted(o.weak)) == wk:
                        scores[o] += PLAN_BONUS
                        break
        if k.intercept and world.rules.combat and why in ("enemy", "patrol") and not sh.disabled:
            if world.rules.hidden_identity and not world.players[sh.owner].escape_wins:
                # an Escape enforcer damaged for 2 turns or more hands the Pilgrims their moral victory: no rams
                for o, pv in previews:
                    if not pv.lands and any(e.owner != sh.owner and not e.destroyed and not e.landed
                                            and e.pos == pv.destination and world.visible(e, sh.owner)
                                            for e in world.ships):
                        scores[o] -= 5000.0
            vals = self._intercept_values(d, world, sh)
            if vals:
                w = k.intercept
                for o in mine:
                    if scores[o] > -10_000 and not o.land:
                        scores[o] += w * vals.get((o.burn, o.overload), 0.0)
        if k.tactics and world.rules.combat:
            tac = self._tactics_of(d, world)
            if tac.enemies:
                self._tactics(world, d.player, sh, tac, previews, scores)
            elif k.drift_guard and not sh.disabled:
                self._blind_guard(world, sh, previews, scores, bool(d.view.get("unseen_enemy_ships")), tac)
        best = best_score = None
        for o in mine:
            x = scores[o]
            if best is None or x > best_score:
                best, best_score = o, x
        return best

    def _tactics_of(self, d: Decision, world) -> Tactics:
        """The :class:`Tactics` of ``d.player`` on ``world``, kept for the next decisions while what it reads is the
        same (:func:`tactics_key`: the enemy side of the view), so the ships of one phase share its courses,
        flights and memos; a new one otherwise."""
        key = tactics_key(d.view, d.player)
        hit = self._tac
        if hit is not None and hit[0] == key:
            return hit[1]
        tac = Tactics(world, d.player)
        self._tac = (key, tac)
        return tac

    def _tactics(self, world, player: int, sh, tac, previews, scores) -> None:
        """Hard's gun tactics on every course: ``tactics * value`` (the shot now minus every enemy's reply),
        ``tactics * follow_up weight * follow_up`` (the third ply), and the drift guard: a course whose drift (as a
        disabled ship) crashes within three moves costs the flat ``drift_guard`` under enemy guns, or the ship's
        worth at its chance of damage before it moves again if more (:func:`_exposure`: rams, planetary defense,
        guns; issue 30).

        Branch and bound, exact: the courses are completed best first (by an optimistic score: the score so
        far plus the gain of the shot now, :meth:`Tactics.gain`, plus the largest follow-up it could get,
        :meth:`Tactics.follow_up_bound`; the threat and the guard only subtract), and a course whose optimistic
        score is below the best completed one is left unfinished, below it. The costly parts (every enemy's
        reply over its 43 courses, next turn's courses) are only computed for courses that could be chosen.
        Every finished course gets its score by the same sums in the same order as without the bound, so the
        course chosen is the same."""
        k = self.knobs
        w = k.tactics
        wf = w * self.follow_up_weight(world, player)
        guard = k.drift_guard
        # exposed to damage before our next move (then we drift): enemy guns anywhere (at least the flat
        # ``guard``), a ram, certain to be rolled, in an enemy's hex or where a drifting enemy will drift
        # (tac.rams), the enemy's planetary defense; a drift into a body then loses the whole ship, valued at its
        # worth times the chance of damage (``_exposure``)
        shooters = bool(tac.shooters)
        rams = set(tac.rams)
        rams.update(e.pos for e in tac.enemies)
        defended = world.rules.planetary_defense
        guarding = guard and (shooters or rams or defended) and not sh.disabled
        at_stake = w * (sh.type.combat + 1.0)
        ram_extra = w * ram_loss_beyond(sh.disabled, sh.type.combat + 1.0)
        gmap = world.gmap
        # the scores by course index while bounding (an Order hashes all its fields on every dict lookup)
        sc = [scores[o] for o, _pv in previews]
        # courses that end alike (overloads (b, o) and (o, b); weak gravity ignored or not) share their values:
        # the shot now and the reply depend on the contact path, destination, velocity and landing, the
        # follow-up bound on the destination, velocity and pending gravity (``sh`` is the same throughout)
        # (kept on ``tac`` for every ship of ours with the same ``tactics.ship_key``: one phase's stacked ships
        # share them)
        gains, values, bounds, exposures = tac.memos(sh)
        keys = []
        todo = []
        for i, (_o, pv) in enumerate(previews):
            pending = preview_pending(pv)
            key = (pv.contact, pv.destination, pv.velocity, pv.lands)
            keys.append(key)
            gained = gains.get(key)
            if gained is None:
                gained = gains[key] = tac.gain(sh, pv.contact, pv.destination, pv.velocity, pv.lands)
            if pv.lands or not k.follow_up:
                f_ub = 0.0
            else:
                bkey = (pv.destination, pv.velocity, pending)
                f_ub = bounds.get(bkey)
                if f_ub is None:
                    f_ub = bounds[bkey] = tac.follow_up_bound(sh, pv.destination, pv.velocity, pending)
            s = sc[i]
            ub = ((s + w * gained[0]) + wf * f_ub) if s > -10_000 else s
            todo.append((-ub, i, gained, pending, f_ub))
        todo.sort(key=lambda t: (t[0], t[1]))
        best = None
        for neg_ub, i, gained, pending, f_ub in todo:
            pv = previews[i][1]
            if best is not None and -neg_ub < best:
                break  # neither this course nor any after it can beat the best: left below it
            s = sc[i]
            if s > -10_000:
                v = values.get(keys[i])
                if v is None:
                    v = values[keys[i]] = tac.value(sh, pv.contact, pv.destination, pv.velocity, pv.lands, gained)
                s += w * v
            if s > -10_000 and not pv.lands and k.follow_up:
                if best is not None and s + wf * f_ub < best:
                    sc[i] = s
                    continue
                s += wf * tac.follow_up(sh, pv.destination, pv.velocity, pending, pv.fuel_after)
            # under the enemy's guns or in a drifting enemy's path: a hit or a ram disables us, and a disabled ship
            # drifts (into a planet?)
            if guarding and s > -10_000 and not pv.lands and not drift_safe(
                    gmap, pv.destination, pv.velocity, pending, 3, extend=True):
                rammed = pv.destination in rams
                ekey = (pv.destination, pv.velocity, rammed)
                p = exposures.get(ekey)
                if p is None:
                    p = exposures[ekey] = _exposure(world, tac, sh, pv.destination, pv.velocity, rammed)
                s -= max(guard if shooters else 0.0, at_stake * p)
                if rammed:
                    # the ram's value counted our damage as a part of our worth: here it loses the ship
                    s -= ram_extra
            sc[i] = s
            if best is None or s > best:
                best = s
        for i, (o, _pv) in enumerate(previews):
            scores[o] = sc[i]

    def _blind_guard(self, world, sh, previews, scores, unseen: bool, tac=None) -> None:
        """The drift guard with no enemy ship in sight (issue 30): enemy ships hidden by fog of war may still
        reach us (Interplanetary War's frigates flew at speed 3 toward an unseen fleet, on a course whose drift
        fell into a body, and were disabled by torpedoes and rams there), and the enemy's planetary defense
        fires anyway. A course at speed :data:`BLIND_SPEED` or more whose drift crashes within three moves costs
        the flat guard while enemy ships are unseen, and any course the ship's worth at the planetary defense's
        chance of damage if more (at every speed the unseen guard lost Duels to normal: hard kept away from
        Mercury and Sol while the enemy was out of sight, and gave it the first shot). Enemy ships landed in
        sight (``tac.landed_shooters``) can take off and fire: their best shot's chance of damage counts as the
        planetary defense's does."""
        k = self.knobs
        at_stake = k.tactics * (sh.type.combat + 1.0)
        gmap = world.gmap
        for o, pv in previews:
            s = scores[o]
            if s <= -10_000 or pv.lands:
                continue
            if drift_safe(gmap, pv.destination, pv.velocity, preview_pending(pv), 3):
                continue  # a safe drift costs nothing: its exposure is not worked out
            pd = 1.0 - defense_survival(world, sh.owner, pv.destination)
            if tac is not None and tac.landed_shooters:
                pd = max(pd, gun_threat(tac, sh, pv.destination, pv.velocity, True))
            q, r = pv.velocity
            fast = max(abs(q), abs(r), abs(q + r)) >= BLIND_SPEED
            if not (unseen and fast) and not pd:
                continue
            scores[o] = s - max(k.drift_guard if unseen and fast else 0.0, at_stake * pd)

    def _land_next(self, d: Decision, world, sh, previews, scores, goals) -> None:
        """Look one move past each course: a course that ends where the next order can land on the goal gets
        :data:`LAND_NEXT_BONUS` times the chance that the ship is still undamaged when it gives that order (a
        disabled ship must coast and cannot land): the enemy's planetary defense there (its real odds, one
        2:1 shot per enemy base in range) and, for a ship carrying colonists, the best gun shot any visible
        enemy can take at it after its next move (every course it can fly, exact odds). Such a carrier also
        pays :data:`CARRIER_RISK` times the chance of damage for every flying course (a landed ship cannot be
        shot at)."""
        gmap = world.gmap
        gset = frozenset(goals)
        dbases = frozenset(world.destroyed_bases)
        grazing = world.options["grazing_is_contact"]
        tac = self._tactics_of(d, world) if (sh.passengers and world.rules.combat) else None
        for o, pv in previews:
            if scores[o] <= -10_000 or pv.lands:
                continue
            p_safe = defense_survival(world, sh.owner, pv.destination)
            if tac is not None:
                p_safe *= 1.0 - gun_threat(tac, sh, pv.destination, pv.velocity)
                scores[o] -= CARRIER_RISK * (1.0 - p_safe)
            if landing_next(gmap, pv.destination, pv.velocity, preview_pending(pv), pv.fuel_after, gset, dbases,
                            grazing):
                scores[o] += LAND_NEXT_BONUS * p_safe

    def _hold(self, world, sh) -> tuple:
        """The hold doctrine (hard, knob ``hold``): the last ship of a side defending against colonists or a
        runner (an enemy side with a target), outgunned at least two to one by the enemy's armed ships (those
        it sees, and those last seen that it has not seen destroyed), does not go out to fight them: it waits
        landed at its own bases (undetected, out of reach of guns, resupplied) and takes off only when a
        runner of theirs could land with its next order (then it chases and fires as usual). Returns our intact
        bases to hold at, or () when the doctrine does not apply."""
        if not world.rules.combat or not LevelBot._last_ship(world, sh) or not can_fire(sh):
            return ()
        enemy = 1 - sh.owner
        pl = world.players[enemy]
        if not pl.target:
            return ()
        gmap = world.gmap
        bases = tuple(sorted(h for h in world.players[sh.owner].bases
                             if h not in world.destroyed_bases and h in gmap.base))
        if not bases:
            return ()
        theirs = [e for e in world.ships if e.owner == enemy and not e.destroyed and world.visible(e, sh.owner)
                  and not e.id.startswith("unseen-")]
        force = sum(strength(e) for e in theirs if can_fire(e))
        seen_now = {e.id for e in theirs}
        types = ship_types()
        for sid, v in self.seen.items():
            t = types.get(v[5])
            if sid not in seen_now and t is not None and not t.defensive:
                force += cb_strength(t.combat, 0)
        if force < 2 * strength(sh):
            return ()
        goal = frozenset(h for h in gmap.bases_of.get(pl.target, ()) if h not in world.destroyed_bases)
        dbases = frozenset(world.destroyed_bases)
        grazing = world.options["grazing_is_contact"]
        for e in theirs:
            if e.landed or e.disabled or not (e.passengers or not world.rules.target_requires_passengers):
                continue
            if landing_next(gmap, e.pos, e.vel, tuple(e.pending), e.fuel, goal, dbases, grazing):
                return ()  # it lands next move unless we hit it now
        return bases

    @staticmethod
    def _last_ship(world, sh) -> bool:
        """Is ``sh`` the last ship of its side (its loss ends the game by fleet elimination)?"""
        return not any(o.owner == sh.owner and o.id != sh.id and not o.destroyed for o in world.ships)

    def follow_up_weight(self, world, player: int) -> float:
        """The weight of the third ply: doubled against a side that runs for a goal (a pursuer's only chance
        is to be on the quarry's course next turn)."""
        w = self.knobs.follow_up
        pl = world.players[1 - player]
        return RUNNER_FOLLOW_UP * w if (pl.target or pl.escape_wins) else w

    @staticmethod
    def _escort_order(world, sh, mine):
        """A ship of a side that must land colonists keeps station with the carrier it flies with (same hex,
        velocity and pending gravity): it takes the order the carrier was given this turn, so an attack on the
        carrier meets the escort's counterattack. None if there is no such carrier or order."""
        if not world.rules.target_requires_passengers:
            return None
        for c in world.ships:
            if c.owner != sh.owner or c.id == sh.id or c.destroyed or not c.passengers:
                continue
            if (c.pos, c.vel, tuple(c.pending), c.landed) != (sh.pos, sh.vel, tuple(sh.pending), sh.landed):
                continue
            co = world.orders.get(c.id)
            if co is None:
                continue
            for o in mine:
                if o.burn == co.burn and o.overload is None and o.land == co.land and tuple(o.weak) == tuple(co.weak):
                    return o
        return None

    # --- the chase (intercept.py) ----------------------------------------------------------------------
    def act(self, decision: Decision):
        if self.knobs.intercept or self.knobs.hold:
            self._remember(decision.view, decision.player)
        return super().act(decision)

    def _remember(self, view, player: int) -> None:
        """Keep the last seen state of every enemy ship (a runner hidden by fog of war is chased where it was
        last seen, advanced along its predicted track)."""
        if view.get("phase") != "astrogation":
            return
        stamp = (view.get("turn"), view.get("active_player"))
        recs = self._seen_recs
        for s in view.get("ships", ()):
            if s["owner"] == player:
                continue
            # a read-only record (shared by the views of a player-turn) already read at this stamp changes nothing
            sid = s["id"]
            hit = recs.get(sid)
            if hit is not None and hit[1] is s and hit[0] == stamp:
                continue
            if type(s) is Frozen:
                recs[sid] = (stamp, s)
            else:
                recs.pop(sid, None)
            if s.get("destroyed"):
                self.seen.pop(s["id"], None)
                continue
            self.seen[s["id"]] = (stamp, tuple(s["position"]), tuple(s["velocity"]),
                                  tuple(s.get("pending_gravity") or ()), s.get("fuel"), s["type"],
                                  s.get("disabled", 0), bool(s.get("landed")), s.get("passengers", 0),
                                  bool(s.get("hidden_identity")))

    def _quarry(self, d: Decision, world, sh):
        """The runner our ship chases, as ``(pos, vel, pending, fuel, type, disabled, moves_unseen)``: the
        visible enemy ship that carries the enemy's objective (colonists, a hidden identity, a defensive hull,
        else any), else the one last seen, else (first turn, fog of war) the scenario's published start."""
        enemy = 1 - sh.owner
        pl = world.players[enemy]
        if not (pl.target or pl.escape_wins):
            return None

        def rank(passengers, hidden, tname):
            t = ship_types().get(tname)
            return (passengers > 0, hidden, bool(t and t.defensive), -(t.combat if t else 0))

        vis = [e for e in world.ships if e.owner == enemy and not e.destroyed and not e.landed
               and world.visible(e, sh.owner) and not e.id.startswith("unseen-")]
        if vis:
            e = max(vis, key=lambda e: (rank(e.passengers, e.hidden, e.type.name), e.id))
            return (e.pos, e.vel, tuple(e.pending), e.fuel, e.type.name, e.disabled, 0)
        if self.seen:
            cands = [(k, v) for k, v in self.seen.items() if not v[7]]
            if cands:
                sid, v = max(cands, key=lambda kv: (rank(kv[1][8], kv[1][9], kv[1][5]), kv[0]))
                stamp, pos, vel, pend, fuel, tname, dis = v[:7]
                moves = max(0, (world.turn or 0) - (stamp[0] or 0))
                return (pos, vel, pend, fuel, tname, dis, moves)
            return None
        if (world.turn or 0) <= 1:
            try:
                sc = get_scenario(d.view.get("scenario"))
            except Exception:
                return None
            starts = [s for s in sc.players[enemy].ships if not s.landed]
            if not starts:
                return None
            s = max(starts, key=lambda s: (rank(s.passengers, s.hidden_identity, s.type), s.id))
            return (tuple(s.position), tuple(s.velocity), (), s.fuel, s.type, 0, 0)
        return None

    def _intercept_values(self, d: Decision, world, sh) -> dict:
        """intercept.intercept_values for our ship against the runner it chases (empty if none); with the knob
        ``carriers`` > 1 (hard) and colonists on several hulls, each first move is valued against the carrier it
        can hit best."""
        if not can_fire(sh):
            return {}
        q = self._quarry(d, world, sh)
        if q is None:
            return {}
        vals = self._intercept_one(world, sh, q)
        if self.knobs.carriers > 1 and world.rules.target_requires_passengers:
            # colonists on several hulls: every carrier must be stopped, so chase the one we can hit best
            enemy = 1 - sh.owner
            others = sorted((e for e in world.ships if e.owner == enemy and not e.destroyed and not e.landed
                             and e.passengers and world.visible(e, sh.owner) and not e.id.startswith("unseen-")
                             and (e.pos, e.vel) != q[:2]), key=lambda e: (-e.passengers, e.id))
            for e in others[:self.knobs.carriers - 1]:
                more = self._intercept_one(world, sh, (e.pos, e.vel, tuple(e.pending), e.fuel, e.type.name,
                                                       e.disabled, 0))
                for key, v in more.items():
                    if v > vals.get(key, 0.0):
                        vals[key] = v
        return vals

    def _intercept_one(self, world, sh, q) -> dict:
        """intercept.intercept_values for our ship against one quarry ``q`` (see :meth:`_quarry`)."""
        pos, vel, pend, fuel, tname, dis, moves = q
        gmap = world.gmap
        enemy = 1 - sh.owner
        pl = world.players[enemy]
        dbases = frozenset(world.destroyed_bases)
        grazing = world.options["grazing_is_contact"]
        escape_row = None
        if pl.target:
            goals = tuple(sorted(h for h in gmap.bases_of.get(pl.target, ()) if h not in dbases))
        else:
            escape_row = gmap.bounds[2]
            goals = edge_row(gmap, escape_row - 1)
        horizon = self.knobs.intercept_horizon
        track = runner_track(gmap, pos, vel, pend, fuel, dis, goals, escape_row, horizon + moves, dbases, grazing)
        if moves:
            if len(track) <= moves:
                return {}
            pos, vel = track[moves - 1]
            track = track[moves:]
        # the quarry's landing or escape ends the game before we fire again
        if track:
            last = track[-1][0]
            if last in goals or (escape_row is not None and last[1] < escape_row):
                track = track[:-1]
        t = ship_types()[tname]
        column = quarry_column(strength(sh), cb_strength(t.combat, dis))
        targets = ((pos, vel),) + track
        return intercept_values(gmap, sh.pos, sh.vel, tuple(sh.pending), sh.fuel,
                                sh.type.can_overload and not sh.overload_used and self.knobs.overload,
                                column, targets, horizon, self.knobs.intercept_beam, dbases, grazing,
                                ESCAPE_HAZARD if world.rules.hidden_identity else HAZARD,
                                not world.rules.hidden_identity)

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
        beam, depth = self.beam, self.depth
        if why == "refuel":  # a smaller search for the way back to a base (issue 30: a third of Fleet Action's CPU)
            beam, depth = min(beam, self.knobs.refuel_beam), min(depth, self.knobs.refuel_depth)
            if fleet_battle(world):  # a retreat in a fleet battle (cutfleet: 12 there doubled the fuel stalls)
                beam = min(beam, self.knobs.fleet_refuel_beam)
            elif world.rules.combat:  # a retreat: a narrower beam (the failing searches were most of its cost)
                beam = min(beam, self.knobs.combat_refuel_beam)
        return self.routes.next_step(gmap, sh, kind, tuple(sorted(goals)), body, world.destroyed_bases,
                                     world.options["grazing_is_contact"], world.options["takeoff_costs_fuel"],
                                     beam, depth, 3 + sh.disabled)

    # --- logistics --------------------------------------------------------------------------------------
    def _logistics(self, d: Decision):
        """Colonists (Convoy, Lunar Evacuation; knob ``spread``): a disabled carrier hands its colonists to an
        undamaged ship of ours on its course (the rescue: a disabled ship cannot land), and a carrier with
        several colonists shares up to :data:`SPREAD` of them with each undamaged ship on its course that
        carries none, so one hit no longer ends the passenger objective and any of them may land. Nothing
        else is transferred."""
        legal = d.legal_actions
        end = next(a for a in legal if isinstance(a, EndLogistics))
        mode = self.knobs.spread
        if not mode:
            return end
        world = d.sample_world()
        best = None
        for a in legal:
            if not isinstance(a, Transfer) or a.kind != "passengers":
                continue
            src, dst = world.ship(a.source), world.ship(a.target)
            if src.owner != d.player or dst.disabled or dst.passengers and not src.disabled:
                continue
            if src.disabled:
                key = (2, a.amount)  # rescue: as many as fit
            elif mode == "spread" and src.passengers >= 2 and a.amount <= min(SPREAD, src.passengers - 1):
                key = (1, a.amount)
            else:
                continue
            if best is None or key > best[0] or (key == best[0] and (a.source, a.target) < (best[1].source,
                                                                                          best[1].target)):
                best = (key, a)
        return end if best is None else best[1]

    # --- combat and ordnance ----------------------------------------------------------------------------
    def _combat(self, d: Decision):
        turn = (d.view.get("turn"), d.view.get("active_player"))
        if turn != self._combat_turn:
            self._combat_turn = turn
            self._attacks = 0
        legal = d.legal_actions
        if self._attacks >= self.knobs.attacks:
            return next(a for a in legal if isinstance(a, EndCombat))
        a = super()._combat(d)
        if isinstance(a, Fire):
            self._attacks += 1
        return a

    def _fleet(self, d: Decision):
        """easy buys the biggest hulls it can afford (the scripted rule: a dreadnaught for 600 MC); normal and
        hard buy combat factor per credit: frigates (8 for 150 MC), then corsairs and corvettes with the rest,
        at most eight ships."""
        if self.knobs.fleet == "biggest":
            return super()._fleet(d)
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
        if not self.knobs.ordnance:
            return next(a for a in d.legal_actions if isinstance(a, EndOrdnance))
        if self.knobs.tactics:
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
        launches = []
        targets: dict = {}  # kind -> tactics.enemy_hexes, asked once
        for a in d.legal_actions:
            if isinstance(a, Launch):
                sh = world.ship(a.ship)
                vel = launch_velocity(sh.vel, a.boost_dir, a.boost)
                hexes = targets.get(a.kind)
                if hexes is None:
                    hexes = targets[a.kind] = enemy_hexes(world, d.player, a.kind)
                # a flight that meets no enemy is worth 0 at best (-1 if it meets one of ours, a nuke's blast
                # minus our ships): never above 1, so our ships' courses are only worked out for the others
                if meets_enemy(world, d.player, sh, a.kind, vel, hexes):
                    launches.append((a, sh, vel))
        if not launches:
            return None
        own_paths = {}
        for s in world.ships:
            if s.owner == d.player and not s.destroyed:
                order = world.orders.get(s.id) or Order(s.id)
                try:
                    c = course_for(world, s, order)
                except Exception:
                    continue
                own_paths[s.id] = (tuple(c.contact), c.destination)
        best = None
        for a, sh, vel in launches:
            v = launch_value(world, d.player, sh, a.kind, vel, own_paths)
            if v > 1.0 and (best is None or v > best[0]):
                best = (v, a)
        return None if best is None else best[1]


def fleet_battle(world) -> bool:
    """Is ``world`` a fleet battle: a scenario whose sides buy their fleets with fleet-building credits (Fleet
    Action, Interplanetary War; every ship a warship of the buyer's choice), where the knobs ``fleet_*`` of
    :mod:`.levels` apply? Duel, Escape, Convoy and the other scenarios with fixed ships are not."""
    return any(pl.credits for pl in world.players)


def tactics_key(view, player: int) -> tuple:
    """Everything of ``player``'s view that a :class:`Tactics` of it (with the memos it keeps: the enemy ships'
    courses, flights and replies; the planetary defense of ``_exposure``) can read, apart from our own ships,
    which enter it only as arguments: the moment (turn, phase, active player), the map and rules, the enemy
    ships' records, the ordnance, the players (their bases) and the destroyed bases. Two views with equal keys
    give the same answers (a world determinized from a view adds only unseen placeholders, never visible, and
    the fugitive's identity, never read by Tactics)."""
    return (view["turn"], view["phase"], view["active_player"], view["scenario"], view["options"], view["rules"],
            tuple(s for s in view["ships"] if s["owner"] != player), view["ordnance"], view["players"],
            view["destroyed_bases"], view["destroyed_asteroids"], view["unseen_enemy_ships"])


def _exposure(world, tac, sh, dest, vel, rammed: bool) -> float:
    """The chance that our ship ``sh`` ending its move at ``dest`` with ``vel`` is damaged (so disabled and
    drifting) before it moves again: the largest of a ram's (certain to be rolled), the enemy's planetary
    defense's and the best enemy gun shot's (``heuristics.gun_threat``)."""
    p = RAM_DAMAGE_CHANCE if rammed else 0.0
    pd = 1.0 - defense_survival(world, sh.owner, dest)
    if pd > p:
        p = pd
    if tac.shooters or tac.landed_shooters:
        g = gun_threat(tac, sh, dest, vel, True)
        if g > p:
            p = g
    return p


def cb_strength(combat: int, disabled: int) -> int:
    return effective_strength(combat, disabled)
