"""Knight Hawks views, secret tokens and the determinizer: what one seat (or a spectator) may see of a state,
which event tokens stay secret from it, and a full world sampled from one player's view alone, for search
bots.

Owns: :func:`view`, :func:`secret_tokens` (``KHState.view`` / ``KHState.secret_tokens`` delegate here) and
:func:`sample_world` (the JSON of a full state, which ``Game.determinize`` loads). The determinizer must never
read anything but the view; a view must share no mutable object with the state.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from deltav.core.rng import Rng
from deltav.games.knighthawks.repair import sample_secret_repairs
from deltav.games.knighthawks.ships import STATUS_NAMES, Ship


def _record_key(sh: Ship, rec: Ship) -> tuple:
    """Every value of a ship's view record that play may change (``rec``: the ship or the shadow its secret part
    comes from); the rest (id, name, class, kind, owner, evasive, points, hull, ADF/MR/DCR maxima) is set when the
    ship is made and never changed (ships.py alone assigns it)."""
    return (sh.pos, sh.facing, sh.speed, rec.dmg, rec.adf, rec.mr, tuple(rec.weapons), tuple(rec.defenses),
            sh.screen, sh.ms_turns, rec.short, rec.ccs, rec.nav, rec.dch, sh.fire, sh.status, sh.docked, sh.orbit,
            sh.evading, rec.unrep, sh.path, rec.navdir, sh.dock_turns, sh.attacked)


def _template(sh: Ship, k: tuple, shadow: bool) -> dict:
    (pos, facing, speed, dmg, adf, mr, weapons, defenses, screen, masking, short, ccs, nav, dch, fire, status, docked,
     orbit, evading, unrep, path, navdir, dock_turns, attacked) = k
    out = {
        "id": sh.id, "name": sh.name, "class": sh.cls, "kind": sh.kind, "owner": sh.owner, "evasive": sh.evasive,
        "points": sh.points, "hex": pos, "facing": facing, "speed": speed,
        "hp": sh.hp, "damage": dmg, "adf_max": sh.adf0, "adf": adf, "mr_max": sh.mr0, "mr": mr, "dcr_max": sh.dcr0,
        "weapons": weapons, "defenses": defenses, "screen": screen, "masking": masking,
        "damaged_systems": {"short": short, "ccs": ccs, "nav": nav, "dc": dch, "fire": fire},
        "status": STATUS_NAMES[status], "docked": docked, "orbit": orbit,
        "evading": evading, "unrepairable": unrep, "path": path, "navdir": navdir, "dock_turns": dock_turns,
    }
    if shadow:
        out["shadow"] = None
    out["attacked"] = attacked
    return out


def ship_record(sh: Ship, own: bool) -> dict:
    """A ship's record in a view: the JSON of ``Ship.to_json()`` (``own``: the owner's view, with the shadow's
    record) or of ``Ship.public_json()`` (the secret part as the other side last saw it, no shadow key), with
    tuples for its immutable parts (hex, systems, orbit, path, unrepairable items), shared with the ship.

    The record is a fresh dict, copied from a template the ship keeps (``Ship.view_own`` / ``view_pub``, carried
    over by ``clone``) with the tuple of every value it was made of: a changed value (a move, a hit, a repair...)
    makes a new template, so the cache needs no invalidation by the rules code."""
    rec = sh if own or sh.shadow is None else sh.shadow
    k = _record_key(sh, rec)
    hit = sh.view_own if own else sh.view_pub
    if hit is None or hit[0] != k:
        hit = (k, _template(sh, k, own))
        if own:
            sh.view_own = hit
        else:
            sh.view_pub = hit
    out = hit[1].copy()
    out["damaged_systems"] = out["damaged_systems"].copy()
    if own and sh.shadow is not None:
        out["shadow"] = ship_record(sh.shadow, True)
    return out


def _planets(mp) -> tuple:
    """The map's planets as a view shows them (``(name, hex)`` pairs), made once per map."""
    got = mp.__dict__.get("_view_planets")
    if got is None:
        got = tuple(zip(mp.planet_names, mp.planet_hexes))
        object.__setattr__(mp, "_view_planets", got)  # MapInfo is frozen: a derived value, like MapInfo.key
    return got


def view(state, player: int | None) -> dict:
    """Everything but the dice and the other side's hidden mines: enemy mine patterns and inert seekers
    are not shown (their count is); see docs/knighthawks.md. The same JSON as the state's record (but the dice),
    with these parts as tuples (never lists) shared with the state: each ship's immutable parts
    (:func:`ship_record`), the planets, the plots' turns."""
    seat = player is not None
    mover = state.mover
    hidden = 0
    shown = []
    activated = state.activated
    for mm in state.mines:
        mid, mine_owner, kind, h, moves, facing, layer = mm
        if seat and mine_owner == player or moves >= 0 or mid in activated:
            shown.append([mid, mine_owner, kind, list(h), moves, facing, layer])
        elif layer == "":
            hidden += 1  # placed before play: the scenario says how many there are, not where
        # a trap dropped in play is unknown to the other side (not even counted) until it detonates or,
        # a seeker, is activated
    deciding = seat and player in state.current_players()  # a seat's decision in progress is its own business
    cur = state.cur
    res = state.res
    return {
        "game": "knighthawks",
        "options": dict(state.options),
        "map": {"radius": state.map.radius, "planets": _planets(state.map)},
        "sides": list(state.sides),
        "victory": dict(state.victory),
        "turn_limit": state.turn_limit,
        "first": state.first,
        "turn": state.turn,
        "half": state.half,
        "mover": mover,
        "stage": state.stage,
        "fire_mode": state.fire_mode,
        "after": state.after,
        "ships": [ship_record(sh, seat and sh.owner == player) for sh in state.ships],
        "mines": shown,
        "plots": {k: [v[0], v[1], v[2]] for k, v in sorted(state.plots.items())},
        "plotting": None if cur is None or not deciding else [cur[0], cur[1], cur[2], list(cur[3])],
        "screened": list(state.screened),
        "laid": list(state.laid) if seat and player == mover else [],
        "activated": list(activated),
        "orbit_new": dict(sorted(state.orbit_new.items())),
        "declared": [_attack_json(a) for a in state.declared] if deciding else [],
        "attacks": [_attack_json(a) for a in state.attacks],
        "repair_player": state.repair_player,
        "allocations": [list(a) for a in state.allocs if a[0] == player] if seat else [],
        "result": res.to_json() if res else None,
        "scores": list(state.scores),
        "hidden_mines": hidden,
        "viewer": player,
    }


def _attack_json(a: list) -> list:
    """A declared or pending attack as JSON: a new list, with a new list for its hex (index 4)."""
    out = a[:]
    out[4] = list(a[4])
    return out


def secret_tokens(state, player: int | None) -> set[str]:
    return {mm[0] for mm in state.mines
            if mm[4] < 0 and mm[0] not in state.activated and (player is None or mm[1] != player)}


@lru_cache(maxsize=32)
def _open_cells(radius: int, planets: tuple) -> tuple:
    """The map hexes off planets, in a fixed order (where a hidden trap may lie)."""
    return tuple((q, r) for q in range(-radius, radius + 1) for r in range(-radius, radius + 1)
                 if max(abs(q), abs(r), abs(q + r)) <= radius and (q, r) not in planets)


def sample_world(view: Mapping, player: int, rng: Rng) -> dict:
    """The JSON of a full state from ``player``'s view: the other side's hidden traps (their number is in the view)
    are placed at random map hexes off planets, each a mine pattern or a seeker with even odds; once a
    repair turn has passed, each damaged item of an enemy ship may have been repaired in secret (25% each;
    the view's record stays the world's picture of it)."""
    o = {k: v for k, v in view.items() if k not in ("viewer", "hidden_mines", "mover")}
    mines = [list(x) for x in view["mines"]]
    hidden = view.get("hidden_mines", 0)
    if hidden:
        cells = _open_cells(view["map"]["radius"], tuple((h[0], h[1]) for _, h in view["map"]["planets"]))
    for k in range(hidden):
        h = cells[rng.below(len(cells))]
        kind = "M" if rng.below(2) == 0 else "S"
        mines.append([f"trap-sampled-{k + 1}", 1 - player, kind, list(h), -1, 0, ""])
    o["mines"] = mines
    if view["turn"] > 3:  # a repair turn has passed: the enemy may have repaired in secret
        ships = []
        for sj in view["ships"]:
            if sj["owner"] != player and sj["status"] == "active":
                belief = Ship.from_json(sj)
                sj = sample_secret_repairs(belief, rng).to_json()
            ships.append(sj)
        o["ships"] = ships
    o["rng"] = Rng(rng.next64()).to_json()
    return o
