"""How a tactical player-turn moves on between decisions: the phase names, the victory check (recording the
result), the end of the player-turn (repair, switch player, count turns, the turn limit), and the two changes of a
ship that several phases share: its destruction and its maintenance at a base (1.7).

The phase modules (astrogation_phase, ordnance, movement_phase, combat_phase, logistics, fleet) call these
continuations; this module imports none of them, never reads an action and rolls no die.
"""

from __future__ import annotations

from . import victory
from .messages import GameOver, TurnStarted
from .shiptypes import ship_data

FLEET, ASTROGATION, ORDNANCE, COMBAT, LOGISTICS, OVER = (
    "fleet_building", "astrogation", "ordnance", "combat", "logistics", "game_over")


def destroy(sh, cause: str) -> None:
    sh.destroyed = True
    sh.cause = cause
    sh.landed = False


def resupply(sh, full: bool) -> None:
    """Maintenance at a friendly base (``full``: overload reset too) or an own orbital base (1.7)."""
    sh.fuel = sh.type.fuel
    sh.cargo_used = ship_data().orbital_base_cargo if sh.carrying_base else 0
    sh.nukes = 0
    if full:
        sh.overload_used = False
    sh.disabled = 0
    sh.control = "own"
    sh.resupplied = True


def check_victory(state) -> list:
    """Record the result if a victory condition holds (victory.py): the game is then over."""
    res = victory.check(state)
    if res is None:
        return []
    state.res = res
    state.phase = OVER
    return [GameOver(res.winners, res.reason)]


def end_player_turn(state) -> list:
    """Repair one disabled turn of the active player's ships, drop his hazards, hand over to the other player
    (a new game turn when player 0 is next), or end the game at the turn limit."""
    p = state.active_player
    for sh in state.ships:
        if sh.owner == p:
            sh.resupplied = False
            if sh.disabled > 0 and not sh.destroyed:
                sh.disabled -= 1
    index = state._index
    state.hazards = [h for h in state.hazards if index[h[0]].owner != p]
    state.active_player = 1 - p
    if state.active_player == 0:
        state.turn += 1
    state.orders = {}
    state.launched = ()
    state.combat = None
    state.transfers = 0
    state._opts = {}
    events: list = []
    if state.turn > state.options["turn_limit"]:
        state.res = victory.turn_limit_result(state)
        state.phase = OVER
        events.append(GameOver(state.res.winners, state.res.reason))
        return events
    state.phase = ASTROGATION
    events.append(TurnStarted(state.active_player, state.turn))
    return events
