"""Determinization for search bots: a full state consistent with one player's view, built from the view alone.

What the view hides and how it is sampled: undetected enemy ships (the view gives only their number) become
placeholder corvettes (ids ``unseen-<k>``) on empty hexes outside the viewer's detection ranges; the Escape
fugitive, if not revealed, is one of the enemy's unrevealed hidden-identity ships chosen at random; the enemy's
secret fleet purchases are taken as empty; the opponent's queued orders are empty. The RNG is fresh.

Speed (bots sample many worlds per decision): the view is never copied whole. Only what is changed is copied
(the ship list, and the hidden-identity ships whose identity is drawn); everything else is read by
``TacticalState.from_json``, which builds its own objects, so the view is never mutated. The hexes where an
unseen ship may be are the map's open hexes (computed once per map) minus those within detection range of the
viewer's ships and bases (a set built from rings, not a distance test per hex).

This module must never read anything but the view.
"""

from __future__ import annotations

from functools import lru_cache

from deltav.core import hexgrid
from deltav.core.rng import Rng

from .mapdata import default_map
from .model import hparse

PLACEHOLDER_TYPE = "corvette"


#: How far the viewer's ships and bases detect (design/tactical.md 1.11): no unseen ship can stand within them.
SHIP_RANGE = 3
BASE_RANGE = 5


@lru_cache(maxsize=4)
def _open_hexes(gmap) -> tuple[tuple[int, int], ...]:
    """The map's hexes in row order that are no body surface, gravity hex, base or asteroid."""
    lo_q, hi_q, lo_r, hi_r = gmap.bounds
    blocked = (gmap.surface, gmap.gravity, gmap.base, gmap.asteroids)
    return tuple((q, r) for q in range(lo_q, hi_q + 1) for r in range(lo_r, hi_r + 1)
                 if not any((q, r) in b for b in blocked))


@lru_cache(maxsize=256)
def _unseen_candidates(gmap, mine: tuple, bases: tuple) -> tuple[tuple[int, int], ...]:
    """The open hexes outside detection range of every one of ``mine`` (ship hexes) and ``bases``."""
    seen: set = set()
    for m in mine:
        seen.update(hexgrid.spiral(m, SHIP_RANGE))
    for b in bases:
        seen.update(hexgrid.spiral(b, BASE_RANGE))
    lo_q, _, lo_r, _ = gmap.bounds
    return tuple(h for h in _open_hexes(gmap) if h not in seen) or ((lo_q, lo_r),)


def determinize(view, player: int, rng: Rng):
    from .state import TacticalState

    v = view
    gmap = default_map()
    ships = list(v["ships"])  # a new list (unseen ships are appended); the view's dicts are only read
    # the fugitive
    hidden = [i for i, s in enumerate(ships) if s.get("hidden_identity") and s.get("identity") == "unknown"]
    if hidden:
        known = any(s.get("identity") == "fugitives" for s in ships)
        pick = None if known else rng.choice(hidden)
        for i in hidden:
            ships[i] = {**ships[i], "identity": "fugitives" if i == pick else "decoy"}
    # undetected enemy ships
    n = v.get("unseen_enemy_ships", 0)
    if n:
        mine = tuple(tuple(s["position"]) for s in ships if s["owner"] == player and not s["destroyed"])
        bases = tuple(hparse(h) for h in v["players"][player]["bases"])
        cands = _unseen_candidates(gmap, mine, bases)
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
