"""The Delta-V tactical state machine: phases, whose decision it is, validation of every action, the movement
phase and the end of player-turns, who sees which ship (fog of war), cloning and JSON. Views and secret tokens
are built by view.py.

Sequence (design/tactical.md 1.4): [fleet building, simultaneous] then alternating player-turns of the active
player: astrogation (one ``order`` per ship, then ``end_astrogation``) -> ordnance (only if a launch or an
emplacement is possible) -> movement (automatic) -> combat (only if an attack, a hazard or planetary defense is
possible) -> logistics (only if a transfer is possible) -> end of the player-turn (repair, switch player, count
turns). Victory is checked after orders, movement, combat and logistics.

The rules themselves live in small modules: movement.py (courses), ordnance.py (launch and ordnance movement),
combat_phase.py (gun combat, hazards, ramming, planetary defense, using combat.py), logistics.py, fleet.py,
victory.py, detection.py. This module must not roll dice except through ``self.rng``.
"""

from __future__ import annotations

from itertools import combinations

from deltav.core.errors import IllegalAction
from deltav.core.hexgrid import DIRECTIONS
from deltav.core.protocol import Result, State
from deltav.core.rng import Rng
from deltav.core.values import Action, Event

from . import combat_phase, detection, fleet, logistics, ordnance, victory
from . import view as views
from .mapdata import default_map
from .messages import (
    CheckpointVisited,
    EndAstrogation,
    GameOver,
    Order,
    OrderGiven,
    PhaseChanged,
    ShipDestroyed,
    ShipLanded,
    ShipMoved,
    ShipResupplied,
    Surrender,
    Surrendered,
    TurnStarted,
    check_form,
)
from .model import Ordnance, Player, Ship, hkey, hparse
from .movement import (
    CRASH,
    LANDING,
    Course,
    compute_course,
    detect_orbit,
    drift_destination,
    landing_shortcut,
    speed,
    weak_ignorable,
)
from .scenarios import Rules, Scenario
from .shiptypes import ship_data, ship_types

Hex = tuple[int, int]
FLEET, ASTROGATION, ORDNANCE, COMBAT, LOGISTICS, OVER = (
    "fleet_building", "astrogation", "ordnance", "combat", "logistics", "game_over")
DIRS = (0, 1, 2, 3, 4, 5)

_NULL_ORDERS: dict[str, Order] = {}


def null_order(sid: str) -> Order:
    o = _NULL_ORDERS.get(sid)
    if o is None:
        o = _NULL_ORDERS[sid] = Order(sid)
    return o


class TacticalState(State):
    """One position of a Delta-V tactical game (see the module docstring)."""

    num_players = 2

    # --- construction ---------------------------------------------------------------------------------
    @classmethod
    def from_scenario(cls, scenario: Scenario, options: dict, seed: int) -> TacticalState:
        s = cls.__new__(cls)
        s.options = dict(options)
        rules = scenario.rules
        if options.get("grand_tour_luna") and rules.checkpoints and "Luna" not in rules.checkpoints:
            cps = list(rules.checkpoints)
            cps.insert(cps.index("Mars") if "Mars" in cps else len(cps), "Luna")
            rules = Rules(**{**rules.__dict__, "checkpoints": tuple(cps)})
        s.rules = rules
        s.scenario_id = scenario.id
        s.scenario_name = scenario.name
        s.gmap = default_map()
        s.rng = Rng(seed)
        types = ship_types()
        s.players = []
        s.ships = []
        for p, ps in enumerate(scenario.players):
            s.players.append(Player(ps.home, ps.target, ps.escape_wins, ps.bases, ps.credits))
            for st in ps.ships:
                ship = Ship(st.id, p, types[st.type], st.position, st.velocity, st.fuel)
                ship.landed = st.landed
                ship.passengers = st.passengers
                ship.hidden = st.hidden_identity
                s.ships.append(ship)
        hidden = [sh for sh in s.ships if sh.hidden]
        if hidden:
            s.rng.choice(hidden).fugitive = True
        s.ordnance = []
        s.next_ord = 1
        s.destroyed_bases = frozenset()
        s.destroyed_asteroids = frozenset()
        s.orders = {}
        s.launched = ()
        s.hazards = []
        s.combat = None
        s.transfers = 0
        s.moral = False
        s.escaped = None
        s.res = None
        s.turn = 1
        sp = scenario.starting_player
        s.first = s.rng.below(2) if sp == "random" else sp
        s.active = s.first
        s._opts = {}
        s._index = {sh.id: sh for sh in s.ships}
        if any(pl.credits for pl in s.players):
            s.phase = FLEET
            s.purchases = [[], []]
        else:
            s.phase = ASTROGATION
            s.purchases = [[], []]
        return s

    # --- protocol: who acts -----------------------------------------------------------------------------
    def current_players(self):
        if self.res is not None:
            return ()
        if self.phase == FLEET:
            return tuple(p for p in range(2) if not self.players[p].ready)
        return (self.active,)

    def turn_count(self) -> int:
        """Game turns (both players' turns make one; the turn being played counts)."""
        return self.turn

    def is_terminal(self) -> bool:
        return self.res is not None

    def result(self) -> Result | None:
        return self.res

    def ship(self, sid: str) -> Ship | None:
        return self._index.get(sid)

    # --- legal actions ----------------------------------------------------------------------------------
    def legal_actions(self, player: int) -> list[Action]:
        if self.res is not None or player not in self.current_players():
            return []
        phase = self.phase
        if phase == ASTROGATION:
            # every orderable ship's options and whether surrender is possible, once per player-turn (ships do
            # not change while orders are given; a surrender replaces the cache)
            per = self._opts.get(player)
            if per is None:
                per = self._astrogation_table(player)
            out: list[Action] = []
            orders = self.orders
            for sid, options in per[0]:
                if sid not in orders:
                    out.extend(options)
            out.append(_END_ASTRO)
            if per[1]:
                out.append(_SURRENDER)
            return out
        if phase == ORDNANCE:
            return ordnance.legal(self, player)
        if phase == COMBAT:
            return combat_phase.legal(self, player)
        if phase == LOGISTICS:
            return logistics.legal(self, player)
        if phase == FLEET:
            return fleet.legal(self, player)
        return []

    def _astrogation_table(self, player: int) -> tuple:
        ships = tuple((sh.id, self.order_options(sh)) for sh in self.ships
                      if sh.owner == player and self.orderable(sh))
        surrender = not self.rules.hidden_identity and any(
            sh.owner == player and not sh.destroyed and sh.control == "own" for sh in self.ships
        )
        per = self._opts[player] = (ships, surrender)
        return per

    def orderable(self, sh: Ship) -> bool:
        return not sh.destroyed and not sh.emplaced and not sh.type.immobile

    # --- astrogation ------------------------------------------------------------------------------------
    def auto_landing(self, sh: Ship) -> tuple[bool, bool]:
        """The automatic landings, as ``(force_land, synthesize_burn)``: orbiting your target body forces
        ``land`` (any one-fuel burn lands); on the Grand Tour's return leg, orbiting home with every checkpoint
        visited, a coasting ship is given a burn (direction 0, one fuel) and lands."""
        if sh.landed:
            return False, False
        pl = self.players[sh.owner]
        cps = self.rules.checkpoints
        if not pl.target and not (cps and pl.home):
            return False, False
        body = detect_orbit(self.gmap, sh.pos, sh.vel, sh.pending, self.destroyed_bases)
        if body is None:
            return False, False
        if body == pl.target:
            return True, False
        if (cps and body == pl.home and set(cps) <= set(pl.visited) and (sh.fuel is None or sh.fuel >= 1)
                and sh.disabled == 0 and sh.control != "captured"):
            return True, True
        return False, False

    def effective_order(self, sh: Ship, burn, overload, land, auto=None) -> tuple:
        force, synth = self.auto_landing(sh) if auto is None else auto
        if force:
            land = True
            if synth and burn is None:
                burn, overload = 0, None
        return burn, overload, land

    def course_for(self, sh: Ship, order: Order, auto=None) -> Course:
        burn, overload, land = self.effective_order(sh, order.burn, order.overload, order.land, auto)
        weak = tuple(hparse(k) for k in order.weak) if order.weak else ()
        return compute_course(
            self.gmap, sh.pos, sh.vel, sh.fuel, sh.pending, sh.landed, sh.type.can_overload and not sh.overload_used,
            burn, overload, weak, land, self.destroyed_bases,
            self.options["grazing_is_contact"], self.options["takeoff_costs_fuel"],
        )

    def order_options(self, sh: Ship) -> tuple[Order, ...]:
        """Every legal order of one ship (cached for the player-turn: ship states do not change while orders
        are being given; and across states by a signature when no weak-gravity choice is in reach)."""
        cached = self._opts.get(sh.id)
        if cached is not None:
            return cached
        # across states: the options are a pure function of this key (the automatic landing matters only when a
        # weak-gravity choice is in reach)
        kind = 0
        if sh.control != "captured" and sh.disabled == 0 and (sh.fuel is None or sh.fuel >= 1):
            kind = 1
            if sh.type.can_overload and not sh.overload_used and (sh.fuel is None or sh.fuel >= 2):
                kind = 2
        pos, vel = sh.pos, sh.vel
        reach = max(abs(vel[0]), abs(vel[1]), abs(vel[0] + vel[1])) + len(sh.pending) + 2
        weak_near = (not sh.landed or kind > 0) and self.gmap.weak_within(pos, reach)
        key = (sh.id, kind, pos, vel, sh.pending, sh.landed, self.destroyed_bases, self.gmap,
               self.auto_landing(sh) if weak_near else None)
        res = _ORDER_OPTIONS.get(key)
        if res is None:
            res = self._order_options_uncached(sh)
            if len(_ORDER_OPTIONS) > 10_000:
                _ORDER_OPTIONS.clear()
            _ORDER_OPTIONS[key] = res
        self._opts[sh.id] = res
        return res

    def _order_options_uncached(self, sh: Ship) -> tuple[Order, ...]:
        sid = sh.id
        kind = 0
        if sh.control != "captured" and sh.disabled == 0 and (sh.fuel is None or sh.fuel >= 1):
            kind = 1
            if sh.type.can_overload and not sh.overload_used and (sh.fuel is None or sh.fuel >= 2):
                kind = 2
        pairs = _PAIRS[kind]
        gmap = self.gmap
        pos, vel = sh.pos, sh.vel
        drift = (pos[0] + vel[0], pos[1] + vel[1])
        landed = sh.landed
        land_dirs: tuple = ()
        if kind and not landed:
            orbit_now = detect_orbit(gmap, pos, vel, sh.pending, self.destroyed_bases)
            found = []
            for b in DIRS:
                dq, dr = _DIRV[b]
                post = (drift[0] + dq, drift[1] + dr)
                if orbit_now is None:
                    # without an orbit now, the shortcut needs the post-burn hex in gravity at speed 1, or a
                    # stop on a base hex (cheap filters before the full check)
                    rq = post[0] - pos[0]
                    rr = post[1] - pos[1]
                    rel = max(abs(rq), abs(rr), abs(rq + rr))
                    if not ((rel == 1 and post in gmap.gravity) or (rel == 0 and pos in gmap.base)):
                        continue
                if landing_shortcut(gmap, pos, vel, sh.pending, post, self.destroyed_bases, orbit_now):
                    found.append(b)
            land_dirs = tuple(found)
        # weak gravity can only matter if a weak-gravity hex is within reach of this move
        reach = max(abs(vel[0]), abs(vel[1]), abs(vel[0] + vel[1])) + len(sh.pending) + 2
        weak_near = (not landed or kind > 0) and gmap.weak_within(pos, reach)
        if not weak_near:
            key = (sid, kind, land_dirs)
            res = _OPTIONS_CACHE.get(key)
            if res is None:
                out = []
                for b, o in pairs:
                    out.append(_order(sid, b, o))
                    if o is None and b in land_dirs:
                        out.append(_order(sid, b, None, True))
                res = tuple(out)
                if len(_OPTIONS_CACHE) > 50_000:
                    _OPTIONS_CACHE.clear()
                _OPTIONS_CACHE[key] = res
            return res
        force, synth = self.auto_landing(sh)
        base = drift_destination(pos, vel, sh.pending)
        out: list[Order] = []
        for b, o in pairs:
            if landed and b is None:
                ign = ()
            elif force and o is None and (b if b is not None else (0 if synth else None)) in land_dirs:
                ign = ()  # the automatic landing shortcut lands this order
            else:
                dq, dr = _BURNV[(b, o)]
                ign = weak_ignorable(gmap, pos, (base[0] + dq, base[1] + dr))
            if ign:
                keys = sorted(hkey(h) for h in ign)
                for k in range(len(keys) + 1):
                    for combo in combinations(keys, k):
                        out.append(Order(sid, b, o, False, combo))
            else:
                out.append(_order(sid, b, o))
            if o is None and b in land_dirs:
                out.append(_order(sid, b, None, True))
        return tuple(out)

    def check_order(self, player: int, o: Order, preview: bool = False) -> Ship:
        """Validate an order (raises IllegalAction naming the rule) and return its ship. ``preview``: skip the
        one-order-per-ship check (course previews)."""
        if o.weak:
            check_form(o)  # weak-gravity entries are hex keys (MalformedAction naming the entry)
        sh = self._index.get(o.ship)
        if sh is None:
            raise IllegalAction("tactical.order.unknown_ship", f"no ship {o.ship!r}")
        if sh.owner != player:
            raise IllegalAction("tactical.order.not_yours", f"ship {o.ship} is not yours")
        if not self.orderable(sh):
            raise IllegalAction("tactical.order.not_orderable", f"ship {o.ship} cannot take orders (destroyed or a base)")
        if o.ship in self.orders and not preview:
            raise IllegalAction("tactical.order.duplicate", f"ship {o.ship} already has an order this turn")
        for name, d in (("burn", o.burn), ("overload", o.overload)):
            if d is not None and not 0 <= d <= 5:
                raise IllegalAction("tactical.order.direction", f"{name} must be a direction 0..5 or null, got {d}")
        if sh.control == "captured" and (o.burn is not None or o.overload is not None or o.land):
            raise IllegalAction("tactical.order.captured", f"captured ship {o.ship} may only coast")
        if o.burn is not None:
            if sh.disabled > 0:
                raise IllegalAction("tactical.order.disabled", f"ship {o.ship} is disabled and drifts")
            if sh.fuel is not None and sh.fuel < 1:
                raise IllegalAction("tactical.order.fuel", f"ship {o.ship} has no fuel remaining")
        if o.overload is not None:
            if o.burn is None:
                raise IllegalAction("tactical.order.overload_needs_burn", "an overload needs a burn")
            if not sh.type.can_overload:
                raise IllegalAction("tactical.order.overload_warship", f"a {sh.type.name} is not a warship")
            if sh.overload_used:
                raise IllegalAction("tactical.order.overload_used",
                                    f"ship {o.ship} already overloaded since its last maintenance")
            if sh.fuel is not None and sh.fuel < 2:
                raise IllegalAction("tactical.order.fuel", f"an overload needs 2 fuel, ship {o.ship} has {sh.fuel}")
        if o.land:
            if o.burn is None or o.overload is not None or sh.landed:
                raise IllegalAction("tactical.order.land", "a landing from orbit is one burn of one fuel")
            if not self.course_for(sh, o).shortcut:
                raise IllegalAction("tactical.order.land",
                                    f"ship {o.ship} is not in orbit (nor would be after this burn): it cannot land")
        if o.weak:
            if list(o.weak) != sorted(set(o.weak)):
                raise IllegalAction("tactical.order.weak_gravity", "weak-gravity hexes must be sorted and unique")
            course = self.course_for(sh, Order(o.ship, o.burn, o.overload, o.land))
            allowed = {hkey(h) for h in course.ignorable}
            for k in o.weak:
                if k not in allowed:
                    raise IllegalAction(
                        "tactical.order.weak_gravity",
                        f"{k} is not a weak-gravity hex this course may ignore (ignorable: {sorted(allowed)})",
                    )
        return sh

    # --- apply ------------------------------------------------------------------------------------------
    def apply_action(self, player: int, action: Action) -> list[Event]:
        self.game.actions.check(action)  # a non-action, another game's action or a wrong-typed field
        self.check_turn(player)
        phase = self.phase
        if phase == ASTROGATION:
            if isinstance(action, Order):
                self.check_order(player, action)
                self.orders = {**self.orders, action.ship: action}
                return [OrderGiven(player, action.ship, action.burn, action.overload, action.land, action.weak,
                                   (player,))]
            if isinstance(action, EndAstrogation):
                return self.end_astrogation()
            if isinstance(action, Surrender):
                if self.rules.hidden_identity:
                    raise IllegalAction("tactical.surrender.escape", "no surrender in this scenario")
                mine = [s for s in self.ships if s.owner == player and not s.destroyed and s.control == "own"]
                if not mine:
                    raise IllegalAction("tactical.surrender.none", "you have no ship under your control")
                for s in mine:
                    s.control = "surrendered"
                events: list[Event] = [Surrendered(player)]
                self._opts = {}
                return events
            raise IllegalAction("tactical.phase", f"it is the astrogation phase: {action.TYPE} is not allowed now")
        if phase == ORDNANCE:
            return ordnance.apply(self, player, action)
        if phase == COMBAT:
            return combat_phase.apply(self, player, action)
        if phase == LOGISTICS:
            return logistics.apply(self, player, action)
        if phase == FLEET:
            return fleet.apply(self, player, action)
        raise IllegalAction("protocol.game_over", "the game is over")

    def end_astrogation(self) -> list[Event]:
        events: list[Event] = []
        if ordnance.phase_available(self):
            self.phase = ORDNANCE
            self.launched = ()
            events.append(PhaseChanged(self.active, ORDNANCE))
            return events
        events.extend(self.movement_phase())
        return events

    # --- movement ---------------------------------------------------------------------------------------
    def movement_phase(self) -> list[Event]:
        """Move the active player's ships, then ordnance, then the post-movement steps (1.4 step 3)."""
        p = self.active
        gmap = self.gmap
        moves = []
        events: list[Event] = []
        orders = self.orders
        for sh in self.ships:
            if sh.owner != p or not self.orderable(sh):
                sh.path = ()
                continue
            order = orders.get(sh.id) or null_order(sh.id)
            if sh.disabled > 0 or sh.control == "captured":
                order = null_order(sh.id)
            c = self.course_for(sh, order)
            was_landed = sh.landed
            moves.append((sh, c, was_landed))
            if sh.fuel is not None:
                sh.fuel -= c.fuel_spent
            if c.overloaded:
                sh.overload_used = True
            sh.path = tuple(c.contact)
            if c.outcome == CRASH:
                sh.pos = c.crash_hex
                sh.vel = (0, 0)
                sh.pending = ()
                self.destroy(sh, "crash")
                continue
            sh.pos = c.destination
            if c.outcome == LANDING:
                sh.vel = (0, 0)
                sh.pending = ()
                sh.landed = True
                if self.is_friendly_base(p, sh.pos):
                    self.resupply(sh, full=True)
                continue
            sh.vel = c.velocity
            sh.pending = c.pending
            sh.landed = False
            if self.options["escape_is_winnable"] and self.escape_candidate(sh) and sh.pos[1] < gmap.bounds[2]:
                # ruling 1: the fugitive escapes north before any off-map elimination
                self.escaped = (sh.id, sh.fuel is None or speed(sh.vel) + 1 <= sh.fuel)
            elif gmap.off_map(sh.pos):
                self.destroy(sh, "off_map")
            elif speed(c.velocity) > 1:
                combat_phase.queue_hazards(self, sh, c)
        # b. Grand Tour checkpoints
        cp_events = self.record_checkpoints(p, moves)
        # c-f. orbital-base resupply, inspection, capture, ramming; g. ordnance
        post = combat_phase.post_movement(self, p)
        ord_events = ordnance.movement_step(self, p)
        # h. detection
        det_events = detection.update(self)
        # events, with fog-of-war audiences decided after detection
        for sh, c, was_landed in moves:
            to = self.audience(sh)
            stayed = was_landed and c.burns == 0
            if not stayed:
                events.append(ShipMoved(
                    sh.id, hkey(c.start), tuple(hkey(h) for h in c.path), hkey(c.destination),
                    (c.velocity[0], c.velocity[1]), c.fuel_spent, sh.fuel,
                    tuple((hkey(e[0]), e[1], e[4]) for e in c.entered), to,
                ))
            if c.outcome == CRASH:
                events.append(ShipDestroyed(sh.id, hkey(sh.pos), "crash", c.body, to))
            elif sh.cause == "off_map" and sh.destroyed:
                events.append(ShipDestroyed(sh.id, hkey(sh.pos), "off_map", None, to))
            elif c.outcome == LANDING and not stayed:
                events.append(ShipLanded(sh.id, hkey(sh.pos), c.body, to))
            if sh.resupplied and c.outcome == LANDING and not sh.destroyed:
                events.append(ShipResupplied(sh.id, hkey(sh.pos), to))
        events.extend(cp_events)
        events.extend(post)
        events.extend(ord_events)
        events.extend(det_events)
        # i-j. moral flag and immediate victory
        self.orders = {}
        events.extend(self.check_victory())
        if self.res is None:
            events.extend(combat_phase.enter_after_movement(self))
        return events

    def escape_candidate(self, sh: Ship) -> bool:
        if self.rules.escape_edge != "north" or not self.players[sh.owner].escape_wins or sh.destroyed:
            return False
        if self.rules.hidden_identity:
            return sh.fugitive
        return True

    def is_friendly_base(self, player: int, h: Hex) -> bool:
        return h in self.players[player].bases and h not in self.destroyed_bases and h in self.gmap.base

    def resupply(self, sh: Ship, full: bool) -> None:
        """Maintenance at a friendly base (``full``: overload reset too) or an own orbital base (1.7)."""
        sh.fuel = sh.type.fuel
        sh.cargo_used = ship_data().orbital_base_cargo if sh.carrying_base else 0
        sh.nukes = 0
        if full:
            sh.overload_used = False
        sh.disabled = 0
        sh.control = "own"
        sh.resupplied = True

    def record_checkpoints(self, p: int, moves) -> list[Event]:
        cps = self.rules.checkpoints
        if not cps:
            return []
        pl = self.players[p]
        visited = list(pl.visited)
        events: list[Event] = []
        gmap = self.gmap
        for sh, c, _ in moves:
            for h in sh.path if sh.path else (c.start,):
                bodies = []
                g = gmap.gravity.get(h)
                if g is not None:
                    bodies.append(g[1])
                s = gmap.surface.get(h)
                if s is not None:
                    bodies.append(s)
                for b in bodies:
                    if b in cps and b not in visited:
                        if b == pl.home and not visited:
                            continue
                        visited.append(b)
                        events.append(CheckpointVisited(p, b, None))
        if len(visited) != len(pl.visited):
            pl.visited = tuple(visited)
        return events

    def audience(self, sh: Ship) -> tuple[int, ...] | None:
        if not self.options["fog_of_war"] or sh.detected:
            return None
        return (sh.owner,)

    def ordnance_audience(self, o: Ordnance) -> tuple[int, ...] | None:
        """Who sees events about an item (ruling 7): everyone once the enemy detected it, else its owner."""
        if not self.options["fog_of_war"] or o.detected:
            return None
        return (o.owner,)

    # --- end of player-turn, victory --------------------------------------------------------------------
    def end_player_turn(self) -> list[Event]:
        p = self.active
        for sh in self.ships:
            if sh.owner == p:
                sh.resupplied = False
                if sh.disabled > 0 and not sh.destroyed:
                    sh.disabled -= 1
        self.hazards = [h for h in self.hazards if self._index[h[0]].owner != p]
        self.active = 1 - p
        if self.active == 0:
            self.turn += 1
        self.orders = {}
        self.launched = ()
        self.combat = None
        self.transfers = 0
        self._opts = {}
        events: list[Event] = []
        if self.turn > self.options["turn_limit"]:
            self.res = victory.turn_limit_result(self)
            self.phase = OVER
            events.append(GameOver(self.res.winners, self.res.reason))
            return events
        self.phase = ASTROGATION
        events.append(TurnStarted(self.active, self.turn))
        return events

    def check_victory(self) -> list[Event]:
        res = victory.check(self)
        if res is None:
            return []
        self.res = res
        self.phase = OVER
        return [GameOver(res.winners, res.reason)]

    def destroy(self, sh: Ship, cause: str) -> None:
        sh.destroyed = True
        sh.cause = cause
        sh.landed = False

    # --- views ------------------------------------------------------------------------------------------
    def visible(self, sh: Ship, player: int | None) -> bool:
        """Does ``player`` see this ship? Its owner always; the enemy and a spectator (``None``: public
        information only) once the enemy has detected it (with fog of war, ruling 4)."""
        if sh.owner == player or not self.options["fog_of_war"]:
            return True
        return sh.detected

    def ordnance_visible(self, o: Ordnance, player: int | None) -> bool:
        if o.owner == player or not self.options["fog_of_war"]:
            return True
        return o.detected

    def view(self, player: int | None) -> dict:
        return views.state_view(self, player)

    def secret_tokens(self, player: int | None) -> set[str]:
        return views.secret_tokens(self, player)

    # --- copies and JSON --------------------------------------------------------------------------------
    def clone(self) -> TacticalState:
        s = TacticalState.__new__(TacticalState)
        s.options = self.options
        s.rules = self.rules
        s.scenario_id = self.scenario_id
        s.scenario_name = self.scenario_name
        s.gmap = self.gmap
        s.rng = self.rng.clone()
        s.players = [p.copy() for p in self.players]
        s.ships = ships = [sh.copy() for sh in self.ships]
        s._index = {sh.id: sh for sh in ships}
        s.ordnance = [o.copy() for o in self.ordnance]
        s.next_ord = self.next_ord
        s.destroyed_bases = self.destroyed_bases
        s.destroyed_asteroids = self.destroyed_asteroids
        s.orders = self.orders  # replaced, never mutated
        s.launched = self.launched
        s.hazards = list(self.hazards)
        s.combat = self.combat.copy() if self.combat is not None else None
        s.transfers = self.transfers
        s.moral = self.moral
        s.escaped = self.escaped
        s.res = self.res
        s.turn = self.turn
        s.first = self.first
        s.active = self.active
        s.phase = self.phase
        s.purchases = [list(self.purchases[0]), list(self.purchases[1])]
        s._opts = self._opts  # per player-turn cache: entries stay valid; replaced (never cleared) on change
        return s

    def to_json(self) -> dict:
        return {
            "format": "deltav-tactical-state/1",
            "options": dict(self.options),
            "scenario": self.scenario_id,
            "name": self.scenario_name,
            "rules": self.rules.to_json(),
            "rng": self.rng.to_json(),
            "players": [p.to_json() for p in self.players],
            "ships": [sh.to_json() for sh in self.ships],
            "ordnance": [o.to_json() for o in self.ordnance],
            "next_ordnance": self.next_ord,
            "destroyed_bases": sorted(hkey(h) for h in self.destroyed_bases),
            "destroyed_asteroids": sorted(hkey(h) for h in self.destroyed_asteroids),
            "orders": {k: v.to_json() for k, v in sorted(self.orders.items())},
            "launched": list(self.launched),
            "hazards": [[s, hkey(h)] for s, h in self.hazards],
            "combat": self.combat.to_json() if self.combat is not None else None,
            "transfers": self.transfers,
            "moral": self.moral,
            "escaped": list(self.escaped) if self.escaped else None,
            "result": self.res.to_json() if self.res else None,
            "turn": self.turn,
            "first_player": self.first,
            "active_player": self.active,
            "phase": self.phase,
            "purchases": [[list(x) for x in self.purchases[q]] for q in range(2)],
        }

    @classmethod
    def from_json(cls, obj: dict) -> TacticalState:
        s = cls.__new__(cls)
        s.options = dict(obj["options"])
        s.rules = Rules.from_json(obj["rules"])
        s.scenario_id = obj["scenario"]
        s.scenario_name = obj["name"]
        s.gmap = default_map()
        s.rng = Rng.from_json(obj["rng"])
        s.players = [Player.from_json(p) for p in obj["players"]]
        s.ships = [Ship.from_json(x) for x in obj["ships"]]
        s._index = {sh.id: sh for sh in s.ships}
        s.ordnance = [Ordnance.from_json(x) for x in obj["ordnance"]]
        s.next_ord = obj["next_ordnance"]
        s.destroyed_bases = frozenset(hparse(h) for h in obj["destroyed_bases"])
        s.destroyed_asteroids = frozenset(hparse(h) for h in obj["destroyed_asteroids"])
        from .messages import Order as _Order

        s.orders = {k: _Order(v["ship"], v["burn"], v["overload"], v["land"], tuple(v["weak"]))
                    for k, v in obj["orders"].items()}
        s.launched = tuple(obj["launched"])
        s.hazards = [(a, hparse(b)) for a, b in obj["hazards"]]
        s.combat = combat_phase.CombatState.from_json(obj["combat"]) if obj["combat"] is not None else None
        s.transfers = obj["transfers"]
        s.moral = obj["moral"]
        s.escaped = tuple(obj["escaped"]) if obj["escaped"] else None
        s.res = Result.from_json(obj["result"]) if obj["result"] else None
        s.turn = obj["turn"]
        s.first = obj["first_player"]
        s.active = obj["active_player"]
        s.phase = obj["phase"]
        s.purchases = [[tuple(x) for x in obj["purchases"][q]] for q in range(2)]
        s._opts = {}
        return s


_DIRV = DIRECTIONS
_BURNS = tuple((b, None) for b in DIRS)
_OVERLOADS = tuple((b, o) for b in DIRS for o in DIRS)
_KEYS = {}
for _b, _o in ((None, None),) + _BURNS + _OVERLOADS:
    _q = _r = 0
    for _d in (_b, _o):
        if _d is not None:
            _q += DIRECTIONS[_d][0]
            _r += DIRECTIONS[_d][1]
    _KEYS[(_b, _o)] = (_q, _r, _b is not None, _o is not None)
_BURNV = {k: (v[0], v[1]) for k, v in _KEYS.items()}
_ORDER_CACHE: dict[tuple, Order] = {}
_ORDER_OPTIONS: dict[tuple, tuple] = {}  # order_options' signature -> options
_OPTIONS_CACHE: dict[tuple, tuple] = {}
_PAIRS = (((None, None),), ((None, None),) + _BURNS, ((None, None),) + _BURNS + _OVERLOADS)


def _burn_key(b, o) -> tuple:
    return _KEYS[(b, o)]


def _order(sid: str, b, o, land: bool = False) -> Order:
    k = (sid, b, o, land)
    x = _ORDER_CACHE.get(k)
    if x is None:
        if len(_ORDER_CACHE) > 200_000:
            _ORDER_CACHE.clear()
        x = _ORDER_CACHE[k] = Order(sid, b, o, land)
    return x


_END_ASTRO = EndAstrogation()
_SURRENDER = Surrender()
