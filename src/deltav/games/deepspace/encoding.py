"""Integer actions of Deep Space Combat: a fixed numbering of every decomposed action (docs/research.md).

Ships are numbered by their roster slot (``s<side>-<k>``, k below the side's size levels or its fleet size);
hexes of a deployment zone by their offset from the zone's centre (a box of side 2R+1, R the largest zone
radius); velocities as the change from the ship's current velocity (from rest while deploying) in a box of
side 2T+1, T the largest thrust any ship may have in this configuration (60 when ships are designed in play).
The numbering depends only on the scenario and the options. This module owns the encoding only.
"""

from __future__ import annotations

import json

from deltav.games.actionspace import (
    SKETCH_SIZE,
    ActionSpace,
    Context,
    Encoding,
    Features,
    Kind,
    Relative,
    Values,
    hashed_features,
    initial_position_spaces,
    ints,
    seat,
)

from . import messages as m
from .design import POINTS_PER_SIZE, builtin_fleet_ids
from .state import STATUS_NAMES

STATS = ("thrust", "evasion", "endurance")


def _owner(ship_id: str) -> int:
    return int(ship_id[1:ship_id.index("-")])


def _build(state) -> ActionSpace:
    n = state.num_players
    designing = state.phase == "design"
    cap = state.opts.get("stat_cap") or 0
    counts = [sum(1 for s in state.ships if s.owner == p) for p in range(n)]
    roster = [f"s{p}-{k}" for p in range(n) for k in range(max(counts[p], state.levels[p] if designing else 0))]
    ships = Values(roster)
    if designing:
        maxsize = max(state.levels)
        stat_hi = min(POINTS_PER_SIZE, cap) if cap else POINTS_PER_SIZE
        thrust = stat_hi
        weapons = POINTS_PER_SIZE * maxsize
        level = POINTS_PER_SIZE * maxsize
    else:
        maxsize = max(s.size for s in state.ships)
        thrust = max(s.lv[0] for s in state.ships)
        weapons = max((len(s.lv) - 3) // 2 for s in state.ships)
        level = max(max(s.lv) for s in state.ships)
    hp_hi = (level + 1) * maxsize
    zr = max(z[2] for z in state.zones)
    side = 2 * zr + 1
    vside = 2 * thrust + 1

    def zone_index(ctx: Context, hexqr):
        q0, r0, _ = ctx.state.zones[_owner(ctx.fields["ship"])]
        a, b = hexqr[0] - q0, hexqr[1] - r0
        return (a + zr) * side + (b + zr) if abs(a) <= zr and abs(b) <= zr else None

    def zone_value(ctx: Context, i: int):
        q0, r0, _ = ctx.state.zones[_owner(ctx.fields["ship"])]
        return (q0 + i // side - zr, r0 + i % side - zr)

    def base(ctx: Context) -> tuple[int, int]:
        st = ctx.state
        if st.phase == "deploy" or ctx.fields["ship"] not in st.index:
            return (0, 0)
        return tuple(st.ships[st.index[ctx.fields["ship"]]].vel)

    def vel_index(ctx: Context, v):
        b = base(ctx)
        a, c = v[0] - b[0], v[1] - b[1]
        return (a + thrust) * vside + (c + thrust) if abs(a) <= thrust and abs(c) <= thrust else None

    def vel_value(ctx: Context, i: int):
        b = base(ctx)
        return (b[0] + i // vside - thrust, b[1] + i % vside - thrust)

    def col_index(ctx: Context, dq):
        a = dq - base(ctx)[0]
        return a + thrust if abs(a) <= thrust else None

    kinds = []
    if designing:
        kinds += [
            Kind(m.NewShip, (("size", ints(1, maxsize)),)),
            Kind(m.UseFleet, (("fleet", Values(builtin_fleet_ids())),)),
            Kind(m.SetStat, (("stat", Values(STATS)), ("level", ints(0, stat_hi)))),
            Kind(m.WeaponTargeting, (("level", ints(0, level)),)),
            Kind(m.WeaponDamage, (("level", ints(0, level)),)),
            Kind(m.EndShip),
        ]
    stat_weapon = Values([(s, None) for s in STATS] + [(s, w) for w in range(weapons) for s in ("targeting", "damage")])
    kinds += [
        Kind(m.Place, (("ship", ships), (("q", "r"), Relative(side * side, zone_index, zone_value)))),
        Kind(m.SetVelocity, (("ship", ships), (("dq", "dr"), Relative(vside * vside, vel_index, vel_value)))),
        Kind(m.VelocityColumn, (("ship", ships), ("dq", Relative(vside, col_index,
                                                                  lambda ctx, i: base(ctx)[0] + i - thrust)))),
        Kind(m.Withdraw, (("ship", ships),)),
        Kind(m.Fire, (("ship", ships), ("weapon", ints(0, weapons - 1)), ("target", Values([None, *roster])))),
        Kind(m.Done),
        Kind(m.Allocate, (("ship", ships), (("stat", "weapon"), stat_weapon), ("hp", ints(1, hp_hi)))),
        Kind(m.AutoAllocate, (("ship", ships),)),
        Kind(m.SelfDestruct, (("ship", ships), ("detonate", Values([False, True])))),
    ]
    space = ActionSpace(kinds)
    space.meta = {"ships": roster, "players": n, "maxsize": maxsize}
    return space


def initial_key(state) -> str:
    """The configuration an encoding depends on (the scenario's sides, zones and fleets, and the options)."""
    return json.dumps([state.opts, list(state.levels), [list(z) for z in state.zones]], sort_keys=True, default=str)


action_space = initial_position_spaces(_build, "deepspace", key=initial_key, options=lambda state: state.opts)

_ENCODING = Encoding(action_space)
num_distinct_actions = _ENCODING.num_distinct_actions
encode = _ENCODING.encode
decode = _ENCODING.decode
legal_mask = _ENCODING.legal_mask
observation_string = _ENCODING.observation_string


PHASES = ("design", "deploy", "plot", "allocate", "destruct", "over")
MAX_PLAYERS = 4
WEAPON_PLANES = 4  # the first weapons of a ship; the sketch covers the rest


def planes(state, view: dict) -> Features:
    """The fixed-layout planes of a Deep Space Combat view (docs/research.md): per ship slot, then per player
    and the round. Owners are seen from the viewer (0 = the viewer's side)."""
    meta = action_space(state).meta
    me, n = view.get("you"), meta["players"]
    ships = {s.get("id"): s for s in view.get("ships") or []}
    f = Features()
    f.segment("ships")
    for sid in meta["ships"]:
        s = ships.get(sid) or {}
        f.flag(s)
        f.one_hot(seat(s.get("owner"), me, n), range(MAX_PLAYERS))
        f.one_hot(s.get("status"), STATUS_NAMES)
        f.num(s.get("size"), meta["maxsize"])
        pos, vel = s.get("pos"), s.get("vel")
        f.flag(pos)
        f.num(pos[0] if pos else 0, 50)
        f.num(pos[1] if pos else 0, 50)
        f.num(vel[0] if vel else 0, 10)
        f.num(vel[1] if vel else 0, 10)
        f.num(s.get("hp_taken"), 100)
        f.num(s.get("incoming"), 100)
        f.num(s.get("pending"), 100)
        known = "thrust" in s  # full stats: own ships (and every ship once the game is over)
        f.flag(known)
        for k in STATS:
            f.num(s.get(k), 20)
        seen = s.get("seen") or {}
        f.num(seen.get("thrust"), 20)
        f.num(seen.get("weapons"), 4)
        weapons = s.get("weapons") or []
        damage = seen.get("damage") or []
        for i in range(WEAPON_PLANES):
            w = weapons[i] if i < len(weapons) else None
            f.flag(w)
            f.num(w[0] if w else 0, 60)
            f.num(w[1] if w else 0, 60)
            f.num(damage[i] if i < len(damage) else 0, 60)
    f.segment("players")
    players = view.get("players") or []
    for k in range(MAX_PLAYERS):
        p = ((me or 0) + k) % n if k < n else None
        pl = players[p] if p is not None and p < len(players) else {}
        f.flag(pl)
        f.num(pl.get("size_levels"), 20)
        zone = pl.get("zone") or [0, 0, 0]
        f.num(zone[0], 50)
        f.num(zone[1], 50)
        f.num(pl.get("inflicted"), 1000)
        f.num(pl.get("received"), 1000)
        f.num(pl.get("score"), 1000)
        f.flag(pl.get("waiting"))
    f.segment("round")
    f.one_hot(view.get("phase"), PHASES)
    f.num(view.get("round"), max(1, view.get("round_limit") or 30))
    return f


def observation(state, player: int | None) -> list[float]:
    """The fixed-length observation vector of ``player``: the planes of ``view(player)``, then a hashed sketch
    of the whole view (docs/research.md). Reads the view (and the public configuration) only."""
    view = state.view(player)
    return planes(state, view).done() + hashed_features(view, SKETCH_SIZE)

