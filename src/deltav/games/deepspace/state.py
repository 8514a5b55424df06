"""The state machine of Deep Space Combat: phases, decision steps, resolution, views and JSON.

Phases and who decides (``current_players()``):

- ``design`` (only if a side designs during play): every designing side at once, secretly, step by step.
- ``deploy``: every side at once, secretly: per ship a hex of its zone, then an initial velocity; then ``done``.
- ``plot``: every side with ships at once, secretly: per ship a new velocity (or withdraw), then each weapon's
  target or hold; then ``done``. The last ``done`` resolves the round: reveal, movement, weapons.
- ``allocate``: every side whose ships took hit points, at once: per damaged ship, allocation steps (or
  ``auto_allocate``). Then ships at zero are destroyed.
- ``destruct``: every side with a ship sharing a hex with an enemy, at once, secretly: per such ship, detonate
  or not. Explosions are followed by a second ``allocate`` node for their victims, then destruction again.
- ``over``.

Every simultaneous node stores each side's steps privately; a side's steps never depend on another side's, so
the order of submission changes nothing. Rules live in the pure modules (``movement``, ``combat``, ``damage``);
this module sequences them.
"""

from __future__ import annotations

from functools import lru_cache

from deltav.core.errors import IllegalAction, ScenarioError, StateError
from deltav.core.hexgrid import distance
from deltav.core.protocol import Result, State
from deltav.core.rng import Rng
from deltav.games.deepspace import damage as dmg
from deltav.games.deepspace.design import POINTS_PER_SIZE, Fleet, ShipDesign, builtin_fleet_ids, load_fleet
from deltav.games.deepspace.limits import (
    ALIVE,
    DESIGN_STAGES,
    DESTROYED,
    SHOT_LOG,
    SPLIT_THRUST,
    STATUS_NAMES,
    WITHDRAWN,
)
from deltav.games.deepspace.messages import (
    ACTIONS,
    Allocate,
    Allocated,
    AutoAllocate,
    Blast,
    Commissioned,
    Declared,
    Deployed,
    Designed,
    DesignStep,
    Destroyed,
    Detonated,
    Done,
    EndShip,
    Fire,
    GameOver,
    Moved,
    NewShip,
    Place,
    Placed,
    Plotted,
    RoundBegan,
    SelfDestruct,
    SetStat,
    SetVelocity,
    Shot,
    ShotVoid,
    StatLost,
    UseFleet,
    VelocityColumn,
    WeaponDamage,
    WeaponTargeting,
    Withdraw,
    Withdrew,
)
from deltav.games.deepspace.movement import breakdown, thrust_cost, velocities_within

_DONE = Done()
_VEL_CACHE: dict = {}
_VEL_OBJ: dict = {}


@lru_cache(maxsize=64)
def fleets_within(levels: int, stat_cap: int) -> tuple[str, ...]:
    """The built-in fleets a side of ``levels`` size levels may adopt during the design phase."""
    out = []
    for fid in builtin_fleet_ids():
        try:
            f = load_fleet(fid, stat_cap)
        except ScenarioError:
            continue
        if f.levels_used <= levels:
            out.append(fid)
    return tuple(out)


def velocity_column_actions(ship: str, v0: tuple[int, int], thrust: int) -> list[VelocityColumn]:
    return [VelocityColumn(ship, q) for q in range(v0[0] - thrust, v0[0] + thrust + 1)]


def velocity_row_actions(ship: str, v0: tuple[int, int], thrust: int, q: int) -> list[SetVelocity]:
    """The velocities of column ``q`` within ``thrust`` of ``v0``."""
    dq = q - v0[0]
    lo = max(-thrust, -dq - thrust)
    hi = min(thrust, -dq + thrust)
    return [SetVelocity(ship, q, v0[1] + dr) for dr in range(lo, hi + 1)]


def velocity_actions(ship: str, v0: tuple[int, int], thrust: int) -> tuple[SetVelocity, ...]:
    key = (ship, v0, thrust)
    acts = _VEL_CACHE.get(key)
    if acts is None:
        if len(_VEL_CACHE) > 20000:
            _VEL_CACHE.clear()
        objs = _VEL_OBJ.get(ship)
        if objs is None or len(objs) > 50000:
            objs = _VEL_OBJ[ship] = {}
        out = []
        for v in velocities_within(v0, thrust):
            a = objs.get(v)
            if a is None:
                a = objs[v] = SetVelocity(ship, v[0], v[1])
            out.append(a)
        acts = _VEL_CACHE[key] = tuple(out)
    return acts


_ALLOC_ROWS: dict = {}
_ALLOC_ONE: dict = {}
_AUTO: dict = {}


def _alloc_row(sid: str, slot: int, m: int) -> list:
    """Allocate actions for hp 1..m on one slot (cached objects: search builds these lists constantly)."""
    key = (sid, slot)
    row = _ALLOC_ROWS.get(key)
    if row is None or len(row) < m:
        if len(_ALLOC_ROWS) > 20000:
            _ALLOC_ROWS.clear()
        stat, w = dmg.slot_name(slot)
        row = [Allocate(sid, stat, w, hp) for hp in range(1, max(m, 2 * len(row or ())) + 1)]
        _ALLOC_ROWS[key] = row
    return row[:m]


def _alloc_one(sid: str, slot: int, hp: int) -> Allocate:
    key = (sid, slot, hp)
    a = _ALLOC_ONE.get(key)
    if a is None:
        if len(_ALLOC_ONE) > 50000:
            _ALLOC_ONE.clear()
        stat, w = dmg.slot_name(slot)
        a = _ALLOC_ONE[key] = Allocate(sid, stat, w, hp)
    return a


def _auto(sid: str) -> AutoAllocate:
    a = _AUTO.get(sid)
    if a is None:
        a = _AUTO[sid] = AutoAllocate(sid)
    return a


class Ship:
    """One ship. ``lv`` holds its damageable stat levels as slots (see :mod:`damage`)."""

    __slots__ = (
        "id", "owner", "name", "design", "size", "lv", "partial", "pos", "vel", "status", "hp_taken", "pending",
        "incoming", "seen_thrust", "seen_weapons", "seen_damage",
    )

    def copy(self) -> Ship:
        s = Ship.__new__(Ship)
        s.id = self.id
        s.owner = self.owner
        s.name = self.name
        s.design = self.design
        s.size = self.size
        s.lv = self.lv[:]
        s.partial = self.partial[:]
        s.pos = self.pos
        s.vel = self.vel
        s.status = self.status
        s.hp_taken = self.hp_taken
        s.pending = self.pending
        s.incoming = self.incoming
        s.seen_thrust = self.seen_thrust
        s.seen_weapons = self.seen_weapons
        s.seen_damage = self.seen_damage
        return s

    @classmethod
    def make(cls, sid: str, owner: int, k: int, d: ShipDesign) -> Ship:
        s = cls.__new__(cls)
        s.id = sid
        s.owner = owner
        s.name = d.name
        s.design = f"d-p{owner}-{k}"
        s.size = d.size
        lv = [d.thrust, d.evasion, d.endurance]
        for t, dm in d.weapons:
            lv += [t, dm]
        s.lv = lv
        s.partial = [0, 0, 0]
        s.pos = None
        s.vel = (0, 0)
        s.status = ALIVE
        s.hp_taken = 0
        s.pending = 0
        s.incoming = 0
        s.seen_thrust = 0
        s.seen_weapons = 0
        s.seen_damage = (0,) * len(d.weapons)
        return s

    @property
    def thrust(self) -> int:
        return self.lv[0]

    @property
    def evasion(self) -> int:
        return self.lv[1]

    @property
    def endurance(self) -> int:
        return self.lv[2]

    @property
    def num_weapons(self) -> int:
        return (len(self.lv) - 3) // 2

    def weapons(self) -> list[tuple[int, int]]:
        lv = self.lv
        return [(lv[k], lv[k + 1]) for k in range(3, len(lv), 2)]

    def dead(self) -> bool:
        return max(self.lv) <= 0

    # --- JSON --------------------------------------------------------------------------------------
    def to_json(self) -> dict:
        return {
            "id": self.id, "owner": self.owner, "name": self.name, "design": self.design, "size": self.size,
            "lv": list(self.lv), "partial": list(self.partial),
            "pos": list(self.pos) if self.pos is not None else None, "vel": list(self.vel),
            "status": self.status, "hp_taken": self.hp_taken, "pending": self.pending, "incoming": self.incoming,
            "seen_thrust": self.seen_thrust, "seen_weapons": self.seen_weapons, "seen_damage": list(self.seen_damage),
        }

    @classmethod
    def from_json(cls, o: dict) -> Ship:
        s = cls.__new__(cls)
        s.id = o["id"]
        s.owner = o["owner"]
        s.name = o["name"]
        s.design = o["design"]
        s.size = o["size"]
        s.lv = list(o["lv"])
        s.partial = list(o["partial"])
        s.pos = o["pos"]
        s.vel = o["vel"]
        s.status = o["status"]
        s.hp_taken = o["hp_taken"]
        s.pending = o["pending"]
        s.incoming = o["incoming"]
        s.seen_thrust = o["seen_thrust"]
        s.seen_weapons = o["seen_weapons"]
        s.seen_damage = tuple(o["seen_damage"])
        return s


class DeepSpaceState(State):
    """A position of Deep Space Combat. See the module docstring for the phases."""

    __slots__ = (
        "num_players", "rng", "opts", "names", "levels", "zones", "round_limit", "phase", "sub", "round",
        "ships", "index", "waiting", "order", "cur", "plan", "inflicted", "received", "report", "shots", "_result",
        "designs", "drafts", "col",
    )

    # --- construction ------------------------------------------------------------------------------
    def clone(self) -> DeepSpaceState:
        s = DeepSpaceState.__new__(DeepSpaceState)
        s.num_players = self.num_players
        s.rng = self.rng.clone()
        s.opts = self.opts
        s.names = self.names
        s.levels = self.levels
        s.zones = self.zones
        s.round_limit = self.round_limit
        s.phase = self.phase
        s.sub = self.sub
        s.round = self.round
        s.ships = [x.copy() for x in self.ships]
        s.index = self.index
        s.waiting = self.waiting[:]
        s.order = self.order[:]
        s.cur = self.cur[:]
        s.col = self.col[:]
        s.plan = self.plan[:]
        s.inflicted = self.inflicted[:]
        s.received = self.received[:]
        s.report = self.report
        s.shots = self.shots
        s._result = self._result
        s.designs = self.designs[:]
        s.drafts = self.drafts[:]
        return s

    # --- protocol basics ---------------------------------------------------------------------------
    def current_players(self) -> list[int]:
        if self.phase == "over":
            return []
        return [p for p in range(self.num_players) if self.waiting[p]]

    def turn_count(self) -> int:
        """Rounds (one plot, movement and fire for every fleet; the round being played counts)."""
        return self.round

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def check_turn(self, player: int) -> None:
        """As the protocol's, with the same rule ids, without building the list of deciders."""
        if type(player) is not int or not 0 <= player < self.num_players:
            raise IllegalAction("protocol.player", f"no such player {player!r} (players are 0..{self.num_players - 1})")
        if self.phase == "over":
            raise IllegalAction("protocol.game_over", "the game is over")
        if not self.waiting[player]:
            raise IllegalAction(
                "protocol.turn", f"player {player} may not act now (waiting for {self.current_players()})"
            )

    def result(self) -> Result | None:
        return self._result

    def ship(self, sid: str) -> Ship | None:
        i = self.index.get(sid)
        return None if i is None else self.ships[i]

    def fleet(self, player: int) -> Fleet:
        """The player's fleet as designed (before any damage), e.g. to save a design made during play as the
        text of :func:`deltav.games.deepspace.design.fleet_to_toml`."""
        return Fleet(f"{self.names[player].lower()}-fleet", f"{self.names[player]}'s fleet", self.levels[player],
                     tuple(self.designs[player]))

    def plot_id(self, p: int) -> str:
        return f"plot-p{p}-r{self.round}"

    def secret_tokens(self, player: int | None) -> set[str]:
        out = {s.design for s in self.ships if s.owner != player}
        if self.phase == "plot":
            out.update(self.plot_id(q) for q in range(self.num_players) if q != player)
        return out

    # --- legal actions -----------------------------------------------------------------------------
    def legal_actions(self, player: int) -> list:
        if type(player) is not int or self.phase == "over" or not (0 <= player < self.num_players) or not self.waiting[
            player
        ]:
            return []
        ph = self.phase
        if ph == "plot":
            return self._plot_legal(player)
        if ph == "allocate":
            return self._alloc_legal(player)
        if ph == "destruct":
            i = self.cur[player]
            sid = self.ships[self.order[player][i]].id
            return [SelfDestruct(sid, False), SelfDestruct(sid, True)]
        if ph == "deploy":
            return self._deploy_legal(player)
        return self._design_legal(player)

    def _plot_legal(self, p: int) -> list:
        i, w = self.cur[p]
        order = self.order[p]
        if i >= len(order):
            return [_DONE]
        s = self.ships[order[i]]
        if w < 0:
            thrust = s.lv[0]
            if thrust > SPLIT_THRUST:
                if self.col[p] is not None:
                    return velocity_row_actions(s.id, s.vel, thrust, self.col[p])
                out = velocity_column_actions(s.id, s.vel, thrust)
            elif thrust == 0 and self.opts["thrustless"] == "fixed":
                out = [velocity_actions(s.id, (0, 0), 0)[0]]  # cannot move: a fixed object
            else:
                out = list(velocity_actions(s.id, s.vel, thrust))
            if self._may_withdraw(s):
                out.append(Withdraw(s.id))
            return out
        out = [Fire(s.id, w, None)]
        for t in self._targets(s):
            out.append(Fire(s.id, w, t.id))
        return out

    def _targets(self, s: Ship) -> list[Ship]:
        ff = self.opts["friendly_fire"]
        return [t for t in self.ships if t.status == ALIVE and t is not s and (ff or t.owner != s.owner)]

    def _may_withdraw(self, s: Ship) -> bool:
        radius = self.opts["withdrawal_radius"]
        if radius <= 0:
            return False
        pos = s.pos
        return not any(
            t.status == ALIVE and t.owner != s.owner and distance(pos, t.pos) <= radius for t in self.ships
        )

    def _alloc_legal(self, p: int) -> list:
        s = self.ships[self.order[p][self.cur[p]]]
        mode = self.opts["leftover_damage"]
        r = s.pending
        size = s.size
        lv = s.lv
        sid = s.id
        out: list = [_auto(sid)]
        for k in range(3):
            lvl = lv[k]
            if lvl <= 0:
                continue
            if mode == "partial":
                out += _alloc_row(sid, k, min(lvl * size - s.partial[k], r))
            else:
                for j in range(1, min(lvl, r // size) + 1):
                    out.append(_alloc_one(sid, k, j * size))
                if r % size and r // size <= lvl:
                    out.append(_alloc_one(sid, k, r))
        for k in range(3, len(lv)):
            lvl = lv[k]
            if lvl > 0:
                out += _alloc_row(sid, k, lvl if lvl < r else r)
        return out

    def _deploy_legal(self, p: int) -> list:
        i, step = self.cur[p]
        order = self.order[p]
        if i >= len(order):
            return [_DONE]
        s = self.ships[order[i]]
        if step == 0:
            q, r, rad = self.zones[p]
            out = []
            for dq in range(-rad, rad + 1):
                for dr in range(max(-rad, -dq - rad), min(rad, -dq + rad) + 1):
                    out.append(Place(s.id, q + dq, r + dr))
            return out
        thrust = s.lv[0]
        if thrust > SPLIT_THRUST:
            if self.col[p] is None:
                return velocity_column_actions(s.id, (0, 0), thrust)
            return velocity_row_actions(s.id, (0, 0), thrust, self.col[p])
        return list(velocity_actions(s.id, (0, 0), thrust))

    def _design_bounds(self, p: int) -> tuple[int, int, int, bool]:
        """The design step now: ``(stage, lo, hi, extra)``: levels lo..hi are open; ``extra`` says whether the
        stage's other action (``done`` at stage 0, ``end_ship`` at stage 4) is open."""
        size, t, e, en, weapons, stage, pend = self.drafts[p]
        cap = self.opts["stat_cap"]
        if stage == 0:
            free = self.levels[p] - sum(d.size for d in self.designs[p])
            return 0, 1, free, bool(self.designs[p]) and (free == 0 or self.opts["fleet_levels"] == "at_most")
        left = POINTS_PER_SIZE * size - (size * (t + e + en) + sum(a + b for a, b in weapons))
        if stage in (1, 2, 3):
            hi = left // size
            return stage, 0, min(hi, cap) if cap else hi, False
        if stage == 4:
            # a weapon needs one point: targeting 0 needs damage >= 1
            return 4, 0, (min(left, cap) if cap else left) if left >= 1 else -1, (
                t + e + en + sum(a + b for a, b in weapons) > 0
            )
        left -= pend
        return 5, 1 if pend == 0 else 0, min(left, cap) if cap else left, False

    def _design_legal(self, p: int) -> list:
        stage, lo, hi, extra = self._design_bounds(p)
        if stage == 0:
            out: list = [NewShip(k) for k in range(lo, hi + 1)]
            if not self.designs[p]:
                out += [UseFleet(f) for f in fleets_within(self.levels[p], self.opts["stat_cap"])]
            if extra:
                out.append(_DONE)
            return out
        if stage in (1, 2, 3):
            return [SetStat(DESIGN_STAGES[stage], v) for v in range(lo, hi + 1)]
        if stage == 4:
            return ([EndShip()] if extra else []) + [WeaponTargeting(v) for v in range(lo, hi + 1)]
        return [WeaponDamage(v) for v in range(lo, hi + 1)]

    def _design_ok(self, p: int, a) -> bool:
        stage, lo, hi, extra = self._design_bounds(p)
        if stage == 0:
            if isinstance(a, UseFleet):
                return not self.designs[p] and a.fleet in fleets_within(self.levels[p], self.opts["stat_cap"])
            return (isinstance(a, Done) and extra) or (isinstance(a, NewShip) and lo <= a.size <= hi)
        if stage in (1, 2, 3):
            return isinstance(a, SetStat) and a.stat == DESIGN_STAGES[stage] and lo <= a.level <= hi
        if stage == 4:
            return (isinstance(a, EndShip) and extra) or (isinstance(a, WeaponTargeting) and lo <= a.level <= hi)
        return isinstance(a, WeaponDamage) and lo <= a.level <= hi

    # --- applying actions --------------------------------------------------------------------------
    def apply_action(self, player: int, action) -> list:
        ACTIONS.check(action)  # a non-action, another game's action or a wrong-typed field: MalformedAction
        self.check_turn(player)
        ph = self.phase
        if ph == "plot":
            return self._apply_plot(player, action)
        if ph == "allocate":
            return self._apply_alloc(player, action)
        if ph == "destruct":
            return self._apply_destruct(player, action)
        if ph == "deploy":
            return self._apply_deploy(player, action)
        return self._apply_design(player, action)

    # plotting
    def _apply_plot(self, p: int, a) -> list:
        i, w = self.cur[p]
        order = self.order[p]
        if i >= len(order):
            if not isinstance(a, Done):
                raise IllegalAction("deepspace.plot.order", "every ship is plotted: send done")
            self.waiting[p] = False
            ev: list = [Plotted(p)]
            if not any(self.waiting):
                ev += self._resolve_round()
            return ev
        si = order[i]
        s = self.ships[si]
        if w < 0:
            split = s.lv[0] > SPLIT_THRUST
            col = self.col[p]
            if isinstance(a, VelocityColumn):
                if a.ship != s.id or not split or col is not None:
                    raise IllegalAction("deepspace.plot.order", self._velocity_step_text(s, col))
                if abs(a.dq - s.vel[0]) > s.lv[0]:
                    raise IllegalAction(
                        "deepspace.movement.thrust", f"{s.id}: dq {a.dq} is beyond thrust {s.lv[0]} of {s.vel[0]}"
                    )
                self.col[p] = a.dq
                return []
            if isinstance(a, SetVelocity):
                if a.ship != s.id or (split and col is None):
                    raise IllegalAction("deepspace.plot.order", self._velocity_step_text(s, col))
                if split and a.dq != col:
                    raise IllegalAction("deepspace.plot.order", f"{s.id}: the chosen column is dq = {col}")
                v1 = (a.dq, a.dr)
                cost = thrust_cost(s.vel, v1)
                if s.lv[0] == 0 and self.opts["thrustless"] == "fixed":
                    if v1 != (0, 0):
                        raise IllegalAction(
                            "deepspace.movement.fixed",
                            f"{s.id} has no thrust: it cannot move (thrustless = fixed), its velocity is (0, 0)",
                        )
                elif cost > s.lv[0]:
                    raise IllegalAction(
                        "deepspace.movement.thrust", f"{s.id}: the change costs {cost} thrust, the ship has {s.lv[0]}"
                    )
                self.plan[si] = (v1, ())
                self.col[p] = None
                self._advance_plot(p, s, -1)
                return []
            if isinstance(a, Withdraw):
                if a.ship != s.id or col is not None:
                    raise IllegalAction("deepspace.plot.order", self._velocity_step_text(s, col))
                if not self._may_withdraw(s):
                    radius = self.opts["withdrawal_radius"]
                    if radius <= 0:
                        raise IllegalAction("deepspace.withdraw.disabled", "withdrawal is off (withdrawal_radius = 0)")
                    raise IllegalAction("deepspace.withdraw.distance", f"{s.id} is within {radius} hexes of an enemy")
                self.plan[si] = (None, ())
                self.cur[p] = (i + 1, -1)
                return []
            raise IllegalAction("deepspace.plot.order", f"choose a velocity (or withdraw) for ship {s.id}")
        if not isinstance(a, Fire) or a.ship != s.id or a.weapon != w:
            raise IllegalAction("deepspace.plot.order", f"choose a target (or hold) for weapon {w} of ship {s.id}")
        if a.target is None:
            ti = -1
        else:
            t = self.ship(a.target)
            if t is None:
                raise IllegalAction("deepspace.weapons.target", f"there is no ship {a.target!r}")
            if t is s:
                raise IllegalAction("deepspace.weapons.self", f"{s.id} cannot fire at itself")
            if t.status != ALIVE:
                raise IllegalAction(
                    "deepspace.weapons.target", f"{t.id} is no longer in the battle ({STATUS_NAMES[t.status]})"
                )
            if t.owner == s.owner and not self.opts["friendly_fire"]:
                raise IllegalAction("deepspace.weapons.friendly", "weapons fire at enemy ships only")
            ti = self.index[a.target]
        vel, shots = self.plan[si]
        self.plan[si] = (vel, shots + ((w, ti),))
        self._advance_plot(p, s, w)
        return []

    def _velocity_step_text(self, s: Ship, col: int | None) -> str:
        if s.lv[0] <= SPLIT_THRUST:
            return f"choose a velocity (or withdraw) for ship {s.id}"
        if col is None:
            return f"choose the dq of ship {s.id}'s velocity (velocity_column), or withdraw"
        return f"choose the dr of ship {s.id}'s velocity in column dq = {col}"

    def _advance_plot(self, p: int, s: Ship, w: int) -> None:
        lv = s.lv
        k = w + 1
        n = (len(lv) - 3) // 2
        while k < n:
            if lv[3 + 2 * k] + lv[4 + 2 * k] > 0:
                self.cur[p] = (self.cur[p][0], k)
                return
            k += 1
        self.cur[p] = (self.cur[p][0] + 1, -1)

    def _resolve_round(self) -> list:
        ev: list = []
        ships = self.ships
        plan = self.plan
        arena = self.opts["arena_radius"]
        for si, s in enumerate(ships):
            pl = plan[si]
            if s.status != ALIVE or pl is None:
                continue
            v1 = pl[0]
            if v1 is None:
                s.status = WITHDRAWN
                ev.append(Withdrew(s.id))
                continue
            if s.lv[0] == 0 and v1 != s.vel:  # a ship without thrust that stops (thrustless = fixed)
                up = down = turn = 0
            else:
                up, down, turn = breakdown(s.vel, v1)
            cost = up + down + turn
            if cost > s.seen_thrust:
                s.seen_thrust = cost
            s.pos = (s.pos[0] + v1[0], s.pos[1] + v1[1])
            s.vel = v1
            ev.append(Moved(s.id, s.pos[0], s.pos[1], v1[0], v1[1], cost, up, down, turn))
            if arena and max(abs(s.pos[0]), abs(s.pos[1]), abs(s.pos[0] + s.pos[1])) > arena:
                s.status = WITHDRAWN
                ev.append(Withdrew(s.id))
        for s in ships:
            s.incoming = 0
        rng = self.rng
        for si, s in enumerate(ships):
            pl = plan[si]
            if pl is None or pl[0] is None or s.status != ALIVE:  # withdrawn ships (and arena leavers) hold fire
                continue
            lv = s.lv
            for w, ti in pl[1]:
                if ti < 0:
                    continue
                t = ships[ti]
                if t.status != ALIVE:
                    ev.append(ShotVoid(s.id, w, t.id))
                    continue
                rq = s.pos[0] - t.pos[0]
                rr = s.pos[1] - t.pos[1]
                rng_ = max(abs(rq), abs(rr), abs(rq + rr))
                a = rng.below(6) + rng.below(6) + 2
                e = rng.below(6) + rng.below(6) + 2
                hit = a * lv[3 + 2 * w] - rng_ >= e * t.lv[1]
                hp = 0
                if hit:
                    a = rng.below(6) + rng.below(6) + 2
                    e = rng.below(6) + rng.below(6) + 2
                    hp = a * lv[4 + 2 * w] - e * t.lv[2]
                    if hp < 0:
                        hp = 0
                if w + 1 > s.seen_weapons:
                    s.seen_weapons = w + 1
                if hp:
                    if hp > s.seen_damage[w]:
                        sd = list(s.seen_damage)
                        sd[w] = hp
                        s.seen_damage = tuple(sd)
                    self._hurt(s.owner, t, hp)
                ev.append(Shot(s.id, w, t.id, rng_, hit, hp))
        self.plan = [None] * len(ships)
        self.report = tuple(e.to_json() for e in ev)
        new = tuple((e.ship, e.weapon, e.target, e.range, e.hit, e.hp) for e in ev if isinstance(e, Shot))
        if new:
            self.shots = (self.shots + new)[-SHOT_LOG:]
        return ev + self._start_allocation("fire")

    def _hurt(self, attacker: int, t: Ship, hp: int) -> None:
        t.pending += hp
        t.incoming += hp
        t.hp_taken += hp
        self.received[t.owner] += hp
        if attacker != t.owner:
            self.inflicted[attacker] += hp

    # allocation
    def _start_allocation(self, sub: str) -> list:
        self.phase = "allocate"
        self.sub = sub
        n = self.num_players
        orders: list[list[int]] = [[] for _ in range(n)]
        for si, s in enumerate(self.ships):
            if s.pending > 0:
                s.seen_thrust = 0
                s.seen_damage = (0,) * len(s.seen_damage)
                if s.status != ALIVE or s.dead():
                    s.pending = 0
                else:
                    orders[s.owner].append(si)
        self.order = [tuple(o) for o in orders]
        self.cur = [0] * n
        self.waiting = [bool(o) for o in orders]
        if not any(self.waiting):
            return self._after_allocation()
        return []

    def _apply_alloc(self, p: int, a) -> list:
        si = self.order[p][self.cur[p]]
        s = self.ships[si]
        mode = self.opts["leftover_damage"]
        ev: list = []
        if isinstance(a, AutoAllocate):
            if a.ship != s.id:
                raise IllegalAction("deepspace.damage.order", f"allocate the hit points of ship {s.id} next")
            totals: dict[int, list[int]] = {}  # slot -> [hp, levels], in the order first touched
            while True:
                step = dmg.default_step(s.size, s.lv, s.partial, s.pending, mode)
                if step is None:
                    break
                k, hp = step
                lost = dmg.apply(s.size, s.lv, s.partial, k, hp, mode)
                s.pending -= hp
                acc = totals.setdefault(k, [0, 0])
                acc[0] += hp
                acc[1] += lost
            for k, (hp, lost) in totals.items():
                stat, w = dmg.slot_name(k)
                ev.append(StatLost(s.id, stat, w, hp, lost, (p,)))
            s.pending = 0
        elif isinstance(a, Allocate):
            if a.ship != s.id:
                raise IllegalAction("deepspace.damage.order", f"allocate the hit points of ship {s.id} next")
            k = dmg.slot_of(a.stat, a.weapon)
            if k is None or k >= len(s.lv) or (a.weapon is not None and a.weapon < 0):
                raise IllegalAction("deepspace.damage.stat", f"{s.id} has no stat {a.stat!r} (weapon {a.weapon})")
            if not dmg.is_legal(s.size, s.lv, s.partial, s.pending, k, a.hp, mode):
                raise IllegalAction(*_alloc_refusal(s, k, a, mode))
            lost = dmg.apply(s.size, s.lv, s.partial, k, a.hp, mode)
            s.pending -= a.hp
            if s.dead():
                s.pending = 0
            ev.append(StatLost(s.id, a.stat, a.weapon, a.hp, lost, (p,)))
        else:
            raise IllegalAction("deepspace.damage.order", f"allocate the hit points of ship {s.id}")
        if s.pending == 0:
            self.cur[p] += 1
            if self.cur[p] >= len(self.order[p]):
                self.waiting[p] = False
                ev.append(Allocated(p))
                if not any(self.waiting):
                    ev += self._after_allocation()
        return ev

    def _after_allocation(self) -> list:
        ev: list = []
        for s in self.ships:
            if s.status == ALIVE and s.dead():
                s.status = DESTROYED
                ev.append(Destroyed(s.id, "damage"))
        if self.sub == "fire" and self.opts["self_destruct"]:
            ev += self._start_destruct()
        else:
            ev += self._end_round()
        return ev

    # self-destruct
    def _start_destruct(self) -> list:
        n = self.num_players
        by_hex: dict = {}
        for si, s in enumerate(self.ships):
            if s.status == ALIVE:
                by_hex.setdefault(s.pos, []).append(si)
        orders: list[list[int]] = [[] for _ in range(n)]
        anywhere = self._declare_anywhere()
        for group in by_hex.values():
            if not anywhere and (len(group) < 2 or len({self.ships[i].owner for i in group}) < 2):
                continue
            for i in group:
                orders[self.ships[i].owner].append(i)
        for o in orders:
            o.sort()
        self.order = [tuple(o) for o in orders]
        self.cur = [0] * n
        self.waiting = [bool(o) for o in orders]
        self.plan = [None] * len(self.ships)
        if not any(self.waiting):
            return self._end_round()
        self.phase = "destruct"
        return []

    def _declare_anywhere(self) -> bool:
        """Whether every ship in the battle declares (``self_destruct_scope = anywhere``), or only ships sharing
        a hex with an enemy: also so in the battle's last round (at most one side left, or the round limit),
        where an explosion that reaches no enemy can change nothing but the owner's losses."""
        return (
            self.opts["self_destruct_scope"] == "anywhere" and self.round < self.round_limit and len(self._active()) > 1
        )

    def _apply_destruct(self, p: int, a) -> list:
        si = self.order[p][self.cur[p]]
        s = self.ships[si]
        if not isinstance(a, SelfDestruct) or a.ship != s.id:
            raise IllegalAction("deepspace.destruct.order", f"declare whether ship {s.id} self-destructs")
        self.plan[si] = a.detonate
        self.cur[p] += 1
        if self.cur[p] < len(self.order[p]):
            return []
        self.waiting[p] = False
        ev: list = [Declared(p)]
        if not any(self.waiting):
            ev += self._explode()
        return ev

    def _explode(self) -> list:
        ev: list = []
        ships = self.ships
        boom = [si for si in range(len(ships)) if self.plan[si] is True]
        self.plan = [None] * len(ships)
        for s in ships:
            s.incoming = 0
        friends = self.opts["explosion_hits_friends"]
        # explosions are simultaneous: each hits everything in its hex, other exploding ships included (they
        # are destroyed anyway; the hit points count in the campaign score)
        powers = [sum(ships[si].lv) + (ships[si].size if self.opts["explosion_counts_size"] else 0) for si in boom]
        for si, power in zip(boom, powers):
            e = ships[si]
            ev.append(Detonated(e.id))
            for vi, v in enumerate(ships):
                if vi == si or v.status != ALIVE or v.pos != e.pos:
                    continue
                if v.owner == e.owner and not friends:
                    continue
                a = self.rng.below(6) + self.rng.below(6) + 2
                b = self.rng.below(6) + self.rng.below(6) + 2
                hp = a * power - b * v.lv[2]
                if hp < 0:
                    hp = 0
                if hp:
                    self._hurt(e.owner, v, hp)
                ev.append(Blast(e.id, v.id, hp))
        for si in boom:
            ships[si].status = DESTROYED
            ev.append(Destroyed(ships[si].id, "self-destruct"))
        self.report = self.report + tuple(x.to_json() for x in ev)
        return ev + self._start_allocation("blast")

    # end of round and of game
    def _active(self) -> list[int]:
        seen = [False] * self.num_players
        for s in self.ships:
            if s.status == ALIVE:
                seen[s.owner] = True
        return [p for p in range(self.num_players) if seen[p]]

    def _end_round(self) -> list:
        active = self._active()
        if len(active) <= 1:
            return self._finish(active, limit=False)
        if self.round >= self.round_limit:
            return self._finish(active, limit=True)
        return self._start_plot(self.round + 1)

    def _start_plot(self, rnd: int) -> list:
        self.round = rnd
        self.phase = "plot"
        self.sub = ""
        n = self.num_players
        orders: list[list[int]] = [[] for _ in range(n)]
        for si, s in enumerate(self.ships):
            if s.status == ALIVE:
                orders[s.owner].append(si)
        self.order = [tuple(o) for o in orders]
        self.cur = [(0, -1)] * n
        self.waiting = [bool(o) for o in orders]
        self.plan = [None] * len(self.ships)
        return [RoundBegan(rnd)]

    def scores(self) -> list[int]:
        return [self.inflicted[p] - self.received[p] for p in range(self.num_players)]

    def _finish(self, active: list[int], limit: bool) -> list:
        self.phase = "over"
        self.waiting = [False] * self.num_players
        scores = self.scores()
        two = self.num_players == 2 and self.opts["two_fleet_victory"] == "annihilation"
        if two and not limit:
            if active:
                winners = tuple(active)
                loser = 1 - active[0]
                gone = all(s.status == DESTROYED for s in self.ships if s.owner == loser)
                reason = "annihilation" if gone else "the enemy left the field"
            else:
                winners = ()
                gone = all(s.status == DESTROYED for s in self.ships)
                reason = "mutual destruction" if gone else "no fleet left on the field"
        else:
            best = max(scores)
            winners = tuple(p for p in range(self.num_players) if scores[p] == best)
            if len(winners) == self.num_players:
                winners = ()
            why = "round limit" if limit else "battle over"
            reason = f"campaign score ({why})"
        self._result = Result(winners, reason, tuple(float(x) for x in scores))
        return [GameOver(winners, reason, tuple(scores))]

    # deployment
    def _apply_deploy(self, p: int, a) -> list:
        i, step = self.cur[p]
        order = self.order[p]
        if i >= len(order):
            if not isinstance(a, Done):
                raise IllegalAction("deepspace.deploy.order", "every ship is deployed: send done")
            self.waiting[p] = False
            ev: list = [Deployed(p)]
            if not any(self.waiting):
                ev += self._reveal_deployment()
            return ev
        si = order[i]
        s = self.ships[si]
        if step == 0:
            if not isinstance(a, Place) or a.ship != s.id:
                raise IllegalAction("deepspace.deploy.order", f"place ship {s.id} next")
            q, r, rad = self.zones[p]
            if distance((a.q, a.r), (q, r)) > rad:
                raise IllegalAction(
                    "deepspace.deploy.zone", f"({a.q},{a.r}) is outside the zone of radius {rad} around ({q},{r})"
                )
            self.plan[si] = (a.q, a.r, 0, 0)
            if self.opts["initial_velocity"] == "rest":
                self.cur[p] = (i + 1, 0)
            else:
                self.cur[p] = (i, 1)
            return []
        split = s.lv[0] > SPLIT_THRUST
        col = self.col[p]
        if isinstance(a, VelocityColumn) and a.ship == s.id and split and col is None:
            if abs(a.dq) > s.lv[0]:
                raise IllegalAction("deepspace.deploy.speed", f"dq {a.dq} exceeds {s.id}'s thrust {s.lv[0]}")
            self.col[p] = a.dq
            return []
        if not isinstance(a, SetVelocity) or a.ship != s.id or (split and (col is None or a.dq != col)):
            raise IllegalAction("deepspace.deploy.order", f"choose the initial velocity of ship {s.id}")
        v = (a.dq, a.dr)
        if thrust_cost((0, 0), v) > s.lv[0]:
            raise IllegalAction(
                "deepspace.deploy.speed", f"initial speed {thrust_cost((0, 0), v)} exceeds {s.id}'s thrust {s.lv[0]}"
            )
        self.plan[si] = (self.plan[si][0], self.plan[si][1], v[0], v[1])
        self.col[p] = None
        self.cur[p] = (i + 1, 0)
        return []

    def _reveal_deployment(self) -> list:
        ev: list = []
        for si, s in enumerate(self.ships):
            q, r, dq, dr = self.plan[si]
            s.pos = (q, r)
            s.vel = (dq, dr)
            ev.append(Placed(s.id, q, r, dq, dr))
        self.report = tuple(e.to_json() for e in ev)
        return ev + self._start_plot(1)

    def _start_deploy(self) -> list:
        self.phase = "deploy"
        n = self.num_players
        orders: list[list[int]] = [[] for _ in range(n)]
        for si, s in enumerate(self.ships):
            orders[s.owner].append(si)
        self.order = [tuple(o) for o in orders]
        self.cur = [(0, 0)] * n
        self.waiting = [bool(o) for o in orders]
        self.plan = [None] * len(self.ships)
        return []

    # design
    def _apply_design(self, p: int, a) -> list:
        if not self._design_ok(p, a):
            raise IllegalAction(*self._design_refusal(p, a))
        size, t, e, en, weapons, stage, pend = self.drafts[p]
        if isinstance(a, Done):
            self.waiting[p] = False
            ev: list = [Designed(p)]
            if not any(self.waiting):
                ev += self._commission()
            return ev
        if isinstance(a, UseFleet):
            self.designs[p] = load_fleet(a.fleet, self.opts["stat_cap"]).ships
        elif isinstance(a, NewShip):
            self.drafts[p] = (a.size, 0, 0, 0, (), 1, 0)
        elif isinstance(a, SetStat):
            if stage == 1:
                t = a.level
            elif stage == 2:
                e = a.level
            else:
                en = a.level
            self.drafts[p] = (size, t, e, en, weapons, stage + 1, 0)
        elif isinstance(a, WeaponTargeting):
            self.drafts[p] = (size, t, e, en, weapons, 5, a.level)
        elif isinstance(a, WeaponDamage):
            self.drafts[p] = (size, t, e, en, weapons + ((pend, a.level),), 4, 0)
        else:  # EndShip
            k = len(self.designs[p])
            d = ShipDesign(f"Design {k + 1}", size, t, e, en, weapons)
            self.designs[p] = self.designs[p] + (d,)
            self.drafts[p] = (0, 0, 0, 0, (), 0, 0)
        size, t, e, en, weapons, stage, pend = self.drafts[p]
        return [DesignStep(p, size, t, e, en, weapons, (p,))]

    def _design_refusal(self, p: int, a) -> tuple[str, str]:
        """The rule id and sentence for a design step that :meth:`_design_ok` refused."""
        size, t, e, en, weapons, stage, pend = self.drafts[p]
        free = self.levels[p] - sum(d.size for d in self.designs[p])
        cap = self.opts["stat_cap"]
        name = DESIGN_STAGES[stage]
        order = ("deepspace.design.order", f"{type(a).TYPE} is not the next design step (the design is at stage {name!r})")
        if stage == 0:
            if isinstance(a, UseFleet):
                if self.designs[p]:
                    return "deepspace.design.order", "a ready-made fleet is adopted before any ship is designed"
                if a.fleet in builtin_fleet_ids():
                    return "deepspace.design.size_levels", f"fleet {a.fleet!r} needs more than the side's {free} size levels"
                return "deepspace.design.fleet", f"no built-in fleet {a.fleet!r} (built-in: {', '.join(builtin_fleet_ids())})"
            if isinstance(a, NewShip):
                if a.size < 1:
                    return "deepspace.design.size", f"a ship's size is at least 1, not {a.size}"
                return "deepspace.design.size_levels", f"size {a.size} is not available: {free} size levels left"
            if isinstance(a, Done):
                if not self.designs[p]:
                    return "deepspace.design.no_ship", "design at least one ship before done"
                return (
                    "deepspace.design.size_levels",
                    f"the fleet's ships must total the side's {self.levels[p]} size levels: {free} are still unused",
                )
            return order
        level = getattr(a, "level", None)
        fits = (
            (stage in (1, 2, 3) and isinstance(a, SetStat) and a.stat == name)
            or (stage == 4 and isinstance(a, WeaponTargeting))
            or (stage == 5 and isinstance(a, WeaponDamage))
        )
        if stage == 4 and isinstance(a, EndShip):
            return "deepspace.design.empty_ship", "a ship needs at least one stat above zero besides size"
        if not fits:
            return order
        if stage == 5 and level == 0 and pend == 0:
            return "deepspace.design.empty_weapon", "a weapon needs at least one level of targeting or damage"
        if level < 0:
            return "deepspace.design.level", f"a level is at least 0, not {level}"
        unit = size if stage in (1, 2, 3) else 1
        left = POINTS_PER_SIZE * size - (size * (t + e + en) + sum(x + y for x, y in weapons)) - pend
        if cap and level > cap and level * unit <= left:
            return "deepspace.design.stat_cap", f"{level} exceeds the stat cap {cap}"
        return (
            "deepspace.design.points",
            f"{level} levels of {name if stage < 4 else 'targeting' if stage == 4 else 'damage'} cost {level * unit} "
            f"design points; {left} of the ship's {POINTS_PER_SIZE * size} (60 x size {size}) are left",
        )

    def _commission(self) -> list:
        ev: list = []
        ships = []
        for p in range(self.num_players):
            for k, d in enumerate(self.designs[p]):
                s = Ship.make(f"s{p}-{k}", p, k, d)
                ships.append(s)
                ev.append(Commissioned(s.id, p, s.size))
        self.ships = ships
        self.index = {s.id: i for i, s in enumerate(ships)}
        self.plan = [None] * len(ships)
        return ev + self._start_deploy()

    # --- views -------------------------------------------------------------------------------------
    def view(self, player: int | None) -> dict:
        if player is not None and (type(player) is not int or not 0 <= player < self.num_players):
            raise IllegalAction("protocol.player", f"no such player {player!r} (players are 0..{self.num_players - 1})")
        out: dict = {
            "game": "deepspace",
            "you": player,
            "phase": self.phase,
            "step": self.sub,
            "round": self.round,
            "round_limit": self.round_limit,
            "options": dict(self.opts),
            "players": [
                {
                    "name": self.names[p],
                    "size_levels": self.levels[p],
                    "zone": list(self.zones[p]),
                    "inflicted": self.inflicted[p],
                    "received": self.received[p],
                    "score": self.inflicted[p] - self.received[p],
                    "waiting": self.waiting[p],
                }
                for p in range(self.num_players)
            ],
            "ships": [self._ship_view(s, player) for s in self.ships],
            "report": list(self.report),
            "shots": [list(x) for x in self.shots],
            "result": self._result.to_json() if self._result else None,
        }
        if player is not None:
            out["mine"] = self._private_view(player)
        return out

    def _ship_view(self, s: Ship, viewer: int | None) -> dict:
        revealed = s.pos is not None
        o = {
            "id": s.id,
            "owner": s.owner,
            "size": s.size,
            "status": STATUS_NAMES[s.status],
            "pos": list(s.pos) if revealed else None,
            "vel": list(s.vel) if revealed else None,
            "hp_taken": s.hp_taken,
            "incoming": s.incoming,
            "seen": {"thrust": s.seen_thrust, "weapons": s.seen_weapons, "damage": list(s.seen_damage[: s.seen_weapons])},
        }
        if viewer == s.owner:
            o["design"] = s.design
            o["name"] = s.name
            o["thrust"], o["evasion"], o["endurance"] = s.lv[0], s.lv[1], s.lv[2]
            o["weapons"] = [[t, d] for t, d in s.weapons()]
            o["partial"] = list(s.partial)
            o["pending"] = s.pending
        return o

    def _private_view(self, p: int) -> dict:
        """The player's own secrets: its pending plot/deployment/declarations/allocation, its designs."""
        ph = self.phase
        mine: dict = {"waiting": self.waiting[p]}
        if ph == "design":
            size, t, e, en, weapons, stage, pend = self.drafts[p]
            mine["designs"] = [d.to_json() for d in self.designs[p]]
            mine["draft"] = {
                "size": size, "thrust": t, "evasion": e, "endurance": en,
                "weapons": [[a, b] for a, b in weapons], "stage": DESIGN_STAGES[stage], "targeting": pend,
            }
        elif ph in ("deploy", "plot", "destruct", "allocate"):
            mine["order"] = [self.ships[i].id for i in self.order[p]]
            mine["cursor"] = list(self.cur[p]) if isinstance(self.cur[p], tuple) else self.cur[p]
            if ph in ("deploy", "plot"):
                mine["column"] = self.col[p]
            if ph == "plot":
                mine["plot_id"] = self.plot_id(p)
            entries = {}
            for i in self.order[p]:
                pl = self.plan[i]
                if pl is None:
                    continue
                sid = self.ships[i].id
                if ph == "deploy":
                    entries[sid] = {"pos": [pl[0], pl[1]], "vel": [pl[2], pl[3]]}
                elif ph == "plot":
                    entries[sid] = {
                        "withdraw": pl[0] is None,
                        "vel": list(pl[0]) if pl[0] is not None else None,
                        "shots": [[w, self.ships[ti].id if ti >= 0 else None] for w, ti in pl[1]],
                    }
                elif ph == "destruct":
                    entries[sid] = {"detonate": pl}
            mine["plans"] = entries
        return mine

    # --- JSON --------------------------------------------------------------------------------------
    def to_json(self) -> dict:
        return {
            "game": "deepspace",
            "num_players": self.num_players,
            "rng": self.rng.to_json(),
            "opts": dict(self.opts),
            "names": list(self.names),
            "levels": list(self.levels),
            "zones": [list(z) for z in self.zones],
            "round_limit": self.round_limit,
            "phase": self.phase,
            "sub": self.sub,
            "round": self.round,
            "ships": [s.to_json() for s in self.ships],
            "waiting": list(self.waiting),
            "order": [list(o) for o in self.order],
            "cur": [list(c) if isinstance(c, tuple) else c for c in self.cur],
            "col": list(self.col),
            "plan": [_plan_json(x) for x in self.plan],
            "inflicted": list(self.inflicted),
            "received": list(self.received),
            "report": list(self.report),
            "shots": [list(x) for x in self.shots],
            "result": self._result.to_json() if self._result else None,
            "designs": [[d.to_json() for d in ds] for ds in self.designs],
            "drafts": [[a, b, c, d, [list(w) for w in ws], st, pe] for a, b, c, d, ws, st, pe in self.drafts],
        }

    @classmethod
    def from_json(cls, obj: object) -> DeepSpaceState:
        """A state from its JSON form, validated first (:mod:`state_schema`): StateError(field, reason) for
        anything ``to_json`` of a reachable state could not have produced."""
        from deltav.games.deepspace.design import design_from_obj
        from deltav.games.deepspace.state_schema import check_options, check_state, read_state

        o = read_state(obj)
        scenario = check_options(cls.game, o["opts"])
        s = cls.__new__(cls)
        s.num_players = o["num_players"]
        s.rng = Rng.from_json(o["rng"])
        s.opts = dict(o["opts"])
        s.names = tuple(o["names"])
        s.levels = tuple(o["levels"])
        s.zones = tuple(o["zones"])
        s.round_limit = o["round_limit"]
        s.phase = o["phase"]
        s.sub = o["sub"]
        s.round = o["round"]
        s.ships = [Ship.from_json(x) for x in o["ships"]]
        s.index = {x.id: i for i, x in enumerate(s.ships)}
        if len(s.index) != len(s.ships):
            raise StateError("$.ships", "two ships share an id")
        s.waiting = list(o["waiting"])
        s.order = [tuple(x) for x in o["order"]]
        s.cur = list(o["cur"])
        s.col = list(o["col"])
        s.plan = [_plan_from_json(x) for x in o["plan"]]
        s.inflicted = list(o["inflicted"])
        s.received = list(o["received"])
        s.report = tuple(o["report"])
        s.shots = tuple(o["shots"])
        r = o["result"]
        s._result = Result(tuple(r["winners"]), r["reason"], tuple(r["scores"])) if r is not None else None
        cap = s.opts["stat_cap"]
        designs = []
        for p, ds in enumerate(o["designs"]):
            try:
                designs.append(tuple(design_from_obj(d, f"$.designs[{p}][{k}]", cap) for k, d in enumerate(ds)))
            except ScenarioError as exc:
                raise StateError(exc.field, exc.reason) from None
        s.designs = designs
        s.drafts = [(a, b, c, d, tuple(ws), st, pe) for a, b, c, d, ws, st, pe in o["drafts"]]
        check_state(s, scenario)
        return s


def _alloc_refusal(s: Ship, k: int, a: Allocate, mode: str) -> tuple[str, str]:
    """The rule id and sentence for an allocation step that :func:`damage.is_legal` refused."""
    where = f"{a.stat} of {s.id}" if a.weapon is None else f"{a.stat} of weapon {a.weapon} of {s.id}"
    if a.hp < 1 or a.hp > s.pending:
        return "deepspace.damage.amount", f"allocate between 1 and the {s.pending} pending hit points, not {a.hp}"
    lvl = s.lv[k]
    if lvl <= 0:
        return "deepspace.damage.empty_stat", f"{where} has no level left to lose"
    if k >= dmg.SHIP_SLOTS:
        return (
            "deepspace.damage.weapon_level",
            f"a weapon stat loses one level per hit point: {where} has {lvl} levels, so at most {lvl} hit points",
        )
    if mode == "partial":
        room = lvl * s.size - s.partial[k]
        return "deepspace.damage.stat_level", f"{where} can absorb at most {room} more hit points"
    if a.hp % s.size == 0:
        return (
            "deepspace.damage.stat_level",
            f"{a.hp} hit points would remove {a.hp // s.size} levels; {where} has {lvl}",
        )
    return (
        "deepspace.damage.size_multiple",
        f"a ship stat loses one level per {s.size} hit points (the ship's size): put a multiple of {s.size} on "
        f"{where}, or all {s.pending} remaining hit points (the part below {s.size} is lost)",
    )


def _plan_json(x):
    """Plans: None; a bool (self-destruct); (q, r, dq, dr) in deployment; (vel or None, ((w, target), ...)) in
    plots."""
    if x is None or isinstance(x, bool) or len(x) == 4:
        return x if not isinstance(x, tuple) else list(x)
    a, b = x
    return [list(a) if a is not None else None, [list(y) for y in b]]


def _plan_from_json(x):
    """A plan from its checked form (fixed tuples already read as tuples)."""
    if x is None or isinstance(x, bool) or len(x) == 4:
        return x
    a, b = x
    return (a, tuple(b))
