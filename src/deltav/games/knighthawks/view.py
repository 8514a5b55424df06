"""Knight Hawks views, secret tokens and the determinizer: what one seat (or a spectator) may see of a state,
which event tokens stay secret from it, and a full world sampled from one player's view alone, for search
bots.

Owns: :func:`view`, :func:`secret_tokens` (``KHState.view`` / ``KHState.secret_tokens`` delegate here) and
:func:`sample_world` (the JSON of a full state, which ``Game.determinize`` loads). The determinizer must never
read anything but the view; views read the state and never change it.

Views: a fresh JSON-ready dict per call that nobody can use to change the state. What does not change from one
step to the next is built once and shared, read-only (``deltav.core.frozen.Frozen`` records and tuples):

- each ship's record (the owner's, with the shadow's record inside, and the other side's) is kept with the ship
  (``Ship.view_own`` / ``view_pub``, carried over by ``clone``) with the tuple of every value it was made of,
  and made again when one changes (the rules code never clears it); its ``damaged_systems`` record is shared
  by every record with the same five flags;
- the options and the victory conditions are frozen once per (never mutated) dict, the map once per map, the
  sides are the state's own tuple;
- a shown mine is the state's own tuple (id, owner, kind, hex, moves, facing, layer), a plot the state's own
  ``(speed, facing, turns)`` tuple.

Fresh in every view: the top-level dict and its lists and dicts (``ships``, ``mines``, ``plots``,
``screened``, ``laid``, ``activated``, ``orbit_new``, ``scores``), and the rarely shown parts as plain JSON
(``plotting``, the declared and pending attacks, the repair allocations, the result). The per-viewer hiding:
the other side's hidden mines are left out (counted in ``hidden_mines`` when placed before play), ``plotting``
and ``declared`` are shown only to the seat deciding, ``laid`` only to the mover, ``allocations`` only to
their own seat.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from operator import attrgetter

from deltav.core.frozen import Frozen, freeze
from deltav.core.rng import Rng
from deltav.games.knighthawks.repair import sample_secret_repairs
from deltav.games.knighthawks.ships import STATUS_NAMES, Ship

#: The values of a ship's record that play may change and the other side sees as they are (read in C) ...
_shown = attrgetter("pos", "facing", "speed", "screen", "ms_turns", "fire", "status", "docked", "orbit", "evading",
                    "path", "dock_turns", "attacked")
#: ... and those the other side sees as it last saw them (the shadow's, when a private change made one); with the
#: weapons and defenses (lists of tuples, copied into the key). The rest (id, name, class, kind, owner, evasive,
#: points, hull, ADF/MR/DCR maxima) is set when the ship is made and never changed (ships.py alone assigns it).
_secret = attrgetter("dmg", "adf", "mr", "short", "ccs", "nav", "dch", "unrep", "navdir")

#: ``damaged_systems`` records by their five flags (short, ccs, nav, dc, fire): at most 32, shared by every record.
_SYSTEMS: dict[tuple, Frozen] = {}


def _systems(flags: tuple) -> Frozen:
    got = _SYSTEMS.get(flags)
    if got is None:
        short, ccs, nav, dch, fire = flags
        got = _SYSTEMS[flags] = Frozen(short=short, ccs=ccs, nav=nav, dc=dch, fire=fire)
    return got


def _record(sh: Ship, shown: tuple, secret: tuple, weapons: tuple, defenses: tuple, shadow: bool,
            srec: Frozen | None) -> Frozen:
    pos, facing, speed, screen, masking, fire, status, docked, orbit, evading, path, dock_turns, attacked = shown
    dmg, adf, mr, short, ccs, nav, dch, unrep, navdir = secret
    out = {
        "id": sh.id, "name": sh.name, "class": sh.cls, "kind": sh.kind, "owner": sh.owner, "evasive": sh.evasive,
        "points": sh.points, "hex": pos, "facing": facing, "speed": speed,
        "hp": sh.hp, "damage": dmg, "adf_max": sh.adf0, "adf": adf, "mr_max": sh.mr0, "mr": mr, "dcr_max": sh.dcr0,
        "weapons": weapons, "defenses": defenses, "screen": screen, "masking": masking,
        "damaged_systems": _systems((short, ccs, nav, dch, fire)),
        "status": STATUS_NAMES[status], "docked": docked, "orbit": orbit,
        "evading": evading, "unrepairable": unrep, "path": path, "navdir": navdir, "dock_turns": dock_turns,
    }
    if shadow:
        out["shadow"] = srec
    out["attacked"] = attacked
    return Frozen(out)


def ship_record(sh: Ship, own: bool) -> Frozen:
    """A ship's record in a view: the JSON of ``Ship.to_json()`` (``own``: the owner's view, with the shadow's
    record) or of ``Ship.public_json()`` (the secret part as the other side last saw it, no shadow key), read-only
    (``Frozen``, tuples for hexes, systems, orbit, path and unrepairable items) and shared by every view until one
    of its values changes.

    The ship keeps it (``Ship.view_own`` / ``view_pub``, carried over by ``clone``) with the tuple of every value
    it was made of (the owner's: with the shadow's record; None without): a changed value (a move, a hit, a
    repair...) makes a new record, so the cache needs no invalidation by the rules code."""
    if own:
        sd = sh.shadow
        srec = None if sd is None else ship_record(sd, True)
        k = (_shown(sh), _secret(sh), tuple(sh.weapons), tuple(sh.defenses), srec)
        hit = sh.view_own
        if hit is not None and hit[0] == k:
            return hit[1]
        rec = _record(sh, k[0], k[1], k[2], k[3], True, srec)
        sh.view_own = (k, rec)
        return rec
    p = sh.shadow or sh
    k = (_shown(sh), _secret(p), tuple(p.weapons), tuple(p.defenses), None)
    hit = sh.view_pub
    if hit is not None and hit[0] == k:
        return hit[1]
    rec = _record(sh, k[0], k[1], k[2], k[3], False, None)
    sh.view_pub = (k, rec)
    return rec


def _map_view(mp) -> Frozen:
    """The map as a view shows it (radius, ``(name, hex)`` planets), read-only, made once per map."""
    got = mp.__dict__.get("_view_rec")
    if got is None:
        got = Frozen(radius=mp.radius, planets=tuple(zip(mp.planet_names, mp.planet_hexes)))
        object.__setattr__(mp, "_view_rec", got)  # MapInfo is frozen: a derived value, like MapInfo.key
    return got


#: Read-only copies of never-mutated dicts (a state's options and victory conditions: clones share them), by
#: identity; the dict is held, so its id is not reused while it is cached.
_FROZEN: dict[int, tuple] = {}


def _frozen(d: dict) -> Frozen:
    hit = _FROZEN.get(id(d))
    if hit is not None and hit[0] is d:
        return hit[1]
    if len(_FROZEN) >= 1000:
        _FROZEN.clear()
    rec = freeze(d)
    _FROZEN[id(d)] = (d, rec)
    return rec


def view(state, player: int | None) -> dict:
    """Everything but the dice and the other side's hidden mines: enemy mine patterns and inert seekers
    are not shown (their count is); see docs/knighthawks.md. The same JSON as the state's record (but the dice),
    a fresh dict whose lists and dicts are fresh but for the read-only parts shared with the state and other views
    (the module's docstring lists them)."""
    seat = player is not None
    mover = state.mover
    hidden = 0
    shown = []
    activated = state.activated
    for mm in state.mines:
        if seat and mm[1] == player or mm[4] >= 0 or mm[0] in activated:
            shown.append(mm)  # the state's tuple, its hex a tuple
        elif mm[6] == "":
            hidden += 1  # placed before play: the scenario says how many there are, not where
        # a trap dropped in play is unknown to the other side (not even counted) until it detonates or,
        # a seeker, is activated
    deciding = seat and player in state.current_players()  # a seat's decision in progress is its own business
    cur = state.cur
    res = state.res
    ships = []
    add = ships.append
    for sh in state.ships:
        own = seat and sh.owner == player
        if sh.shadow is None:  # ship_record's hit inlined for the common case (no shadow: one key for both)
            hit = sh.view_own if own else sh.view_pub
            if hit is not None and hit[0] == (_shown(sh), _secret(sh), tuple(sh.weapons), tuple(sh.defenses), None):
                add(hit[1])
                continue
        add(ship_record(sh, own))
    plots = state.plots
    return {
        "game": "knighthawks",
        "options": _frozen(state.options),
        "map": _map_view(state.map),
        "sides": tuple(state.sides),
        "victory": _frozen(state.victory),
        "turn_limit": state.turn_limit,
        "first": state.first,
        "turn": state.turn,
        "half": state.half,
        "mover": mover,
        "stage": state.stage,
        "fire_mode": state.fire_mode,
        "after": state.after,
        "ships": ships,
        "mines": shown,
        "plots": dict(sorted(plots.items())) if plots else {},
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
