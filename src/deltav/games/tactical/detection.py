"""Detection (design/tactical.md 1.11): which ships the enemy has detected, updated after every movement phase.

A ship landed on an intact base its owner controls becomes undetected; a detected ship stays detected; any other
ship becomes detected within 3 hexes of a non-destroyed enemy ship (landed ones count) or within 5 of an intact
base hex the enemy controls. With fog of war (ruling 4, option ``fog_of_war``) an undetected enemy ship is absent
from a player's view; detection also gates gun targeting.

Ordnance (ruling 7, option ``ordnance_detection``; the help text and the design note are silent): an item is
detected like a ship. It starts detected if the ship that launched it was, else undetected; after every movement
phase an undetected item becomes detected within 3 hexes of a non-destroyed enemy ship or 5 of an intact enemy
base, and stays detected. With fog of war an undetected item is absent from the enemy's view; only a detected
nuke can be shot at.

This module reads and writes only the ``detected`` flag of ships and ordnance.
"""

from __future__ import annotations

from .bases import is_friendly_base
from .messages import DetectionChanged, OrdnanceDetected
from .model import hkey
from .shiptypes import ship_data


def _dist(a, b) -> int:
    q = a[0] - b[0]
    r = a[1] - b[1]
    return max(abs(q), abs(r), abs(q + r))


def update(state) -> list:
    sd = ship_data()
    rs, rb = sd.detection_ship, sd.detection_base
    ships = state.ships
    alive = [s for s in ships if not s.destroyed]
    events = []
    enemy_pos: dict = {}
    enemy_bases: dict = {}
    for sh in alive:
        before = sh.detected
        if sh.landed and is_friendly_base(state, sh.owner, sh.pos):
            now = False
        elif before:
            now = True
        else:
            now = False
            pos = sh.pos
            o = sh.owner
            ep = enemy_pos.get(o)
            if ep is None:  # positions do not change here: the enemies' hexes once per side
                ep = enemy_pos[o] = [e.pos for e in alive if e.owner != o]
            q, r = pos
            for eq, er in ep:
                dq = eq - q
                dr = er - r
                if max(abs(dq), abs(dr), abs(dq + dr)) <= rs:
                    now = True
                    break
            if not now:
                eb = enemy_bases.get(o)
                if eb is None:
                    eb = enemy_bases[o] = [b for b in state.players[1 - o].bases if b not in state.destroyed_bases]
                for bq, br in eb:
                    dq = bq - q
                    dr = br - r
                    if max(abs(dq), abs(dr), abs(dq + dr)) <= rb:
                        now = True
                        break
        if now != before:
            sh.detected = now
            events.append(DetectionChanged(sh.id, now, hkey(sh.pos), (sh.vel[0], sh.vel[1])))
    for o in state.ordnance:
        if o.detected or o.destroyed:
            continue
        q, r = o.pos
        seen = any(max(abs(e.pos[0] - q), abs(e.pos[1] - r), abs(e.pos[0] - q + e.pos[1] - r)) <= rs
                   for e in alive if e.owner != o.owner)
        if not seen:
            seen = any(max(abs(bq - q), abs(br - r), abs(bq - q + br - r)) <= rb
                       for bq, br in state.players[1 - o.owner].bases if (bq, br) not in state.destroyed_bases)
        if seen:
            o.detected = True
            events.append(OrdnanceDetected(o.id, o.owner, o.kind, hkey(o.pos), (o.vel[0], o.vel[1])))
    return events
