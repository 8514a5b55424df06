"""The Knight Hawks game state and its turn sequence (Advanced Game, rules 4.1): per side turn a movement
phase (screens, seekers, orbits, plotted moves executed together, then mines and seekers detonate) and a
combat phase (fire damage, defensive fire by the non-moving side, offensive fire by the moving side), a
repair turn after every 3 game turns, victory checks after every resolution.

Owns: the state record, the table of its stages (``PHASES``, a ``deltav.core.phases.PhaseTable``: who decides,
the phase modules movement_phase.py, fire_phase.py for the declare and intercept stages, repair_phase.py, and
turns.advance after every action), and the building of a state from a scenario or a record (its fields, clone
and to_json: ``state_schema.FIELDS``).
Must not hold rules bodies: the sequencing of phases and turns is turns.py's, victory victory.py's, views and
secret tokens visibility.py's; rules arithmetic lives in damage.py, combat.py, movement.py and repair.py; data in
tables.py.
"""

from __future__ import annotations

from typing import Any, ClassVar

from deltav.core.errors import IllegalAction
from deltav.core.fields import declare
from deltav.core.phases import Phase, PhaseTable
from deltav.core.protocol import Game, Result, State
from deltav.core.rng import Rng
from deltav.games.knighthawks import fire_phase, movement_phase, repair_phase, turns
from deltav.games.knighthawks import messages as m
from deltav.games.knighthawks import visibility as kh_view
from deltav.games.knighthawks.movement import MapInfo
from deltav.games.knighthawks.rulings import Rulings
from deltav.games.knighthawks.ships import ACTIVE, Ship, new_ship
from deltav.games.knighthawks.state_schema import FIELDS
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


class KHState(State):
    game: ClassVar[type[Game]]
    num_players = 2
    phases = PHASES

    __slots__ = FIELDS.slots  # clone and to_json: derived from the declaration (declare(), below the class)

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
        s.plotting = None
        s.screened = []
        s.laid = []
        s.dropped = {}
        s.activated = []
        s.orbit_new = {}
        s.declared = []
        s.attacks = []
        s.repair_player = 0
        s.allocations = []
        s._result = None
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
        return self._result

    def same_choice(self, player: int, action) -> bool:
        """State.same_choice: a listed seeker activation that leaves out the seeker's ship or turn (records from
        before they were listed)."""
        return movement_phase.same_activation(self, player, action)

    # --- JSON (``clone`` and ``to_json`` are derived from the declaration, ``state_schema.FIELDS``) -------------
    @classmethod
    def from_json(cls, o: dict, *, ships: list | None = None, rules: Rulings | None = None,
                  mapinfo: MapInfo | None = None) -> KHState:
        """The state of a record. A caller that has already read parts of it may pass them (worlds.py): ``ships``
        (the ``Ship`` of each record, taken as they are), ``rules`` (``Rulings.from_options`` of its options),
        ``mapinfo`` (its ``MapInfo``)."""
        given: dict[str, Any] = {}
        if ships is not None:
            given["ships"] = ships
        if mapinfo is not None:
            given["map"] = mapinfo
        s = FIELDS.build(cls, o, **given)
        s.rules = Rulings.from_options(s.options) if rules is None else rules
        s.index = {sh.id: i for i, sh in enumerate(s.ships)}
        s._cache = {}
        return s

    # --- views ---------------------------------------------------------------------------------------------
    def view(self, player: int | None) -> dict:
        return kh_view.view(self, player)

    def secret_tokens(self, player: int | None) -> set[str]:
        return kh_view.secret_tokens(self, player)

    def full_view(self) -> dict:
        return kh_view.full_view(self)


declare(KHState, FIELDS)
