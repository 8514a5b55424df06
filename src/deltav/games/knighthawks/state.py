"""The Knight Hawks game state and its turn sequence (Advanced Game, rules 4.1): per side turn a movement
phase (screens, seekers, orbits, plotted moves executed together, then mines and seekers detonate) and a
combat phase (fire damage, defensive fire by the non-moving side, offensive fire by the moving side), a
repair turn after every 3 game turns, victory checks after every resolution.

Owns: the state record, dispatching actions to the phases, the sequencing of phases and turns, the repair
turn, victory, copies, JSON and views. The movement phase is movement_phase.py's, the fire phases
fire_phase.py's (mixins of ``KHState``); rules arithmetic lives in damage.py, combat.py, movement.py and
repair.py; data in tables.py.
"""

from __future__ import annotations

from typing import Any, ClassVar

from deltav.core.errors import IllegalAction
from deltav.core.protocol import Game, Result, State
from deltav.core.rng import Rng
from deltav.games.knighthawks import messages as m
from deltav.games.knighthawks import repair as rep
from deltav.games.knighthawks.fire_phase import FirePhase
from deltav.games.knighthawks.movement import MapInfo
from deltav.games.knighthawks.movement_phase import MovementPhase
from deltav.games.knighthawks.rulings import Rulings
from deltav.games.knighthawks.ships import ACTIVE, DEAD, GONE, Ship, ensure_shadow, new_ship
from deltav.games.knighthawks.tables import tables

PRIVATE_KEYS = ("damage", "adf", "mr", "weapons", "defenses", "unrepairable", "navdir")  # from the shadow


def _hex(h) -> tuple[int, int]:
    return (h[0], h[1])


class KHState(MovementPhase, FirePhase, State):
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

    def turn_count(self) -> int:
        """Game turns (both sides' halves make one; the turn being played counts)."""
        return self.turn

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
        self.game.actions.check(action)  # a value of this game with every field of its declared type
        self.check_turn(player)
        ev: list = []
        st = self.stage
        t = type(action)
        if st == "move":
            if t is m.Step:
                if self.cur is None:
                    raise IllegalAction("knighthawks.move.step.unplotted", "no move is being plotted: give a course first")
                if action.turn not in self._step_options():
                    raise IllegalAction("knighthawks.move.step", "not a legal hex turn now (1 left, -1 right, 0 straight; MR "
                                        "used up, one turn per hex, a forced turn, or a planet in the way)")
                self._do_step(action, ev)
            elif t in (m.Screen, m.Lay, m.Activate, m.Orbit, m.Course, m.EndMovement):
                if self.cur is not None:
                    raise IllegalAction("knighthawks.move.plotting", f"finish plotting {self.cur[0]}'s move first (step)")
                if not self._move_ok(player, action):
                    raise IllegalAction(*self._move_refusal(player, action))
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
                raise IllegalAction("knighthawks.phase.move", f"{action.TYPE} is not a movement-phase action")
        elif st == "declare":
            if t is m.Assign:
                if not self._assign_ok(player, action):
                    raise IllegalAction(*self._assign_refusal(player, action))
                self._do_assign(action)
            elif t is m.Fire:
                self._fire_declared(ev)
            else:
                raise IllegalAction("knighthawks.phase.fire", f"{action.TYPE} is not a fire-phase action")
        elif st == "intercept":
            if t is not m.Intercept:
                raise IllegalAction("knighthawks.phase.intercept", "the defender must decide ICMs/evasion (intercept)")
            if action not in self.legal_actions(player):
                raise IllegalAction(*self._intercept_refusal(action))
            self._do_intercept(action, ev)
        else:
            if t is m.Repair:
                if action not in self.legal_actions(player):
                    raise IllegalAction(*self._repair_refusal(player, action))
                self.allocs.append((player, action.ship, action.target, action.points))
            elif t is m.EndRepair:
                self._end_repair(ev)
            else:
                raise IllegalAction("knighthawks.phase.repair", f"{action.TYPE} is not a repair-turn action")
        self._advance(ev)
        return ev

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
                self._fire_declared(ev)
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

    def _repair_refusal(self, player: int, a) -> tuple[str, str]:
        sh = self._get(a.ship)
        if sh is None or sh.owner != player or sh.status != ACTIVE:
            return ("knighthawks.repair.ship", f"{a.ship!r} is not one of your ships in play")
        mine = [x for x in self.allocs if x[1] == sh.id]
        left = sh.dcr(self.rules.dcr_rounding == "up") - sum(x[3] for x in mine)
        if left <= 0:
            return ("knighthawks.repair.dcr", f"{sh.id}'s whole DCR is already allocated this repair turn")
        if a.target in sh.unrep:
            return ("knighthawks.repair.unrepairable", f"{a.target!r} cannot be repaired in space (a 99 or 00 was rolled)")
        if a.target not in rep.repair_targets(sh, [x[2] for x in mine]):
            return ("knighthawks.repair.target", f"{sh.id} has nothing to repair as {a.target!r} (or every missing point "
                    "already has a block)")
        return ("knighthawks.repair.points", f"{a.points} is not a block of DCR: a multiple of 10 up to 90, or the rest "
                f"({left}) if below 90")

    def _end_repair(self, ev: list) -> None:
        if self.repair_player == 0:
            self.repair_player = 1
            ev.append(m.RepairsAllocated(0))
            return
        ev.append(m.RepairsAllocated(1))
        for _p, sid, target, points in self.allocs:
            sh = self.ship(sid)
            roll = self.rng.d100()
            ensure_shadow(sh)  # repair rolls are made in secret
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
            mine_owner, moves, layer = mm[1], mm[4], mm[6]
            if player is not None and mine_owner == player or moves >= 0 or mm[0] in self.activated:
                shown.append(mm)
            elif layer == "":
                hidden += 1  # placed before play: the scenario says how many there are, not where
            # a trap dropped in play is unknown to the other side (not even counted) until it detonates or,
            # a seeker, is activated
        out["mines"] = shown
        out["hidden_mines"] = hidden
        acting = self.current_players()
        if player is None or player not in acting:  # a seat's decision in progress is its own business
            out["plotting"] = None
            out["declared"] = []
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
