"""Determinization for search bots: a full state consistent with one player's view, built from the view alone.

What the view hides and how it is sampled: undetected enemy ships (the view gives only their number) become
placeholder corvettes (ids ``unseen-<k>``) on empty hexes outside the viewer's detection ranges; the Escape
fugitive, if not revealed, is one of the enemy's unrevealed hidden-identity ships chosen at random; the enemy's
secret fleet purchases are taken as empty; the opponent's queued orders are empty. The RNG is fresh.

This module must never read anything but the view.
"""

from __future__ import annotations

import copy

from deltav.core.rng import Rng

from .mapdata import default_map
from .model import hparse

PLACEHOLDER_TYPE = "corvette"


def _dist(a, b) -> int:
    q = a[0] - b[0]
    r = a[1] - b[1]
    return max(abs(q), abs(r), abs(q + r))


def determinize(view, player: int, rng: Rng):
    from .state import TacticalState

    v = copy.deepcopy(dict(view))
    gmap = default_map()
    ships = v["ships"]
    # the fugitive
    hidden = [s for s in ships if s.get("hidden_identity") and s.get("identity") == "unknown"]
    if hidden:
        known = any(s.get("identity") == "fugitives" for s in ships)
        pick = None if known else rng.choice(hidden)
        for s in hidden:
            s["identity"] = "fugitives" if s is pick else "decoy"
    # undetected enemy ships
    n = v.get("unseen_enemy_ships", 0)
    if n:
        mine = [tuple(s["position"]) for s in ships if s["owner"] == player and not s["destroyed"]]
        bases = [hparse(h) for h in v["players"][player]["bases"]]
        lo_q, hi_q, lo_r, hi_r = gmap.bounds
        cands = []
        for q in range(lo_q, hi_q + 1):
            for r in range(lo_r, hi_r + 1):
                h = (q, r)
                if h in gmap.surface or h in gmap.gravity or h in gmap.base or h in gmap.asteroids:
                    continue
                if all(_dist(h, m) > 3 for m in mine) and all(_dist(h, b) > 5 for b in bases):
                    cands.append(h)
        if not cands:
            cands = [(lo_q, lo_r)]
        for k in range(n):
            h = rng.choice(cands)
            ships.append({
                "id": f"unseen-{k}", "owner": 1 - player, "type": PLACEHOLDER_TYPE, "position": list(h),
                "velocity": [0, 0], "fuel": 20, "pending_gravity": [], "landed": False, "destroyed": False,
                "cause": None, "disabled": 0, "overload_used": False, "cargo_used": 0, "passengers": 0, "nukes": 0,
                "detected": False, "heroic": False, "control": "own", "resupplied": False, "path": [],
                "carrying_base": False, "emplaced": False,
            })
    purchases = v.get("purchases") or [[], []]
    obj = {
        "options": {**v["options"], "scenario": v["scenario"]},
        "scenario": v["scenario"],
        "name": v["name"],
        "rules": v["rules"],
        "rng": Rng(rng.next64()).to_json(),
        "players": v["players"],
        "ships": ships,
        "ordnance": v["ordnance"],
        "next_ordnance": v["next_ordnance"],
        "destroyed_bases": v["destroyed_bases"],
        "destroyed_asteroids": v["destroyed_asteroids"],
        "orders": v["orders"],
        "launched": v["launched"],
        "hazards": v["hazards"],
        "combat": v["combat"],
        "transfers": v["transfers"],
        "moral": v["moral_victory_flag"],
        "escaped": None,
        "result": v["result"],
        "turn": v["turn"],
        "first_player": v["first_player"],
        "active_player": v["active_player"],
        "phase": v["phase"],
        "purchases": [p if p is not None else [] for p in purchases],
    }
    return TacticalState.from_json(obj)
