"""The turn sequence of Knight Hawks (Advanced Game, rules 4.1): after each decision the game runs on through
the steps nobody has to decide (attacks without an ICM or evasion choice, empty declarations, a movement or
repair turn with no choice), from one side turn to the next, with a repair turn after every 3 game turns.

Owns: :func:`advance` and :func:`end_side_turn` on a ``KHState`` record. Must not hold the rules of a phase (the
phase modules do).
"""

from __future__ import annotations

from deltav.games.knighthawks import fire_phase, movement_phase, repair_phase, victory
from deltav.games.knighthawks import messages as m
from deltav.games.knighthawks.ships import ACTIVE


def advance(state, ev: list) -> None:
    while state.stage != "over":
        st = state.stage
        if st == "intercept":
            k = fire_phase.pending_attack(state)
            if k >= 0:
                a = state.attacks[k]
                if fire_phase.needs_decision(state, a):
                    return
                state.attacks[k] = a[:7] + [0, False] + a[9:]
                continue
            for a in state.attacks:
                fire_phase.resolve(state, a, ev)
            state.attacks = []
            victory.check_end(state, ev)
            if state.stage == "over":
                return
            after = state.after
            state.after = ""
            if after == "combat":
                fire_phase.combat_start(state, ev)
            elif after == "offense":
                state.stage = "declare"
                state.fire_mode = "off"
                state.declared = []
                state._cache = {}
            else:
                end_side_turn(state, ev)
        elif st == "declare":
            if fire_phase.any_assign(state, state.current_players()[0]):
                return
            fire_phase.fire_declared(state, ev)
        elif st == "move":
            mv = state.mover
            if not movement_phase.has_choice(state, mv) and movement_phase.move_ok(state, mv, m.EndMovement()):
                movement_phase.end_movement(state, ev)
                continue
            return
        elif st == "repair":
            if not repair_phase.repair_options(state, state.repair_player):
                repair_phase.end_repair(state, ev)
                continue
            return
        else:
            return


def end_side_turn(state, ev: list) -> None:
    state.fire_mode = ""
    for sh in state.ships:
        if sh.status == ACTIVE and sh.docked is not None and sh.owner == state.mover:
            sh.dock_turns += 1
    if state.half == 0:
        state.half = 1
        movement_phase.begin_side_turn(state, ev)
        return
    state.half = 0
    done = state.turn
    state.turn += 1
    if done >= state.turn_limit:
        victory.finish_by_limit(state, ev)
        return
    if done % 3 == 0:
        state.stage = "repair"
        state.repair_player = 0
        state.allocations = []
        state._cache = {}  # a new dict for the repair turn's lookups (clones may share the old one)
        ev.append(m.RepairTurn(done))
        return
    movement_phase.begin_side_turn(state, ev)
