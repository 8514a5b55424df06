"""Fleet building (design/tactical.md 1.12): a simultaneous, secret node. Each player buys ships (and orbital-base
cargo for a transport or packet bought in this phase) within the scenario's credits, then declares
``fleet_ready``. Purchases are private events and hidden from the opponent's view until both are ready; then
the fleets spawn landed at their owners' bases (round-robin in base order), velocity 0, full fuel, detected,
and the first player-turn begins with the scenario's starting player.

This module reads and writes the fleet-building part of the state only.
"""

from __future__ import annotations

from deltav.core.errors import IllegalAction

from .messages import Buy, FleetReady, FleetReadyDeclared, FleetSpawned, PhaseChanged, Purchased, TurnStarted
from .model import Ship, hkey
from .shiptypes import ship_data, ship_types

BASE_CARGO = "orbitalBaseCargo"
BASE_COST = 1000


def _cost(item: str) -> int:
    if item == BASE_CARGO:
        return ship_types()["orbitalBase"].cost
    return ship_types()[item].cost


def _left(state, p: int) -> int:
    return state.players[p].credits - state.players[p].spent


def _carriers(state, p: int) -> list[str]:
    """Purchased transports/packets of player p that can still take an orbital base."""
    loaded = {e[2] for e in state.purchases[p] if e[1] == BASE_CARGO}
    need = ship_data().orbital_base_cargo
    out = []
    for sid, item, _ in state.purchases[p]:
        if item == BASE_CARGO or sid in loaded:
            continue
        t = ship_types()[item]
        if t.carries_base and (t.cargo is None or t.cargo >= need):
            out.append(sid)
    return out


_BUYS: dict = {}  # (item, carrier) -> Buy (actions are immutable values, shared between states)


def _buy(item: str, carrier) -> Buy:
    b = _BUYS.get((item, carrier))
    if b is None:
        if len(_BUYS) > 10_000:
            _BUYS.clear()
        b = _BUYS[(item, carrier)] = Buy(item) if carrier is None else Buy(item, carrier)
    return b


def legal(state, player: int) -> list:
    out = []
    left = _left(state, player)
    for item in state.rules.fleet_purchases:
        if _cost(item) > left:
            continue
        if item == BASE_CARGO:
            out.extend(_buy(item, c) for c in _carriers(state, player))
        else:
            out.append(_buy(item, None))
    if any(e[1] != BASE_CARGO for e in state.purchases[player]):
        out.append(FleetReady())
    return out


def apply(state, player: int, action) -> list:
    if state.players[player].ready:
        raise IllegalAction("tactical.fleet.ready", "your fleet is already final")
    if isinstance(action, Buy):
        item = action.item
        if item not in state.rules.fleet_purchases:
            raise IllegalAction("tactical.fleet.item", f"{item!r} may not be bought in this scenario "
                                                      f"(allowed: {list(state.rules.fleet_purchases)})")
        cost = _cost(item)
        if cost > _left(state, player):
            raise IllegalAction("tactical.fleet.credits", f"{item} costs {cost} MC, you have {_left(state, player)}")
        if item == BASE_CARGO:
            if action.carrier not in _carriers(state, player):
                raise IllegalAction("tactical.fleet.carrier",
                                    "orbital-base cargo needs a transport or packet bought in this phase that "
                                    "carries no base yet")
            eid = f"p{player}b{sum(1 for e in state.purchases[player] if e[1] == BASE_CARGO)}"
        else:
            if action.carrier is not None:
                raise IllegalAction("tactical.fleet.carrier", "only orbital-base cargo names a carrier")
            existing = sum(1 for s in state.ships if s.owner == player)
            eid = f"p{player}s{existing + sum(1 for e in state.purchases[player] if e[1] != BASE_CARGO)}"
        state.purchases[player] = state.purchases[player] + [(eid, item, action.carrier)]
        state.players[player].spent += cost
        return [Purchased(player, item, action.carrier, _left(state, player), (player,))]
    if isinstance(action, FleetReady):
        if not any(e[1] != BASE_CARGO for e in state.purchases[player]):
            raise IllegalAction("tactical.fleet.empty", "a fleet needs at least one ship")
        if not any(b not in state.destroyed_bases for b in state.players[player].bases):
            raise IllegalAction("tactical.fleet.no_base", "you own no base to launch a fleet from")
        state.players[player].ready = True
        events: list = [FleetReadyDeclared(player)]
        if all(p.ready for p in state.players):
            events.extend(_spawn(state))
        return events
    raise AssertionError(action)  # the phase table lets only this phase's kinds in (state.PHASES)


def _spawn(state) -> list:
    events: list = []
    types = ship_types()
    need = ship_data().orbital_base_cargo
    for p in (0, 1):
        bases = [b for b in state.players[p].bases if b not in state.destroyed_bases]
        loaded = {e[2] for e in state.purchases[p] if e[1] == BASE_CARGO}
        spawned = []
        k = 0
        for sid, item, _ in state.purchases[p]:
            if item == BASE_CARGO:
                continue
            h = bases[k % len(bases)]
            k += 1
            sh = Ship(sid, p, types[item], h, (0, 0))
            sh.landed = True
            sh.detected = True
            if sid in loaded:
                sh.carrying_base = True
                sh.cargo_used = need
            state.ships.append(sh)
            state._index[sid] = sh
            spawned.append((sid, item, hkey(h)))
        events.append(FleetSpawned(p, tuple(spawned)))
        state.purchases[p] = []
    state.phase = "astrogation"
    state.active_player = state.first_player
    state._opts = {}
    events.append(PhaseChanged(state.active_player, "astrogation"))
    events.append(TurnStarted(state.active_player, state.turn))
    return events
