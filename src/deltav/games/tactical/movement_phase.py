"""The movement phase (design/tactical.md 1.4 step 3, automatic: no decision): the active player's ships follow
their plotted courses (courses.py) in list order, spending fuel and overloads; crashes, landings (maintenance at a
friendly base), the fugitive's escape north (ruling 1), off-map elimination, asteroid hazards queued; then the
Grand Tour checkpoints, the post-movement steps of combat_phase.py, the ordnance step (ordnance_flight.py),
detection, the ships' events (audiences decided after detection), the victory check and the way on to combat,
logistics or the end of the player-turn.

This module reads no action (the orders are ``state.orders``) and rolls no die itself.
"""

from __future__ import annotations

from . import combat_phase, detection, ordnance_flight
from .bases import is_friendly_base
from .courses import course_for, null_order, orderable
from .flow import check_victory, destroy, resupply
from .messages import CheckpointVisited, ShipDestroyed, ShipLanded, ShipMoved, ShipResupplied
from .model import hkey
from .movement import CRASH, LANDING, speed


def run(state) -> list:
    """Move the active player's ships, then ordnance, then the post-movement steps (1.4 step 3)."""
    p = state.active_player
    gmap = state.gmap
    moves = []
    events: list = []
    orders = state.orders
    escape_winnable = state.options["escape_is_winnable"]
    for sh in state.ships:
        if sh.owner != p or not orderable(sh):
            sh.path = ()
            continue
        order = orders.get(sh.id) or null_order(sh.id)
        if sh.disabled > 0 or sh.control == "captured":
            order = null_order(sh.id)
        c = course_for(state, sh, order)
        was_landed = sh.landed
        moves.append((sh, c, was_landed))
        if sh.fuel is not None:
            sh.fuel -= c.fuel_spent
        if c.overloaded:
            sh.overload_used = True
        sh.path = tuple(c.contact)
        if c.outcome == CRASH:
            sh.pos = c.crash_hex
            sh.vel = (0, 0)
            sh.pending = ()
            destroy(sh, "crash")
            continue
        sh.pos = c.destination
        if c.outcome == LANDING:
            sh.vel = (0, 0)
            sh.pending = ()
            sh.landed = True
            if is_friendly_base(state, p, sh.pos):
                resupply(sh, full=True)
            continue
        sh.vel = c.velocity
        sh.pending = c.pending
        sh.landed = False
        if escape_winnable and escape_candidate(state, sh) and sh.pos[1] < gmap.bounds[2]:
            # ruling 1: the fugitive escapes north before any off-map elimination
            state.escaped = (sh.id, sh.fuel is None or speed(sh.vel) + 1 <= sh.fuel)
        elif gmap.off_map(sh.pos):
            destroy(sh, "off_map")
        elif speed(c.velocity) > 1:
            combat_phase.queue_hazards(state, sh, c)
    # b. Grand Tour checkpoints
    cp_events = record_checkpoints(state, p, moves)
    # c-f. orbital-base resupply, inspection, capture, ramming; g. ordnance
    post = combat_phase.post_movement(state, p)
    ord_events = ordnance_flight.movement_step(state, p)
    # h. detection
    det_events = detection.update(state)
    # events, with fog-of-war audiences decided after detection
    for sh, c, was_landed in moves:
        to = state.audience(sh)
        stayed = was_landed and c.burns == 0
        if not stayed:
            events.append(ShipMoved(
                sh.id, hkey(c.start), tuple(hkey(h) for h in c.path), hkey(c.destination),
                (c.velocity[0], c.velocity[1]), c.fuel_spent, sh.fuel,
                tuple((hkey(e[0]), e[1], e[4]) for e in c.entered), to,
            ))
        if c.outcome == CRASH:
            events.append(ShipDestroyed(sh.id, hkey(sh.pos), "crash", c.body, to))
        elif sh.cause == "off_map" and sh.destroyed:
            events.append(ShipDestroyed(sh.id, hkey(sh.pos), "off_map", None, to))
        elif c.outcome == LANDING and not stayed:
            events.append(ShipLanded(sh.id, hkey(sh.pos), c.body, to))
        if sh.resupplied and c.outcome == LANDING and not sh.destroyed:
            events.append(ShipResupplied(sh.id, hkey(sh.pos), to))
    events.extend(cp_events)
    events.extend(post)
    events.extend(ord_events)
    events.extend(det_events)
    # i-j. moral flag and immediate victory
    state.orders = {}
    events.extend(check_victory(state))
    if state.res is None:
        events.extend(combat_phase.enter_after_movement(state))
    return events


def escape_candidate(state, sh) -> bool:
    """May this ship win by leaving the map north (the Escape scenario: the fugitive, or any pilgrim ship when
    identities are not hidden)?"""
    if state.rules.escape_edge != "north" or not state.players[sh.owner].escape_wins or sh.destroyed:
        return False
    if state.rules.hidden_identity:
        return sh.fugitive
    return True


def record_checkpoints(state, p: int, moves) -> list:
    """Grand Tour: the checkpoint bodies player ``p``'s moves touched (gravity or surface hex), in order; the home
    body is never the first checkpoint."""
    cps = state.rules.checkpoints
    if not cps:
        return []
    pl = state.players[p]
    visited = list(pl.visited)
    events: list = []
    gmap = state.gmap
    for sh, c, _ in moves:
        for h in sh.path if sh.path else (c.start,):
            bodies = []
            g = gmap.gravity.get(h)
            if g is not None:
                bodies.append(g[1])
            s = gmap.surface.get(h)
            if s is not None:
                bodies.append(s)
            for b in bodies:
                if b in cps and b not in visited:
                    if b == pl.home and not visited:
                        continue
                    visited.append(b)
                    events.append(CheckpointVisited(p, b, None))
    if len(visited) != len(pl.visited):
        pl.visited = tuple(visited)
    return events
