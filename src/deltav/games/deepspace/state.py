"""The record of a Deep Space Combat position: its fields, the table of its phases (``PHASES``, a
``deltav.core.phases.PhaseTable``: whose decision it is, one module per phase for legal actions and actions),
clone and JSON. No rules bodies live here.

Phases and who decides (``current_players()``), each in its module:

- ``design`` (``design_phase``; only if a side designs during play): every designing side at once, secretly,
  step by step.
- ``deploy`` (``deploy_phase``): every side at once, secretly: per ship a hex of its zone, then an initial
  velocity; then ``done``.
- ``plot`` (``plot_phase``): every side with ships at once, secretly: per ship a new velocity (or withdraw),
  then each weapon's target or hold; then ``done``. The last ``done`` resolves the round: reveal, movement,
  weapons.
- ``allocate`` (``allocate_phase``): every side whose ships took hit points, at once: per damaged ship,
  allocation steps (or ``auto_allocate``). Then ships at zero are destroyed.
- ``destruct`` (``destruct_phase``): every side with a ship sharing a hex with an enemy, at once, secretly: per
  such ship, detonate or not. Explosions are followed by a second ``allocate`` node for their victims, then
  destruction again.
- ``over``. Transitions between phases (and the end of rounds and of the battle): ``flow``.

Every simultaneous node stores each side's steps privately; a side's steps never depend on another side's, so
the order of submission changes nothing. Views and secret tokens: ``visibility``.
"""

from __future__ import annotations

from deltav.core.fields import declare
from deltav.core.phases import Phase, PhaseTable
from deltav.core.protocol import Result, State
from deltav.games.deepspace import (
    allocate_phase,
    deploy_phase,
    design_phase,
    destruct_phase,
    plot_phase,
)
from deltav.games.deepspace import visibility as _view
from deltav.games.deepspace.design import Fleet
from deltav.games.deepspace.limits import ALIVE, DESIGN_STAGES, SPLIT_THRUST, STATUS_NAMES  # noqa: F401 (re-exported)
from deltav.games.deepspace.ship import Ship
from deltav.games.deepspace.state_schema import FIELDS, check_options, check_state, read_state

__all__ = ["ALIVE", "DESIGN_STAGES", "SPLIT_THRUST", "STATUS_NAMES", "DeepSpaceState", "Ship"]


def _phase(key: str, module, then: tuple[str, ...]) -> Phase:
    return Phase(key, None, module.legal, module.apply, module.KINDS, module.order_error, then)


#: The phases (``deltav.core.phases``): every one a simultaneous node of the sides still ``waiting`` (the table's
#: ``waiting``); each phase
#: module names the kinds of action it takes (``KINDS``) and the refusal of another kind (``order_error``: the
#: side's next step, rule ``deepspace.<phase>.order``); ``flow`` moves from one phase to the next.
PHASES = PhaseTable("phase", (
    _phase("design", design_phase, then=("design", "deploy")),
    _phase("deploy", deploy_phase, then=("deploy", "plot")),
    _phase("plot", plot_phase, then=("plot", "allocate", "destruct")),
    _phase("allocate", allocate_phase, then=("allocate", "destruct", "plot")),
    _phase("destruct", destruct_phase, then=("destruct", "allocate", "plot")),
), over="over", nobody=[], waiting="waiting")


class DeepSpaceState(State):
    """A position of Deep Space Combat. See the module docstring for the phases."""

    phases = PHASES

    __slots__ = FIELDS.slots  # clone and to_json: derived from the declaration (declare(), below the class)

    # --- protocol basics ---------------------------------------------------------------------------
    current_players = PHASES.current_players
    legal_actions = PHASES.legal_actions
    apply_action = PHASES.apply_action
    check_turn = PHASES.check_turn

    def turn_count(self) -> int:
        """Rounds (one plot, movement and fire for every fleet; the round being played counts)."""
        return self.round

    def is_terminal(self) -> bool:
        return self.phase == "over"

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

    def scores(self) -> list[int]:
        return [self.inflicted[p] - self.received[p] for p in range(self.num_players)]

    # --- views (``visibility``) -------------------------------------------------------------------------
    def view(self, player: int | None) -> dict:
        return _view.view(self, player)

    def secret_tokens(self, player: int | None) -> set[str]:
        return _view.secret_tokens(self, player)

    def full_view(self) -> dict:
        return _view.full_view(self)

    # --- JSON (``to_json`` is derived from the declaration) --------------------------------------------
    @classmethod
    def from_json(cls, obj: object) -> DeepSpaceState:
        """A state from its JSON form, validated first (:mod:`state_schema`): StateError(field, reason) for
        anything ``to_json`` of a reachable state could not have produced."""
        o = read_state(obj)
        scenario = check_options(cls.game, o["opts"])
        s = FIELDS.build(cls, o)
        s.index = {x.id: i for i, x in enumerate(s.ships)}
        check_state(s, scenario)
        return s


declare(DeepSpaceState, FIELDS)
