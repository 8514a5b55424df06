"""The Delta-V tactical state: the record of a position, the table of its phases (``PHASES``, a
``deltav.core.phases.PhaseTable``: whose decision it is, the kinds of action each phase takes, one module per
phase for ``legal`` and ``apply``), who sees which ship (fog of war), cloning and JSON. Views and secret tokens
are built by visibility.py.

Sequence (design/tactical.md 1.4): [fleet building, simultaneous] then alternating player-turns of the active
player: astrogation (one ``order`` per ship, then ``end_astrogation``) -> ordnance (only if a launch or an
emplacement is possible) -> movement (automatic) -> combat (only if an attack, a hazard or planetary defense is
possible) -> logistics (only if a transfer is possible) -> end of the player-turn (repair, switch player, count
turns). Victory is checked after orders, movement, combat and logistics.

The phases live in their own modules: fleet.py, astrogation_phase.py (orders), ordnance.py (launches),
movement_phase.py (the automatic movement, with ordnance_flight.py for the ordnance step), combat_phase.py (gun
combat, hazards, ramming, planetary defense, using combat.py), logistics.py; flow.py moves a player-turn on
between them (victory.py's check, the end of the player-turn). The courses are courses.py's (over movement.py).
This module applies no rule itself; it rolls dice only at set-up (the fugitive, the first player), through
``self.rng``.
"""

from __future__ import annotations

from deltav.core.errors import IllegalAction
from deltav.core.phases import Phase, PhaseTable
from deltav.core.protocol import Result, State
from deltav.core.rng import Rng
from deltav.core.values import Action

from . import astrogation_phase, combat_phase, fleet, logistics, ordnance
from . import visibility as views
from .flow import ASTROGATION, COMBAT, FLEET, LOGISTICS, ORDNANCE
from .mapdata import default_map
from .messages import (
    AddAttacker,
    Buy,
    EmplaceBase,
    EndAstrogation,
    EndCombat,
    EndLogistics,
    EndOrdnance,
    Fire,
    FleetReady,
    Launch,
    Order,
    Surrender,
    Transfer,
)
from .model import Ordnance, Player, Ship, hkey, hparse
from .scenarios import Rules, Scenario
from .shiptypes import ship_types


def _wrong(words: str):
    """The error of an action of a kind the phase does not take (rule ``tactical.phase``)."""
    def error(state, player: int, action: Action) -> IllegalAction:
        return IllegalAction("tactical.phase", f"it is the {words} phase: {action.TYPE} is not allowed now")
    return error


def _active(state) -> tuple[int, ...]:
    return (state.active,)


def _not_ready(state) -> tuple[int, ...]:
    return tuple(p for p in range(2) if not state.players[p].ready)


#: The phases of a player-turn (``deltav.core.phases``): who decides, the phase module, the kinds of action each
#: takes and where one decision may lead (movement is automatic: it runs inside ``end_astrogation`` or
#: ``end_ordnance``); the game is over once a result is recorded.
PHASES = PhaseTable("phase", (
    Phase(FLEET, _not_ready, fleet.legal, fleet.apply, (Buy, FleetReady), _wrong("fleet-building"),
          then=(FLEET, ASTROGATION)),
    Phase(ASTROGATION, _active, astrogation_phase.legal, astrogation_phase.apply,
          (Order, EndAstrogation, Surrender), _wrong("astrogation"),
          then=(ASTROGATION, ORDNANCE, COMBAT, LOGISTICS)),
    Phase(ORDNANCE, _active, ordnance.legal, ordnance.apply, (EndOrdnance, Launch, EmplaceBase),
          _wrong("ordnance"), then=(ORDNANCE, COMBAT, LOGISTICS, ASTROGATION)),
    Phase(COMBAT, _active, combat_phase.legal, combat_phase.apply, (EndCombat, AddAttacker, Fire),
          _wrong("combat"), then=(COMBAT, LOGISTICS, ASTROGATION)),
    Phase(LOGISTICS, _active, logistics.legal, logistics.apply, (EndLogistics, Transfer), _wrong("logistics"),
          then=(LOGISTICS, ASTROGATION)),
), terminal="res")


class TacticalState(State):
    """One position of a Delta-V tactical game (see the module docstring)."""

    num_players = 2
    phases = PHASES

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

    # --- protocol: who acts, legal actions and applying them (the phase table ``PHASES``) ----------------
    current_players = PHASES.current_players
    legal_actions = PHASES.legal_actions
    apply_action = PHASES.apply_action
    check_turn = PHASES.check_turn

    def turn_count(self) -> int:
        """Game turns (both players' turns make one; the turn being played counts)."""
        return self.turn

    def is_terminal(self) -> bool:
        return self.res is not None

    def result(self) -> Result | None:
        return self.res

    def ship(self, sid: str) -> Ship | None:
        return self._index.get(sid)

    # --- fog of war -----------------------------------------------------------------------------------
    def audience(self, sh: Ship) -> tuple[int, ...] | None:
        if not self.options["fog_of_war"] or sh.detected:
            return None
        return (sh.owner,)

    def ordnance_audience(self, o: Ordnance) -> tuple[int, ...] | None:
        """Who sees events about an item (ruling 7): everyone once the enemy detected it, else its owner."""
        if not self.options["fog_of_war"] or o.detected:
            return None
        return (o.owner,)

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

    def full_view(self) -> dict:
        return views.full_view(self)

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

