"""The Knight Hawks game state and its turn sequence (Advanced Game, rules 4.1): per side turn a movement
phase (screens, seekers, orbits, plotted moves executed together, then mines and seekers detonate) and a
combat phase (fire damage, defensive fire by the non-moving side, offensive fire by the moving side), a
repair turn after every 3 game turns, victory checks after every resolution.

Owns: the state record, the table of its stages (``PHASES``, a ``deltav.core.phases.PhaseTable``: who decides,
the phase modules movement_phase.py, fire_phase.py for the declare and intercept stages, repair_phase.py, and
turns.advance after every action), copies and JSON.
Must not hold rules bodies: the sequencing of phases and turns is turns.py's, victory victory.py's, views and
secret tokens view.py's; rules arithmetic lives in damage.py, combat.py, movement.py and repair.py; data in
tables.py.
"""

from __future__ import annotations

from typing import Any, ClassVar

from deltav.core.errors import IllegalAction
from deltav.core.phases import Phase, PhaseTable
from deltav.core.protocol import Game, Result, State
from deltav.core.rng import Rng
from deltav.games.knighthawks import fire_phase, movement_phase, repair_phase, turns
from deltav.games.knighthawks import messages as m
from deltav.games.knighthawks import view as kh_view
from deltav.games.knighthawks.movement import MapInfo
from deltav.games.knighthawks.rulings import Rulings
from deltav.games.knighthawks.ships import ACTIVE, Ship, new_ship
from deltav.games.knighthawks.tables import tables


def _mover(state) -> list[int]:
    return [state.mover]


def _firer(state) -> list[int]:
    return [1 - state.mover if state.fire_mode == "def" else state.mover]


def _defender(state) -> list[int]:
    a = state.attacks[fire_phase.pending_attack(state)]
    return [state.ship(a[3]).owner]


def _repairer(state) -> list[int]:
    return [state.repair_player]


def _wrong(rule: str, sentence: str):
    """The error of an action of a kind the stage does not take (``sentence`` with ``{type}``)."""
    def error(state, player: int, a) -> IllegalAction:
        return IllegalAction(rule, sentence.format(type=a.TYPE))
    return error


_ALL = ("move", "declare", "intercept", "repair")

#: The stages of a side turn and of the repair turn (``deltav.core.phases``): who decides, the phase module's
#: rules, the kinds of action each stage takes; after every action ``turns.advance`` runs the steps nobody decides,
#: so one decision may lead to any stage.
PHASES = PhaseTable("stage", (
    Phase("move", _mover, movement_phase.legal, movement_phase.apply,
          (m.Step, m.Screen, m.Lay, m.Activate, m.Orbit, m.Course, m.EndMovement),
          _wrong("knighthawks.phase.move", "{type} is not a movement-phase action"), then=_ALL),
    Phase("declare", _firer, fire_phase.legal_declare, fire_phase.apply_declare, (m.Assign, m.Fire),
          _wrong("knighthawks.phase.fire", "{type} is not a fire-phase action"), then=_ALL),
    Phase("intercept", _defender, fire_phase.legal_intercept, fire_phase.apply_intercept, (m.Intercept,),
          _wrong("knighthawks.phase.intercept", "the defender must decide ICMs/evasion (intercept)"), then=_ALL),
    Phase("repair", _repairer, repair_phase.legal, repair_phase.apply, (m.Repair, m.EndRepair),
          _wrong("knighthawks.phase.repair", "{type} is not a repair-turn action"), then=("repair", "move")),
), over="over", after=turns.advance, nobody=[])


def _hex(h) -> tuple[int, int]:
    return (h[0], h[1])


def _attack_json(a: list) -> list:
    """A declared or pending attack as JSON: a new list, with a new list for its hex (index 4)."""
    out = a[:]
    out[4] = list(a[4])
    return out


class KHState(State):
    game: ClassVar[type[Game]]
    num_players = 2
    phases = PHASES

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
        s.dropped = {}
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
        movement_phase.begin_side_turn(s, ev)
        turns.advance(s, ev)
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
    current_players = PHASES.current_players
    legal_actions = PHASES.legal_actions
    apply_action = PHASES.apply_action
    check_turn = PHASES.check_turn

    def turn_count(self) -> int:
        """Game turns (both sides' halves make one; the turn being played counts)."""
        return self.turn

    def is_terminal(self) -> bool:
        return self.stage == "over"

    def result(self) -> Result | None:
        return self.res

    def same_choice(self, player: int, action) -> bool:
        """State.same_choice: a listed seeker activation that leaves out the seeker's ship or turn (records from
        before they were listed)."""
        return movement_phase.same_activation(self, player, action)

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
        s.dropped = self.dropped.copy()
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

    def to_json(self) -> dict:
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
            "dropped": dict(self.dropped),
            "activated": list(self.activated),
            "orbit_new": dict(sorted(self.orbit_new.items())),
            "declared": [_attack_json(a) for a in self.declared],
            "attacks": [_attack_json(a) for a in self.attacks],
            "repair_player": self.repair_player,
            "allocations": [list(a) for a in self.allocs],
            "result": self.res.to_json() if self.res else None,
            "scores": list(self.scores),
            "rng": self.rng.to_json(),
        }

    @classmethod
    def from_json(cls, o: dict, *, ships: list | None = None, rules: Rulings | None = None,
                  mapinfo: MapInfo | None = None) -> KHState:
        """The state of a record. A caller that has already read parts of it may pass them (worlds.py): ``ships``
        (the ``Ship`` of each record, taken as they are), ``rules`` (``Rulings.from_options`` of its options),
        ``mapinfo`` (its ``MapInfo``)."""
        s = cls.__new__(cls)
        s.options = dict(o["options"])
        s.rules = Rulings.from_options(s.options) if rules is None else rules
        s.rng = Rng.from_json(o["rng"])
        s.map = (MapInfo.build(o["map"]["radius"], [(n, _hex(h)) for n, h in o["map"]["planets"]])
                 if mapinfo is None else mapinfo)
        s.sides = tuple(o["sides"])
        s.victory = dict(o["victory"])
        s.turn_limit = o["turn_limit"]
        s.first = o["first"]
        s.ships = [Ship.from_json(x) for x in o["ships"]] if ships is None else ships
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
        s.dropped = dict(o.get("dropped", {}))  # a record from before it was kept: no turns known
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
        return kh_view.view(self, player)

    def secret_tokens(self, player: int | None) -> set[str]:
        return kh_view.secret_tokens(self, player)

    def full_view(self) -> dict:
        return kh_view.full_view(self)
