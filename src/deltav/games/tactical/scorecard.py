"""The scorecard of a finished Delta-V tactical match (``TacticalGame.scorecard``, issue 30): what a bot
measurement counts per game, on the reference Delta-V's own scorecard (its ``simulate-ai.ts``: objective share,
passenger deliveries, Grand Tour completions, timeouts, fuel stalls) plus what decided the game (ships lost by
cause, crashes of disabled ships).

``match_scorecard(record)`` replays the record's actions from its start (every action is checked by the engine
again) and reads each astrogation phase's state just before the orders are executed:

- a **fuel stall** (the reference's ``findFuelStallShipIds``): an operational ship (not destroyed, not disabled,
  able to take orders) with fuel, at rest (velocity zero, landed ships included), left coasting (no burn, no
  overload, no landing), unless it has nothing to move for: a side without a movement objective (no target body,
  no escape, no checkpoints; with colonists to land only while a carrier lives) whose ship is unarmed, or armed
  within 2 hexes of an enemy ship (close combat); an armed ship with a live carrier beside armed enemies (within 2:
  screening); a ship of a side with colonists within 3 hexes of its carrier landing this turn;
- a **crash while disabled**: a ship destroyed by a crash (a body) while it had disabled turns before the move
  (item 2 of issue 30: a disabled ship drifts where its velocity takes it).

Per game (``game``): ``objective`` (the kind of ending: ``landing``, ``passengers``, ``passengers_failed``,
``grand_tour``, ``checkpoints_timeout``, ``escape``, ``fugitive``, ``moral_victory``, ``fleet_eliminated``,
``mutual_destruction``, ``surrender``, ``timeout``, or ``unfinished``), ``objective_resolution`` (1 when the
game ended by the scenario's own objective as the reference counts it: a landing in Bi-Planetary and Blockade,
colonists landed or lost in Convoy and Evacuation, the tour or its timeout tiebreak in Grand Tour; None in
scenarios without one), ``timeout``, ``passenger_delivery``, ``grand_tour_complete``. Per seat (``seats``, one
value per seat): ``player_turns``, ``fuel_stalls``, ``ships_lost``, ``lost_to_crash``, ``crashes_disabled``,
``lost_to_guns`` (guns, counterattacks, rams, planetary defense), ``lost_to_ordnance`` (mines, torpedoes,
nukes), ``lost_other`` (off the map, asteroids).

This module reads a record and replays it on a fresh state; it changes nothing else.
"""

from __future__ import annotations

from deltav.core.hexgrid import distance
from deltav.core.records import MatchRecord, start_state

from .courses import orderable
from .messages import EndAstrogation, Order

#: the ending's kind from the result's reason (victory.py's texts)
_KINDS = (
    ("Grand Tour complete", "grand_tour"),
    ("Turn limit: more checkpoints", "checkpoints_timeout"),
    ("with colonists!", "passengers"),
    ("Passenger objective failed", "passengers_failed"),
    ("Landed on", "landing"),
    ("Escaped!", "escape"),
    ("moral victory", "moral_victory"),
    ("Fugitives", "fugitive"),
    ("Mutual destruction", "mutual_destruction"),
    ("Fleet eliminated", "fleet_eliminated"),
    ("Fleet surrendered", "surrender"),
    ("Turn limit reached", "timeout"),
)

#: causes of destruction (``ShipDestroyed.cause``: the damage roll's source) by kind
_GUNS = {"gun", "counter", "ram", "planetary_defense"}
_ORDNANCE = {"mine", "torpedo", "nuke"}
_OTHER = {"off_map", "asteroid"}


def ending_kind(reason: str | None) -> str:
    """The kind of ending of a result's reason (``unfinished`` without one)."""
    if not reason:
        return "unfinished"
    for text, kind in _KINDS:
        if text in reason:
            return kind
    return "other"


def _objective_kinds(state) -> tuple[str, ...] | None:
    """The endings the reference counts as its objective resolutions in this scenario (None: no objective)."""
    rules = state.rules
    if rules.checkpoints:
        return ("grand_tour", "checkpoints_timeout")
    if rules.target_requires_passengers:
        return ("passengers", "passengers_failed")
    if rules.hidden_identity or any(p.escape_wins for p in state.players):
        return None  # the reference gates no objective in Escape
    if any(p.target for p in state.players):
        return ("landing",)
    return None


def _armed(sh) -> bool:
    return not sh.destroyed and not sh.disabled and sh.type.combat > 0 and not sh.type.defensive


def _has_fuel(sh) -> bool:
    return sh.fuel is None or sh.fuel > 0


def _moving_objective(state, p: int) -> bool:
    pl = state.players[p]
    if pl.escape_wins or state.rules.checkpoints:
        return True
    if not pl.target:
        return False
    if state.rules.target_requires_passengers:
        return any(s.owner == p and not s.destroyed and s.passengers > 0 for s in state.ships)
    return True


def fuel_stalls(state, player: int) -> list[str]:
    """The ships of ``player`` that stall in this astrogation phase's orders (see the module docstring)."""
    ships = state.ships
    orders = state.orders
    objective = _moving_objective(state, player)
    enemies = [e for e in ships if e.owner != player and not e.destroyed]
    carriers = [c for c in ships if c.owner == player and not c.destroyed and c.passengers > 0]
    out = []
    for sh in ships:
        if sh.owner != player or not orderable(sh) or sh.disabled or not _has_fuel(sh) or sh.vel != (0, 0):
            continue
        o = orders.get(sh.id) or Order(sh.id)
        if o.burn is not None or o.overload is not None or o.land:
            continue
        armed = _armed(sh)
        if not objective and (not armed or any(distance(sh.pos, e.pos) <= 2 for e in enemies)):
            continue
        others = [c for c in carriers if c.id != sh.id]
        if state.rules.target_requires_passengers and others:
            if armed and any(_armed(e) and distance(sh.pos, e.pos) <= 2 for e in enemies):
                continue  # screening the carrier
            if sh.passengers == 0 and any(
                    distance(sh.pos, c.pos) <= 3 and (orders.get(c.id) or Order(c.id)).land for c in others):
                continue  # holding while the carrier lands
            if not armed and any(c.pos == sh.pos and c.vel == sh.vel for c in others):
                c_order = next(orders.get(c.id) or Order(c.id) for c in others if c.pos == sh.pos)
                if c_order.burn is None and c_order.overload is None and not c_order.land:
                    continue  # keeping station with a coasting carrier
        out.append(sh.id)
    return out


def match_scorecard(record: MatchRecord) -> dict:
    """The scorecard of a finished (or cut short) match record (see the module docstring)."""
    from deltav.core.protocol import get_game

    game = get_game(record.game)
    state = start_state(record)
    n = state.num_players
    turns = [0] * n
    stalls = [0] * n
    lost = [0] * n
    crash = [0] * n
    crash_disabled = [0] * n
    guns = [0] * n
    ordnance = [0] * n
    other = [0] * n
    for step in record.steps:
        action = game.action_from_json(step.action)
        if isinstance(action, EndAstrogation):
            stalls[step.player] += len(fuel_stalls(state, step.player))
        before = None
        if any(e.get("type") == "ship_destroyed" for e in step.events):
            before = {sh.id: (sh.owner, sh.disabled) for sh in state.ships}
        state.apply_action(step.player, action)
        for e in step.events:
            t = e.get("type")
            if t == "turn_started" and e.get("player") in range(n):
                turns[e["player"]] += 1
            elif t == "ship_destroyed" and before is not None:
                side, was_disabled = before.get(e.get("ship"), (None, 0))
                if side is None:
                    continue
                lost[side] += 1
                cause = e.get("cause")
                if cause == "crash":
                    crash[side] += 1
                    crash_disabled[side] += bool(was_disabled)
                elif cause in _GUNS:
                    guns[side] += 1
                elif cause in _ORDNANCE:
                    ordnance[side] += 1
                elif cause in _OTHER:
                    other[side] += 1
                else:
                    raise ValueError(f"a ship destroyed by an unknown cause {cause!r}")
    res = record.result or {}
    kind = ending_kind(res.get("reason"))
    kinds = _objective_kinds(state)
    return {
        "game": {
            "objective": kind,
            "objective_resolution": None if kinds is None else int(kind in kinds),
            "timeout": int(kind in ("timeout", "checkpoints_timeout")),
            "passenger_delivery": int(kind == "passengers"),
            "grand_tour_complete": int(kind == "grand_tour"),
        },
        "seats": {
            "player_turns": turns,
            "fuel_stalls": stalls,
            "ships_lost": lost,
            "lost_to_crash": crash,
            "crashes_disabled": crash_disabled,
            "lost_to_guns": guns,
            "lost_to_ordnance": ordnance,
            "lost_other": other,
        },
    }
