"""The Knight Hawks game state and its turn sequence (Advanced Game, rules 4.1): per side turn a movement
phase (screens, seekers, orbits, plotted moves executed together, then mines and seekers detonate) and a
combat phase (fire damage, defensive fire by the non-moving side, offensive fire by the moving side), a
repair turn after every 3 game turns, victory checks after every resolution.

Owns: the state record, the decision points and their legal actions, the sequencing, attack resolution and
the view. Rules arithmetic lives in damage.py, combat.py, movement.py and repair.py; data in tables.py.
"""

from __future__ import annotations

from typing import Any, ClassVar

from deltav.core import hexgrid
from deltav.core.errors import IllegalAction
from deltav.core.protocol import Game, Result, State
from deltav.core.rng import Rng
from deltav.games.knighthawks import damage as dmg
from deltav.games.knighthawks import messages as m
from deltav.games.knighthawks import repair as rep
from deltav.games.knighthawks.combat import (
    chance_to_hit,
    defense_column,
    half_damage,
    in_forward_field,
    operating_defenses,
    roll_hits,
    weapon_range,
)
from deltav.games.knighthawks.movement import (
    MapInfo,
    advance,
    completable,
    orbit_step,
    rotation_cost,
    speed_options,
    start_plot,
    turn_choices,
)
from deltav.games.knighthawks.rulings import Rulings
from deltav.games.knighthawks.ships import ACTIVE, DEAD, GONE, OK, Ship, new_ship
from deltav.games.knighthawks.tables import tables

PRIVATE_KEYS = ("damage", "adf", "mr", "weapons", "defenses", "unrepairable", "navdir")  # from the shadow
CARRIER_CAPACITY = 10  # fighters an assault carrier holds
FF_REACH = 64  # the forward field of fire is looked up out to this distance, then cut at the weapon's range
MS_MOVING = 99  # a moving ship's masking screen lasts while it keeps speed and heading
SCREENS = ("PS", "ES", "SS")


def _hex(h) -> tuple[int, int]:
    return (h[0], h[1])


class KHState(State):
    game: ClassVar[type[Game]]
    num_players = 2

    # --- construction ----------------------------------------------------------------------------------
    @classmethod
    def from_scenario(cls, scen, options: dict, seed: int) -> KHState:
        s = cls.__new__(cls)
        s.options = dict(options)
        s.rules = Rulings.from_options(options)
        s.rng = Rng(seed)
        s.map = MapInfo.build(scen.radius, list(scen.planets))
        s.sides = scen.sides
        s.victory = dict(scen.victory)
        s.turn_limit = options.get("turn_limit") or scen.turn_limit
        s.first = scen.first
        t = tables()
        ships = []
        pnames = [n for n, _ in scen.planets]
        for sp in scen.ships:
            sh = new_ship(sp.id, t.classes[sp.cls], sp.side, sp.hex, sp.facing, sp.speed, sp.name, sp.weapons,
                          sp.defenses, sp.hp, sp.dcr)
            if sp.orbit is not None:
                sh.orbit = (pnames.index(sp.orbit[0]), sp.orbit[1])
            sh.docked = sp.docked
            ships.append(sh)
        s.ships = ships
        s.index = {sh.id: i for i, sh in enumerate(ships)}
        s.mines = []
        for k, (side, kind, h) in enumerate(scen.mines):
            s.mines.append((f"trap-{k + 1}", side, kind, h, -1, 0, ""))
        s.mine_counter = len(scen.mines)
        s.turn = 1
        s.half = 0
        s.stage = "move"
        s.fire_mode = ""
        s.after = ""
        s.plots = {}
        s.cur = None
        s.screened = []
        s.laid = []
        s.activated = []
        s.orbit_new = {}
        s.declared = []
        s.attacks = []
        s.repair_player = 0
        s.allocs = []
        s.res = None
        s.scores = [0, 0]
        s._cache = {}
        ev: list = []
        s._begin_side_turn(ev)
        s._advance(ev)
        return s

    # --- helpers -----------------------------------------------------------------------------------------
    @property
    def mover(self) -> int:
        return self.first if self.half == 0 else 1 - self.first

    def ship(self, sid: str) -> Ship:
        return self.ships[self.index[sid]]

    def _get(self, sid: Any) -> Ship | None:
        i = self.index.get(sid) if isinstance(sid, str) else None
        return None if i is None else self.ships[i]

    def _targetable(self, sh: Ship) -> bool:
        if sh.status != ACTIVE:
            return False
        return not (sh.docked is not None and sh.kind in ("fighter", "scout"))

    # --- protocol --------------------------------------------------------------------------------------
    def current_players(self) -> list[int]:
        st = self.stage
        if st == "over":
            return []
        if st == "move":
            return [self.mover]
        if st == "declare":
            return [1 - self.mover if self.fire_mode == "def" else self.mover]
        if st == "intercept":
            a = self.attacks[self._pending_attack()]
            return [self.ship(a[3]).owner]
        return [self.repair_player]

    def is_terminal(self) -> bool:
        return self.stage == "over"

    def result(self) -> Result | None:
        return self.res

    def legal_actions(self, player: int) -> list:
        if self.stage == "over" or player not in self.current_players():
            return []
        st = self.stage
        if st == "move":
            return self._move_actions(player)
        if st == "declare":
            return self._assign_actions(player) + [m.Fire()]
        if st == "intercept":
            return self._intercept_actions()
        return self._repair_actions(player) + [m.EndRepair()]

    def apply_action(self, player: int, action) -> list:
        self.check_turn(player)
        ev: list = []
        st = self.stage
        t = type(action)
        if st == "move":
            if t is m.Step:
                if self.cur is None or action.turn not in self._step_options():
                    raise IllegalAction("kh.move.step", "not a legal hex turn now (no move being plotted, MR used "
                                        "up, one turn per hex, a forced turn, or a planet in the way)")
                self._do_step(action, ev)
            elif t in (m.Screen, m.Lay, m.Activate, m.Orbit, m.Course, m.EndMovement):
                if self.cur is not None:
                    raise IllegalAction("kh.move.plotting", f"finish plotting {self.cur[0]}'s move first (step)")
                if not self._move_ok(player, action):
                    raise IllegalAction(self._move_rule(action), self._move_reason(player, action))
                if t is m.Screen:
                    self._do_screen(action, ev)
                elif t is m.Lay:
                    self._do_lay(action, ev)
                elif t is m.Activate:
                    self.activated.append(action.seeker)
                    ev.append(m.SeekerActivated(action.seeker))
                elif t is m.Orbit:
                    self.orbit_new[action.ship] = action.clockwise
                    self.plots[action.ship] = (0, self.ship(action.ship).facing, ())
                    ev.append(m.OrbitDeclared(action.ship, action.clockwise))
                elif t is m.Course:
                    self._do_course(action, ev)
                else:
                    self._end_movement(ev)
            else:
                raise IllegalAction("kh.phase", f"{action.TYPE} is not a movement-phase action")
        elif st == "declare":
            if t is m.Assign:
                if not self._assign_ok(player, action):
                    raise IllegalAction("kh.fire.assign", self._assign_reason(player, action))
                self._do_assign(action)
            elif t is m.Fire:
                self._start_intercept("offense" if self.fire_mode == "def" else "endturn", self.declared)
                self.declared = []
            else:
                raise IllegalAction("kh.phase", f"{action.TYPE} is not a fire-phase action")
        elif st == "intercept":
            if t is not m.Intercept:
                raise IllegalAction("kh.phase", "the defender must decide ICMs/evasion (intercept)")
            self._check_in(player, action, "kh.fire.intercept", "more ICMs than are in the hex, or evasion "
                           "not allowed (torpedoes only, fighters and assault scouts with MR left)")
            self._do_intercept(action)
        else:
            if t is m.Repair:
                self._check_in(player, action, "kh.repair.allocate", self._repair_reason(player, action))
                self.allocs.append((player, action.ship, action.target, action.points))
            elif t is m.EndRepair:
                self._end_repair(ev)
            else:
                raise IllegalAction("kh.phase", f"{action.TYPE} is not a repair-turn action")
        self._advance(ev)
        return ev

    def _check_in(self, player, action, rule, reason) -> None:
        if action not in self.legal_actions(player):
            raise IllegalAction(rule, reason)

    # --- movement phase ----------------------------------------------------------------------------------
    def _begin_side_turn(self, ev: list) -> None:
        mv = self.mover
        self.stage = "move"
        self._cache = {}
        self.plots = {}
        self.cur = None
        self.screened = []
        self.laid = []
        self.activated = []
        self.orbit_new = {}
        ev.append(m.TurnStarted(self.turn, mv))
        for sh in self.ships:
            if sh.status != ACTIVE:
                continue
            if sh.owner == mv:
                sh.path = (sh.pos,)
                if sh.nav and self.rules.nav_roll == "each_move":
                    roll = self.rng.d10()
                    sh.navdir = 1 if roll <= 5 else -1
                    ev.append(m.NavRoll(sh.id, roll, "left" if roll <= 5 else "right"))
                if 0 < sh.ms_turns < MS_MOVING:
                    sh.ms_turns -= 1
                    if sh.ms_turns == 0:
                        ev.append(m.MaskingEnded(sh.id))
                if sh.docked is not None:
                    host = self._get(sh.docked)
                    if sh.dock_turns >= 1 and host is not None and (
                        host.kind == "station" or (host.kind == "carrier" and sh.kind == "fighter")
                    ) and sh.kind in ("fighter", "scout") and host.attacked < self.turn - 1:
                        changed = False
                        for i, (c, n, mx, _st) in enumerate(sh.weapons):
                            if c == "AR" and n < mx:
                                self._count(sh, "w", i, mx - n)
                                changed = True
                        if changed:
                            ev.append(m.Rearmed(sh.id))
            else:
                pass

    def _own_movers(self, player: int) -> list[Ship]:
        return [s for s in self.ships if s.owner == player and s.status == ACTIVE]

    def _course_options(self, sh: Ship) -> list[tuple[int, int]]:
        """(speed, facing) pairs this ship may plot now (fixed for the phase but for a new orbit: cached)."""
        key = ("course", sh.id, sh.id in self.orbit_new)
        got = self._cache.get(key)
        if got is None:
            got = self._cache[key] = self._course_options_uncached(sh)
        return got

    def _course_options_uncached(self, sh: Ship) -> list[tuple[int, int]]:
        if sh.kind == "station":
            return []
        orbiting = sh.orbit is not None or sh.id in self.orbit_new
        if sh.drifting():
            speeds = [sh.speed]
        elif orbiting or sh.docked is not None:
            speeds = list(range(0, sh.adf + 1))
        else:
            speeds = list(speed_options(sh.speed, sh.adf))
        if sh.evading and sh.mr > 0:
            need = min(sh.mr, max(speeds))
            speeds = [v for v in speeds if v >= need]
        out = []
        rot = sh.mr > 0 and (orbiting or sh.speed == 0)
        navdir = sh.navdir if sh.nav else 0
        for v in speeds:
            facings = range(6) if rot and (v == 0 or orbiting) else (sh.facing,)
            for f in facings:
                if v == 0 or completable(self.map, start_plot(sh.pos, f), v, sh.mr, navdir, sh.evading and sh.mr > 0):
                    out.append((v, f))
        return out

    def _default_ok(self, sh: Ship) -> bool:
        """An unplotted ship holds its course (same speed, straight, forced turns if any): is that legal?"""
        key = ("default", sh.id)
        got = self._cache.get(key)
        if got is None:
            got = self._cache[key] = self._default_ok_uncached(sh)
        return got

    def _default_ok_uncached(self, sh: Ship) -> bool:
        if sh.kind == "station" or sh.docked is not None or sh.orbit is not None:
            return True
        if not self._course_options(sh):
            return True  # no legal plot at all: it holds its course (into a planet if it must)
        if sh.evading and sh.mr > 0 and not sh.drifting():
            return False
        if sh.speed == 0:
            return True
        navdir = sh.navdir if sh.nav else 0
        return completable(self.map, start_plot(sh.pos, sh.facing), sh.speed, sh.mr, navdir, False)

    def _step_options(self) -> tuple[int, ...]:
        sid, speed, facing, turns = self.cur
        key = ("steps", sid, speed, facing, tuple(turns))
        got = self._cache.get(key)
        if got is not None:
            return got
        sh = self.ship(sid)
        st = self._replay_plot(sh, speed, facing, turns)
        navdir = sh.navdir if sh.nav else 0
        ev = sh.evading and sh.mr > 0
        out = []
        memo: dict = {}
        for t in turn_choices(st, sh.mr, navdir, ev):
            nxt = advance(self.map, st, t, speed)
            if nxt is not None and completable(self.map, nxt, speed, sh.mr, navdir, ev, False, memo):
                out.append(t)
        if not out:  # forced into a planet with no way out
            out.append(0)
        got = self._cache[key] = tuple(out)
        return got

    def _move_ok(self, player: int, a) -> bool:
        """Whether a movement-phase action (not a step) is legal now: the same conditions as _move_actions."""
        t = type(a)
        if t is m.EndMovement:
            return all(s.id in self.plots or self._default_ok(s) for s in self._own_movers(player))
        if t is m.Activate:
            return any(mm[0] == a.seeker and mm[1] == player and mm[2] == "S" and mm[4] < 0 for mm in self.mines) \
                and a.seeker not in self.activated
        sh = self._get(a.ship)
        if sh is None or sh.owner != player or sh.status != ACTIVE:
            return False
        if t is m.Lay:
            return a in self._lay_options(sh)
        if sh.id in self.plots:
            return False
        if t is m.Screen:
            return sh.id not in self.screened and a.screen in self._screen_options(sh)
        if t is m.Orbit:
            return self._can_orbit(sh)
        return (a.speed, a.facing) in self._course_options(sh)

    def _move_has_choice(self, player: int) -> bool:
        """Whether the moving player has anything to decide but ending movement."""
        if self.cur is not None:
            return True
        for sh in self._own_movers(player):
            sid = sh.id
            if sid in self.plots:
                if self._lay_options(sh):
                    return True
                continue
            if sid not in self.screened and self._screen_options(sh):
                return True
            if self._course_options(sh) or self._can_orbit(sh):
                return True
        return any(owner == player and kind == "S" and moves < 0 and mid not in self.activated
                   for mid, owner, kind, _h, moves, _f, _layer in self.mines)

    def _move_actions(self, player: int) -> list:
        if self.cur is not None:
            return [m.Step(t) for t in self._step_options()]
        out: list = []
        all_default = True
        for sh in self._own_movers(player):
            sid = sh.id
            if sid in self.plots:
                out.extend(self._lay_options(sh))
                continue
            screens, rest = self._ship_move_actions(sh)
            if screens and sid not in self.screened:
                out.extend(screens)
            out.extend(rest)
            if not self._default_ok(sh):
                all_default = False
        for mid, owner, kind, _h, moves, _f, _layer in self.mines:
            if owner == player and kind == "S" and moves < 0 and mid not in self.activated:
                out.append(m.Activate(mid))
        if all_default:
            out.append(m.EndMovement())
        return out

    def _ship_move_actions(self, sh: Ship) -> tuple:
        """A ship's screen, lay, and orbit+course actions as at the start of its phase (cached; the callers
        filter what earlier actions of the phase have used up)."""
        key = ("acts", sh.id)
        got = self._cache.get(key)
        if got is None:
            sid = sh.id
            screens = tuple(m.Screen(sid, c) for c in self._screen_options(sh))
            rest = []
            if self._can_orbit(sh):
                rest.append(m.Orbit(sid, True))
                rest.append(m.Orbit(sid, False))
            rest.extend(m.Course(sid, v, f) for v, f in self._course_options(sh))
            got = self._cache[key] = (screens, tuple(rest))
        return got

    def _plotted_path(self, sh: Ship) -> tuple:
        """The hexes a plotted ship will pass through (its start hex first)."""
        speed, facing, turns = self.plots[sh.id]
        if speed == 0:
            return (sh.pos,)
        return self._replay_plot(sh, speed, facing, list(turns), True).path

    def _lay_options(self, sh: Ship) -> list:
        """A plotted ship with a mine or seeker system may drop one of each kind in any hex of its path (one
        mine pattern per hex)."""
        if sh.id not in self.plots or sh.docked is not None or sh.id in self.orbit_new or sh.orbit is not None:
            return []
        out = []
        path = None
        for kind in ("M", "S"):
            if (sh.id + kind) in self.laid or not self._can_lay(sh, kind):
                continue
            if path is None:
                path = self._plotted_path(sh)
            for at, h in enumerate(path):
                if kind == "M" and any(mm[2] == "M" and mm[3] == h for mm in self.mines):
                    continue
                out.append(m.Lay(sh.id, kind, at))
        return out

    def _move_rule(self, a) -> str:
        return {m.Screen: "kh.move.screen", m.Lay: "kh.move.lay", m.Activate: "kh.move.seeker",
                m.Orbit: "kh.move.orbit", m.Course: "kh.move.course", m.EndMovement: "kh.move.unplotted"}[type(a)]

    def _move_reason(self, player: int, a) -> str:
        sh = self._get(getattr(a, "ship", None))
        t = type(a)
        if t is m.EndMovement:
            return "a ship cannot hold its course (evasion, or a planet ahead): plot it first"
        if t is m.Activate:
            return f"{a.seeker!r} is not one of your inert seekers"
        if sh is None or sh.owner != player or sh.status != ACTIVE:
            return f"{getattr(a, 'ship', None)!r} is not one of your ships in play"
        if sh.id in self.plots and t is not m.Lay:
            return f"{sh.id} has already been plotted this phase"
        if t is m.Screen:
            return "screen not available (already set this phase, destroyed, no charges, power short, or no change)"
        if t is m.Lay:
            return ("cannot lay: plot the ship's move first, then name a hex of its path; no working system with "
                    "ammunition, already laid this phase, docked or in orbit, or that hex already mined")
        if t is m.Orbit:
            return "orbit needs a start next to a planet and a speed the ship can cut to 0"
        if t is m.Course:
            if a.speed not in speed_options(sh.speed, sh.adf) and not (sh.orbit or sh.docked):
                return f"speed {a.speed} is not within ADF {sh.adf} of {sh.speed}"
            if a.facing != sh.facing:
                return "a ship may only rotate in place when it stays stopped (or in orbit) and has MR left"
            return "no legal move at that speed (planet in the way, or evasion/navigation constraints)"
        return "not legal now"

    def _screen_options(self, sh: Ship) -> list[str]:
        out = []
        if not sh.short:
            for c in SCREENS:
                if sh.screen != c and sh.has_working_defense(c):
                    out.append(c)
            if sh.ms_turns == 0 and sh.has_working_defense("MS"):
                out.append("MS")
        if sh.screen is not None or sh.ms_turns > 0:
            out.append("none")
        return out

    def _do_screen(self, a, ev) -> None:
        sh = self.ship(a.ship)
        self.screened.append(sh.id)
        c = a.screen
        if c == "none":
            sh.screen = None
            sh.ms_turns = 0
        elif c == "MS":
            self._count(sh, "d", sh.defense_index("MS"), -1)
            still = sh.orbit is not None or sh.kind == "station"
            sh.ms_turns = self.rules.station_ms_turns if still else MS_MOVING
            if self.rules.one_screen:
                sh.screen = None
        else:
            sh.screen = c
            if self.rules.one_screen and sh.ms_turns:
                sh.ms_turns = 0
        ev.append(m.ScreenSet(sh.id, c))

    @staticmethod
    def _count(sh: Ship, which: str, i: int, delta: int) -> None:
        """A public change of a system's count (rounds fired, ICMs, masking charges, rearming), applied to the
        ship and to the other side's picture of it."""
        for rec in (sh, sh.shadow):
            if rec is None:
                continue
            lst = rec.weapons if which == "w" else rec.defenses
            c, n, mx, stt = lst[i]
            lst[i] = (c, max(0, min(mx, n + delta)) if n >= 0 else n, mx, stt)

    @staticmethod
    def _ensure_shadow(sh: Ship) -> None:
        """Before a private change: keep the record as the other side knows it."""
        if sh.shadow is None:
            sh.shadow = sh.clone()

    @staticmethod
    def _can_lay(sh: Ship, kind: str) -> bool:
        return any(c == kind and stt == OK and n > 0 for c, n, _mx, stt in sh.weapons)

    def _do_lay(self, a, ev) -> None:
        sh = self.ship(a.ship)
        self._ensure_shadow(sh)  # laying is secret: the other side's picture of the ammunition stays
        for i, (c, n, mx, stt) in enumerate(sh.weapons):
            if c == a.kind and stt == OK and n > 0:
                sh.weapons[i] = (c, n - 1, mx, stt)
                break
        h = self._plotted_path(sh)[a.at]
        self.mine_counter += 1
        mid = f"trap-{self.mine_counter}"
        self.mines.append((mid, sh.owner, a.kind, h, -1, sh.facing, sh.id))
        self.laid.append(sh.id + a.kind)
        ev.append(m.Laid(sh.id, a.kind, mid, h, (sh.owner,)))

    def _can_orbit(self, sh: Ship) -> bool:
        if sh.orbit is not None or sh.kind == "station" or sh.docked is not None or sh.id in self.orbit_new:
            return False
        if sh.pos not in self.map.ring or sh.drifting():
            return False
        return 0 in speed_options(sh.speed, sh.adf)

    def _do_course(self, a, ev) -> None:
        sh = self.ship(a.ship)
        if a.speed == 0:
            self.plots[sh.id] = (0, a.facing, ())
            ev.append(m.Plotted(sh.id, 0, a.facing, ()))
        else:
            self.cur = [sh.id, a.speed, a.facing, []]

    def _replay_plot(self, sh: Ship, speed: int, facing: int, turns, planet_crash: bool = False):
        key = ("plot", sh.id, speed, facing, tuple(turns), planet_crash)
        got = self._cache.get(key)
        if got is not None:
            return got
        if turns:
            prev = self._cache.get(("plot", sh.id, speed, facing, tuple(turns[:-1]), planet_crash))
            if prev is not None:
                nxt = advance(self.map, prev, turns[-1], speed, planet_crash)
                if nxt is None:
                    nxt = advance(self.map, prev, 0, speed, True)
                self._cache[key] = nxt
                return nxt
        st = self._replay_plot_uncached(sh, speed, facing, turns, planet_crash)
        self._cache[key] = st
        return st

    def _replay_plot_uncached(self, sh: Ship, speed: int, facing: int, turns, planet_crash: bool = False):
        st = start_plot(sh.pos, facing)
        for t in turns:
            nxt = advance(self.map, st, t, speed, planet_crash)
            if nxt is None:
                nxt = advance(self.map, st, 0, speed, True)
            st = nxt
        return st

    def _do_step(self, a, ev) -> None:
        sid, speed, facing, turns = self.cur
        sh = self.ship(sid)
        turns = turns + [a.turn]
        st = self._replay_plot(sh, speed, facing, turns)
        if st.end or st.done >= speed:
            self.plots[sid] = (speed, facing, tuple(turns))
            self.cur = None
            ev.append(m.Plotted(sid, speed, facing, tuple(turns)))
        else:
            self.cur = [sid, speed, facing, turns]

    # --- executing the moves --------------------------------------------------------------------------------
    def _end_movement(self, ev: list) -> None:
        mv = self.mover
        triggered: list = []
        self._move_seekers(mv, ev, triggered)
        # ships and stations in orbit (including orbits declared this phase) and the ships docked at them
        moved_orbit = set()
        for sh in self.ships:
            if sh.owner != mv or sh.status != ACTIVE:
                continue
            if sh.id in self.orbit_new:
                pl = self._planet_next_to(sh.pos)
                sh.orbit = (pl, self.orbit_new[sh.id])
                sh.speed = 0
            if sh.orbit is None:
                continue
            plot = self.plots.get(sh.id)
            if plot is not None and plot[0] > 0:
                continue  # leaves orbit: moves below
            if plot is not None:
                sh.facing = plot[1]
            planet = self.map.planet_hexes[sh.orbit[0]]
            start = sh.pos
            sh.pos = orbit_step(planet, sh.pos, sh.orbit[1])
            sh.path = (start, sh.pos)
            moved_orbit.add(sh.id)
            ev.append(m.Moved(sh.id, sh.path, sh.facing, 0, "orbit"))
            self._carry_docked(sh, ev)
        for sh in self.ships:
            if sh.owner != mv or sh.status != ACTIVE or sh.id in moved_orbit or sh.kind == "station":
                continue
            plot = self.plots.get(sh.id)
            if sh.docked is not None and (plot is None or plot[0] == 0):
                if plot is not None:
                    sh.facing = plot[1]
                continue
            if plot is None:
                if sh.speed == 0:
                    continue
                navdir = sh.navdir if sh.nav else 0
                turns = tuple(navdir if i < sh.mr else 0 for i in range(sh.speed)) if navdir else ()
                plot = (sh.speed, sh.facing, turns)
            self._execute(sh, plot, ev)
        # docking, once every ship has moved: a ship that stopped in a friendly station's hex (a fighter also
        # in a carrier's) is docked
        for sh in self.ships:
            if (sh.owner == mv and sh.status == ACTIVE and sh.speed == 0 and sh.docked is None and sh.orbit is None
                    and sh.kind != "station"):
                host = self._dock_host(sh)
                if host is not None:
                    sh.docked = host.id
                    sh.dock_turns = 0
                    ev.append(m.Docked(sh.id, host.id))
        self._check_end(ev)
        if self.stage == "over":
            return
        self._trigger_mines(mv, triggered)
        self._start_intercept("combat", triggered)

    def _planet_next_to(self, h) -> int:
        p = self.map.ring[h]
        return self.map.planet_hexes.index(p)

    def _carry_docked(self, host: Ship, ev) -> None:
        for d in self.ships:
            if d.docked == host.id and d.status == ACTIVE:
                d.pos = host.pos
                d.path = (host.pos,)

    def _execute(self, sh: Ship, plot, ev) -> None:
        speed, facing, turns = plot
        old_speed, old_facing = sh.speed, sh.facing
        if sh.docked is not None:
            sh.docked = None
            sh.dock_turns = 0
        if sh.orbit is not None:
            sh.orbit = None
        st = start_plot(sh.pos, facing)
        for i in range(speed):
            t = turns[i] if i < len(turns) else 0
            nxt = advance(self.map, st, t, speed, True)
            if nxt is None:
                nxt = advance(self.map, st, 0, speed, True)
            st = nxt
            if st.end:
                break
        points = abs(speed - old_speed) + st.turns + rotation_cost(old_facing, facing)
        if self.rules.breakup_counts_gravity:
            points += st.gturns
        if sh.severe() and points > 0:
            chance = dmg.breakup_chance(sh.hp, sh.dmg, points)
            roll = self.rng.d100()
            broke = roll <= chance
            ev.append(m.BreakupCheck(sh.id, chance, roll, broke))
            if broke:
                self._destroy(sh, "broke apart maneuvering", ev)
                return
        sh.path = st.path
        sh.pos = st.pos if st.end != "crash" else st.path[-1]
        sh.facing = st.facing
        sh.speed = speed
        if sh.evading:
            sh.evading = False
        changed = speed != old_speed or st.turns or st.gturns or facing != old_facing
        if sh.ms_turns >= MS_MOVING and changed:
            sh.ms_turns = 0
            ev.append(m.MaskingEnded(sh.id))
        end = st.end
        ev.append(m.Moved(sh.id, sh.path, sh.facing, speed, end))
        if sh.kind == "carrier":
            self._carry_docked(sh, ev)
        if end == "crash":
            self._destroy(sh, "crashed into a planet", ev)
        elif end == "exit":
            sh.status = GONE
            sh.screen = None
            ev.append(m.Disengaged(sh.id, sh.pos))
            for d in self.ships:
                if d.docked == sh.id and d.status == ACTIVE:
                    d.status = GONE
                    ev.append(m.Disengaged(d.id, d.pos))

    def _dock_host(self, sh: Ship) -> Ship | None:
        for h in self.ships:
            if h is sh or h.status != ACTIVE or h.owner != sh.owner or h.pos != sh.pos:
                continue
            if h.kind == "station":
                return h
            if h.kind == "carrier" and sh.kind == "fighter" and sum(
                1 for d in self.ships if d.docked == h.id and d.status == ACTIVE
            ) < CARRIER_CAPACITY:
                return h
        return None

    def _move_seekers(self, mv: int, ev: list, triggered: list) -> None:
        keep = []
        for mine in self.mines:
            mid, owner, kind, h, moves, facing, layer = mine
            if kind != "S" or owner != mv or (moves < 0 and mid not in self.activated):
                keep.append(mine)
                continue
            n = 2 * (max(moves, 0) + 1)
            target = self._nearest_ship(h)
            if target is None:
                keep.append((mid, owner, kind, h, max(moves, 0), facing, layer))
                continue
            path = [h]
            pos, f = h, facing
            hit = None
            here = [s for s in self.ships if s.pos == h and self._targetable(s)]
            if here:  # a ship already in the seeker's hex: it detonates at once
                hit = self._largest(here)
                n = 0
            for i in range(n):
                dirs = range(6) if i == 0 else (f, (f + 1) % 6, (f - 1) % 6)
                best = None
                for d in dirs:
                    nb = hexgrid.neighbour(pos, d)
                    key = (hexgrid.distance(nb, target.pos), rotation_cost(d, f), d)
                    if best is None or key < best[0]:
                        best = (key, d, nb)
                _, f, pos = best
                path.append(pos)
                victims = [s for s in self.ships if s.pos == pos and self._targetable(s)]
                if victims:
                    hit = self._largest(victims)
                    break
            ev.append(m.SeekerMoved(mid, tuple(path), target.id))
            if hit is not None:
                triggered.append(self._trap_attack(mid, "S", hit, layer))
            elif 2 * (max(moves, 0) + 1) < 12:
                keep.append((mid, owner, kind, pos, max(moves, 0) + 1, f, layer))
        self.mines = keep

    def _nearest_ship(self, h) -> Ship | None:
        best: list[Ship] = []
        bd = None
        for s in self.ships:
            if not self._targetable(s):
                continue
            d = hexgrid.distance(s.pos, h)
            if bd is None or d < bd:
                bd, best = d, [s]
            elif d == bd:
                best.append(s)
        if not best:
            return None
        return best[0] if len(best) == 1 else best[self.rng.below(len(best))]

    def _largest(self, ships: list[Ship]) -> Ship:
        top = max(s.hp for s in ships)
        big = [s for s in ships if s.hp == top]
        return big[0] if len(big) == 1 else big[self.rng.below(len(big))]

    def _trap_attack(self, mid: str, kind: str, target: Ship, layer: str) -> list:
        return [mid, -1, kind, target.id, list(target.pos), 0, False, -1, False, layer]

    def _trigger_mines(self, mv: int, triggered: list) -> None:
        """Mines and waiting seekers of the other side in hexes the moving ships entered detonate now."""
        keep = []
        for mine in self.mines:
            mid, owner, kind, h, moves, _f, layer = mine
            if owner == mv:
                keep.append(mine)
                continue
            victims = [s for s in self.ships if s.owner == mv and self._targetable(s) and h in s.path[1:]]
            if not victims:
                keep.append(mine)
                continue
            if kind == "M":
                for v in victims:
                    triggered.append(self._trap_attack(mid, "M", v, layer))
            else:
                triggered.append(self._trap_attack(mid, "S", self._largest(victims), layer))
        self.mines = keep

    # --- fire phases ---------------------------------------------------------------------------------------
    def _combat_start(self, ev: list) -> None:
        mv = self.mover
        burning_side = mv if self.rules.fire_timing == "owner" else 1 - mv
        for sh in self.ships:
            if sh.status == ACTIVE and sh.fire and sh.owner == burning_side:
                self._damage(sh, "fire", 20, (1, 10, 0), False, ev)
        self._check_end(ev)
        if self.stage == "over":
            return
        self.stage = "declare"
        self.fire_mode = "def"
        self.declared = []
        self._cache = {}

    def _weapon_usable(self, sh: Ship, i: int, defensive: bool) -> bool:
        c, n, _mx, stt = sh.weapons[i]
        if stt != OK or (n == 0):
            return False
        w = tables().weapons[c]
        if not w.fired or (defensive and w.mpo):
            return False
        return not (sh.docked is not None and (w.ff or c == "T"))

    def _sightlines(self, firer: Ship, target: Ship, defensive: bool) -> list:
        """The hexes the firer may shoot the target in: (hex, range, forward) for each unblocked hex of the
        target's move (defensive fire) or its position (offensive fire); forward is None outside the forward
        field of fire, True in its head-on row (or the firer's own hex when the FF rule allows it), else False."""
        if defensive:
            hexes = target.path if self.rules.start_hex_fire or len(target.path) == 1 else target.path[1:]
        else:
            hexes = (target.pos,)
        out = []
        fpos = firer.pos
        fq, fr = fpos
        planets = self.map.planets
        for k, h in enumerate(hexes):
            dq = h[0] - fq
            dr = h[1] - fr
            d = max(abs(dq), abs(dr), abs(dq + dr))
            if planets and self.map.blocked(fpos, h):
                continue
            if d == 0:
                fwd = True
                if defensive and k > 0 and in_forward_field(fpos, firer.facing, hexes[k - 1], 1) is None:
                    fwd = None  # the mover entered from outside the firer's forward field
            else:
                fwd = in_forward_field(fpos, firer.facing, h, FF_REACH)
            out.append((h, d, fwd))
        return out

    def _geometry(self, firer: Ship, code: str, target: Ship, defensive: bool, lines: list | None = None):
        """(hex, range, head_on) of the best shot of this weapon at the target, or None."""
        w = tables().weapons[code]
        reach = weapon_range(code, self.rules)
        if lines is None:
            lines = self._sightlines(firer, target, defensive)
        best = None
        ff, rd = w.ff, w.rd
        for h, d, fwd in lines:
            if d > reach:
                continue
            head = False
            if ff:
                if fwd is None:
                    continue
                head = fwd
            score = (10 if head else 0) - (5 * d if rd else 0)
            if best is None or score > best[0]:
                best = (score, h, d, head)
        if best is None:
            return None
        return best[1], best[2], best[3]

    def _fire_options(self, player: int) -> dict:
        """(ship, weapon index) -> [(target, geometry)] of every shot the geometry allows this phase (positions
        do not change while weapons are declared: cached for the phase)."""
        got = self._cache.get("fire")
        if got is not None:
            return got
        defensive = self.fire_mode == "def"
        targets = [s for s in self.ships if s.owner != player and self._targetable(s)]
        out: dict = {}
        if targets:
            for sh in self.ships:
                if sh.owner != player or sh.status != ACTIVE:
                    continue
                geo: dict = {}
                lines = None
                for i in range(len(sh.weapons)):
                    if not self._weapon_usable(sh, i, defensive):
                        continue
                    code = sh.weapons[i][0]
                    if code not in geo:
                        if lines is None:
                            lines = [self._sightlines(sh, tg, defensive) for tg in targets]
                        geo[code] = [(tg.id, g) for tg, ln in zip(targets, lines)
                                     if (g := self._geometry(sh, code, tg, defensive, ln)) is not None]
                    if geo[code]:
                        out[(sh.id, i)] = geo[code]
        self._cache["fire"] = out
        return out

    def _assign_actions(self, player: int) -> list:
        defensive = self.fire_mode == "def"
        used = {(a[0], a[1]) for a in self.declared}
        out = []
        for (sid, i), shots in self._fire_options(player).items():
            if (sid, i) in used or not self._weapon_usable(self.ship(sid), i, defensive):
                continue
            out.extend(m.Assign(sid, i, tid) for tid, _g in shots)
        return out

    def _assign_ok(self, player: int, a) -> bool:
        key = (a.ship, a.weapon)
        shots = self._fire_options(player).get(key) if isinstance(a.ship, str) else None
        if not shots or any(d[0] == a.ship and d[1] == a.weapon for d in self.declared):
            return False
        if not self._weapon_usable(self.ship(a.ship), a.weapon, self.fire_mode == "def"):
            return False
        return any(tid == a.target for tid, _g in shots)

    def _any_assign(self, player: int) -> bool:
        defensive = self.fire_mode == "def"
        used = {(a[0], a[1]) for a in self.declared}
        for (sid, i) in self._fire_options(player):
            if (sid, i) not in used and self._weapon_usable(self.ship(sid), i, defensive):
                return True
        return False

    def _assign_reason(self, player: int, a) -> str:
        sh = self._get(a.ship)
        if sh is None or sh.owner != player or sh.status != ACTIVE:
            return f"{a.ship!r} is not one of your ships in play"
        if not 0 <= a.weapon < len(sh.weapons):
            return f"{a.ship} has no weapon {a.weapon}"
        if any(d[0] == a.ship and d[1] == a.weapon for d in self.declared):
            return "each weapon fires once per phase"
        if not self._weapon_usable(sh, a.weapon, self.fire_mode == "def"):
            return "weapon destroyed, out of ammunition, moving-player-only in defensive fire, or docked"
        tg = self._get(a.target)
        if tg is None or tg.owner == player or not self._targetable(tg):
            return f"{a.target!r} is not an enemy ship that can be attacked"
        return "target out of range, behind a planet, or outside the forward field of fire"

    def _do_assign(self, a) -> None:
        sh = self.ship(a.ship)
        tg = self.ship(a.target)
        c, n, mx, stt = sh.weapons[a.weapon]
        h, d, head = [g for tid, g in self._fire_options(sh.owner)[(sh.id, a.weapon)] if tid == tg.id][0]
        if n > 0:
            self._count(sh, "w", a.weapon, -1)
        self.declared.append([sh.id, a.weapon, c, tg.id, list(h), d, head, -1, False])

    def _start_intercept(self, after: str, attacks: list) -> None:
        self.stage = "intercept"
        self.after = after
        self.attacks = attacks

    def _icm_pool(self, target: Ship) -> list[Ship]:
        return [s for s in self.ships if s.owner == target.owner and s.status == ACTIVE and s.pos == target.pos
                and s.icms_available() > 0]

    def _can_evade(self, a, target: Ship) -> bool:
        return a[2] == "T" and target.evasive and target.mr > 0 and target.docked is None

    def _pending_attack(self) -> int:
        for k, a in enumerate(self.attacks):
            if a[7] < 0:
                return k
        return -1

    def _needs_decision(self, a) -> bool:
        tg = self.ship(a[3])
        if tg.status != ACTIVE:
            return False
        if tables().weapons[a[2]].icm and self._icm_pool(tg):
            return True
        return self._can_evade(a, tg)

    def _intercept_actions(self) -> list:
        a = self.attacks[self._pending_attack()]
        tg = self.ship(a[3])
        total = sum(s.icms_available() for s in self._icm_pool(tg)) if tables().weapons[a[2]].icm else 0
        evades = (False, True) if self._can_evade(a, tg) else (False,)
        return [m.Intercept(n, e) for n in range(total + 1) for e in evades]

    def _do_intercept(self, a) -> None:
        k = self._pending_attack()
        att = self.attacks[k]
        tg = self.ship(att[3])
        left = a.icms
        pool = sorted(self._icm_pool(tg), key=lambda s: (-s.icms_available(), s.id)) if left else []
        for s in pool:
            if left <= 0:
                break
            i = s.defense_index("ICM")
            use = min(s.defenses[i][1], left)
            self._count(s, "d", i, -use)
            left -= use
        if a.evade:
            tg.evading = True
        self.attacks[k] = att[:7] + [a.icms, a.evade] + att[9:]

    def _resolve(self, a, ev: list) -> None:
        src, widx, code, tid, h, dist, head, icms, evade = a[:9]
        tg = self.ship(tid)
        firer = self._get(src)
        if tg.status != ACTIVE:
            ev.append(m.Wasted(src, code, tid))
            return
        if firer is not None and not self.rules.declared_fire_after_damage and (
            firer.status != ACTIVE or firer.weapons[widx][3] != OK
        ):
            ev.append(m.Wasted(src, code, tid))
            return
        col = defense_column(code, operating_defenses(tg, self.rules), self.rules)
        half = half_damage(code, col)
        table = tables().combat[code]
        if firer is not None and firer.ms_turns > 0 and code in ("LC", "LB") and table["MS"] < table[col]:
            col, half = "MS", True  # firing out of a masking screen: resolved as if the target were masked
        if firer is not None:
            ccs = firer.ccs
        else:  # a mine or seeker: G14, its layer's combat control damage applies only with the ruling
            layer = self._get(a[9]) if len(a) > 9 else None
            ccs = self.rules.ccs_affects_mines and layer is not None and layer.ccs
        chance = chance_to_hit(code, col, dist, head, ccs, max(icms, 0), tg.mr if evade else 0)
        roll = self.rng.d100()
        hit = roll_hits(roll, chance, self.rules)
        ev.append(m.Attack(src, code, tid, _hex(h), dist, col, chance, max(icms, 0), evade, roll, hit))
        tg.attacked = self.turn
        if hit:
            w = tables().weapons[code]
            self._damage(tg, src, w.dtm, w.hdr, half, ev)

    def _damage(self, sh: Ship, source: str, dtm: int, hdr, half: bool, ev: list) -> None:
        roll = self.rng.d100()
        eff = dmg.classify(sh, roll + dtm, self.rules)
        hull = 0
        system = ""
        if eff.kind == "hull":
            dice = self.rng.roll(hdr[0], hdr[1]) + hdr[2]
            hull = dmg.hull_points(dice, eff.double, half, self.rules.half_rounding == "up")
        elif eff.kind == "weapon":
            system = sh.weapons[eff.index][0]
        elif eff.kind == "defense":
            system = sh.defenses[eff.index][0]
        dead = dmg.apply_effect(sh, eff, hull, self.rules)
        if sh.shadow is not None:
            dmg.apply_effect(sh.shadow, eff, hull, self.rules)
        if eff.kind in ("nav",) and self.rules.nav_roll == "once":
            sh.navdir = 1 if self.rng.d10() <= 5 else -1
        ev.append(m.Damage(sh.id, source, roll, roll + dtm, eff.result, eff.kind, system, hull, eff.note))
        if dead:
            self._destroy(sh, f"hull destroyed by {source}", ev)

    def _destroy(self, sh: Ship, cause: str, ev: list) -> None:
        if sh.status != ACTIVE:
            return
        sh.status = DEAD
        sh.screen = None
        ev.append(m.Destroyed(sh.id, cause))
        host = self._get(sh.docked) if sh.docked is not None else None
        for d in self.ships:
            if d.docked == sh.id and d.status == ACTIVE:
                d.docked = None
                d.dmg += sh.hp // 2
                if d.shadow is not None:
                    d.shadow.dmg += sh.hp // 2
                ev.append(m.Damage(d.id, sh.id, 0, 0, "hull", "hull", "", sh.hp // 2, "docked at a destroyed host"))
                if d.dmg >= d.hp:
                    self._destroy(d, f"destroyed with its host {sh.id}", ev)
        if host is not None and host.status == ACTIVE:
            host.dmg += sh.hp // 2
            if host.shadow is not None:
                host.shadow.dmg += sh.hp // 2
            ev.append(m.Damage(host.id, sh.id, 0, 0, "hull", "hull", "", sh.hp // 2, "docked ship destroyed"))
            if host.dmg >= host.hp:
                self._destroy(host, f"destroyed with docked {sh.id}", ev)

    # --- sequencing ------------------------------------------------------------------------------------------
    def _advance(self, ev: list) -> None:
        while self.stage != "over":
            st = self.stage
            if st == "intercept":
                k = self._pending_attack()
                if k >= 0:
                    a = self.attacks[k]
                    if self._needs_decision(a):
                        return
                    self.attacks[k] = a[:7] + [0, False] + a[9:]
                    continue
                for a in self.attacks:
                    self._resolve(a, ev)
                self.attacks = []
                self._check_end(ev)
                if self.stage == "over":
                    return
                after = self.after
                self.after = ""
                if after == "combat":
                    self._combat_start(ev)
                elif after == "offense":
                    self.stage = "declare"
                    self.fire_mode = "off"
                    self.declared = []
                    self._cache = {}
                else:
                    self._end_side_turn(ev)
            elif st == "declare":
                if self._any_assign(self.current_players()[0]):
                    return
                self._start_intercept("offense" if self.fire_mode == "def" else "endturn", self.declared)
                self.declared = []
            elif st == "move":
                if not self._move_has_choice(self.mover) and self._move_ok(self.mover, m.EndMovement()):
                    self._end_movement(ev)
                    continue
                return
            elif st == "repair":
                if not self._repair_actions(self.repair_player):
                    self._end_repair(ev)
                    continue
                return
            else:
                return

    def _end_side_turn(self, ev: list) -> None:
        self.fire_mode = ""
        for sh in self.ships:
            if sh.status == ACTIVE and sh.docked is not None and sh.owner == self.mover:
                sh.dock_turns += 1
        if self.half == 0:
            self.half = 1
            self._begin_side_turn(ev)
            return
        self.half = 0
        done = self.turn
        self.turn += 1
        if done >= self.turn_limit:
            self._finish_by_limit(ev)
            return
        if done % 3 == 0:
            self.stage = "repair"
            self.repair_player = 0
            self.allocs = []
            ev.append(m.RepairTurn(done))
            return
        self._begin_side_turn(ev)

    # --- repair turn ---------------------------------------------------------------------------------------
    def _repair_actions(self, player: int) -> list:
        out = []
        for sh in self.ships:
            if sh.owner != player or sh.status != ACTIVE:
                continue
            mine = [a for a in self.allocs if a[1] == sh.id]
            left = sh.dcr(self.rules.dcr_rounding == "up") - sum(a[3] for a in mine)
            if left <= 0:
                continue
            targets = rep.repair_targets(sh, [a[2] for a in mine])
            if not targets:
                continue
            blocks = rep.block_sizes(left)
            out.extend(m.Repair(sh.id, t, p) for t in targets for p in blocks)
        return out

    def _repair_reason(self, player: int, a) -> str:
        sh = self._get(a.ship)
        if sh is None or sh.owner != player or sh.status != ACTIVE:
            return f"{a.ship!r} is not one of your ships in play"
        return ("nothing to repair there (or unrepairable in space), or the points are not a block of 10 up to 90 "
                "or the rest of the ship's DCR")

    def _end_repair(self, ev: list) -> None:
        if self.repair_player == 0:
            self.repair_player = 1
            return
        for _p, sid, target, points in self.allocs:
            sh = self.ship(sid)
            roll = self.rng.d100()
            self._ensure_shadow(sh)  # repair rolls are made in secret
            outcome, restored = rep.resolve(sh, target, points, roll, self.rng)
            ev.append(m.RepairRoll(sid, target, points, roll, outcome, restored, (sh.owner,)))
        self.allocs = []
        self._begin_side_turn(ev)

    # --- victory -------------------------------------------------------------------------------------------
    def _tally(self) -> list[int]:
        sc = [0, 0]
        for s in self.ships:
            if s.status == DEAD:
                sc[1 - s.owner] += s.points
            elif s.status == GONE and not self._escaped(s):
                sc[1 - s.owner] += s.points // 2
        return sc

    def _escaped(self, s: Ship) -> bool:
        v = self.victory
        if v["kind"] != "exit" or s.id != v.get("ship"):
            return False
        edge = v.get("edge", "any")
        return edge == "any" or (edge == "east" and s.pos[0] > 0) or (edge == "west" and s.pos[0] < 0)

    def _finish(self, winners: tuple[int, ...], reason: str, ev: list) -> None:
        self.scores = self._tally()
        self.res = Result(winners, reason, (float(self.scores[0]), float(self.scores[1])))
        self.stage = "over"
        self.cur = None
        ev.append(m.GameOver(winners, reason, (self.scores[0], self.scores[1])))

    def _check_end(self, ev: list) -> None:
        if self.stage == "over":
            return
        v = self.victory
        if v["kind"] in ("exit", "destroy"):
            tgt = self.ship(v["ship"])
            side = tgt.owner
            if v["kind"] == "exit":
                if tgt.status == GONE and self._escaped(tgt):
                    self._finish((side,), f"{tgt.name} escaped", ev)
                    return
                if tgt.status != ACTIVE:
                    self._finish((1 - side,), f"{tgt.name} was {'destroyed' if tgt.status == DEAD else 'driven off'}",
                                 ev)
                    return
            elif tgt.status == DEAD:
                self._finish((1 - side,), f"{tgt.name} was destroyed", ev)
                return
        alive = [any(s.owner == p and s.status == ACTIVE for s in self.ships) for p in (0, 1)]
        if not alive[0] and not alive[1]:
            self._finish((), "both fleets destroyed or driven off", ev)
        elif not alive[0] or not alive[1]:
            w = 0 if alive[0] else 1
            self._finish((w,), f"{self.sides[w]} destroyed or drove off the enemy", ev)

    def _finish_by_limit(self, ev: list) -> None:
        v = self.victory
        if v["kind"] == "exit":
            side = self.ship(v["ship"]).owner
            self._finish((1 - side,), "turn limit: the escort did not get through", ev)
            return
        if v["kind"] == "destroy":
            side = self.ship(v["ship"]).owner
            self._finish((side,), "turn limit: the station held", ev)
            return
        sc = self._tally()
        if sc[0] == sc[1]:
            self._finish((), "turn limit: equal points", ev)
        else:
            w = 0 if sc[0] > sc[1] else 1
            self._finish((w,), f"turn limit: {self.sides[w]} ahead on points", ev)

    # --- copies, JSON and views -----------------------------------------------------------------------------
    def clone(self) -> KHState:
        s = KHState.__new__(KHState)
        s.options = self.options
        s.rules = self.rules
        s.rng = self.rng.clone()
        s.map = self.map
        s.sides = self.sides
        s.victory = self.victory
        s.turn_limit = self.turn_limit
        s.first = self.first
        s.ships = [x.clone() for x in self.ships]
        s.index = self.index
        s.mines = self.mines[:]
        s.mine_counter = self.mine_counter
        s.turn = self.turn
        s.half = self.half
        s.stage = self.stage
        s.fire_mode = self.fire_mode
        s.after = self.after
        s.plots = dict(self.plots)
        s.cur = None if self.cur is None else [self.cur[0], self.cur[1], self.cur[2], self.cur[3][:]]
        s.screened = self.screened[:]
        s.laid = self.laid[:]
        s.activated = self.activated[:]
        s.orbit_new = dict(self.orbit_new)
        s.declared = [a[:] for a in self.declared]
        s.attacks = [a[:] for a in self.attacks]
        s.repair_player = self.repair_player
        s.allocs = self.allocs[:]
        s.res = self.res
        s.scores = self.scores[:]
        s._cache = self._cache  # per-phase lookups; every phase change makes a new dict, never clears one
        return s

    def _public_json(self) -> dict:
        return {
            "game": "knighthawks",
            "options": dict(self.options),
            "map": {"radius": self.map.radius,
                    "planets": [[n, list(h)] for n, h in zip(self.map.planet_names, self.map.planet_hexes)]},
            "sides": list(self.sides),
            "victory": dict(self.victory),
            "turn_limit": self.turn_limit,
            "first": self.first,
            "turn": self.turn,
            "half": self.half,
            "mover": self.mover,
            "stage": self.stage,
            "fire_mode": self.fire_mode,
            "after": self.after,
            "ships": [s.to_json() for s in self.ships],
            "mines": [[a, b, c, list(d), e, f, g] for a, b, c, d, e, f, g in self.mines],
            "mine_counter": self.mine_counter,
            "plots": {k: [v[0], v[1], list(v[2])] for k, v in sorted(self.plots.items())},
            "plotting": None if self.cur is None else [self.cur[0], self.cur[1], self.cur[2], list(self.cur[3])],
            "screened": list(self.screened),
            "laid": list(self.laid),
            "activated": list(self.activated),
            "orbit_new": dict(sorted(self.orbit_new.items())),
            "declared": [list(a) for a in self.declared],
            "attacks": [list(a) for a in self.attacks],
            "repair_player": self.repair_player,
            "allocations": [list(a) for a in self.allocs],
            "result": self.res.to_json() if self.res else None,
            "scores": list(self.scores),
        }

    def to_json(self) -> dict:
        out = self._public_json()
        out["rng"] = self.rng.to_json()
        return out

    @classmethod
    def from_json(cls, o: dict) -> KHState:
        s = cls.__new__(cls)
        s.options = dict(o["options"])
        s.rules = Rulings.from_options(s.options)
        s.rng = Rng.from_json(o["rng"])
        s.map = MapInfo.build(o["map"]["radius"], [(n, _hex(h)) for n, h in o["map"]["planets"]])
        s.sides = tuple(o["sides"])
        s.victory = dict(o["victory"])
        s.turn_limit = o["turn_limit"]
        s.first = o["first"]
        s.ships = [Ship.from_json(x) for x in o["ships"]]
        s.index = {sh.id: i for i, sh in enumerate(s.ships)}
        s.mines = [(a, b, c, _hex(d), e, f, g) for a, b, c, d, e, f, g in o["mines"]]
        s.mine_counter = o["mine_counter"]
        s.turn = o["turn"]
        s.half = o["half"]
        s.stage = o["stage"]
        s.fire_mode = o["fire_mode"]
        s.after = o["after"]
        s.plots = {k: (v[0], v[1], tuple(v[2])) for k, v in o["plots"].items()}
        c = o["plotting"]
        s.cur = None if c is None else [c[0], c[1], c[2], list(c[3])]
        s.screened = list(o["screened"])
        s.laid = list(o["laid"])
        s.activated = list(o["activated"])
        s.orbit_new = dict(o["orbit_new"])
        s.declared = [list(a) for a in o["declared"]]
        s.attacks = [list(a) for a in o["attacks"]]
        s.repair_player = o["repair_player"]
        s.allocs = [tuple(a) for a in o["allocations"]]
        s.res = Result.from_json(o["result"]) if o["result"] else None
        s.scores = list(o["scores"])
        s._cache = {}
        return s

    def view(self, player: int | None) -> dict:
        """Everything but the dice and the other side's hidden mines: enemy mine patterns and inert seekers
        are not shown (their count is); see docs/knighthawks.md."""
        out = self._public_json()
        hidden = 0
        shown = []
        for mm in out["mines"]:
            mine_owner, moves = mm[1], mm[4]
            if player is not None and mine_owner == player or moves >= 0 or mm[0] in self.activated:
                shown.append(mm)
            else:
                hidden += 1
        out["mines"] = shown
        out["hidden_mines"] = hidden
        for sj, sh in zip(out["ships"], self.ships):
            if player is not None and sh.owner == player:
                continue
            sj.pop("shadow", None)
            if sh.shadow is not None:  # the other side's picture of the ship: no secret repairs or lays
                pub = sh.shadow.to_json()
                for k in PRIVATE_KEYS:
                    sj[k] = pub[k]
                sj["damaged_systems"] = dict(pub["damaged_systems"], fire=sh.fire)
        out["allocations"] = [a for a in out["allocations"] if player is not None and a[0] == player]
        if player is None or player != self.mover:
            out["laid"] = []
        out["viewer"] = player
        return out

    def secret_tokens(self, player: int | None) -> set[str]:
        return {mm[0] for mm in self.mines
                if mm[4] < 0 and mm[0] not in self.activated and (player is None or mm[1] != player)}
