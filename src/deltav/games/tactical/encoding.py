"""Integer actions of Delta-V tactical: a fixed numbering of every decomposed action (docs/research.md).

Ships are numbered by roster slot: per player the scenario's ships, then ``p<P>s<k>`` slots for every ship its
credits could buy (credits / cheapest purchasable ship), then ``p<P>ob<k>`` slots for orbital bases. An order is
(ship, one of the 50 burn/overload/land combinations, ``weak``), ``weak`` as a bit mask over the ignorable
weak-gravity hexes of that course in sorted order (8 bits: a course meets each of the 4 weak-gravity
bodies' rings in at most 2 runs); a nuke
target as its rank among the nukes in flight (at most 8); strengths and amounts by value. The numbering depends
only on the scenario and the options. This module owns the encoding only.
"""

from __future__ import annotations

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

from . import messages as v
from .astrogation_phase import order_options
from .courses import orderable
from .fleet import BASE_CARGO, _cost

WEAK_BITS = 8  # at most 2 runs per weak-gravity body (a line meets a ring in one segment, split by the body), 4 bodies
NUKES = 8
BURNS = ([(None, None, False)] + [(b, None, False) for b in range(6)] + [(b, o, False) for b in range(6)
         for o in range(6)] + [(b, None, True) for b in [None, *range(6)]])
BOOSTS = [(None, 0)] + [(d, k) for d in range(6) for k in (1, 2)]


def _build(state) -> ActionSpace:
    n = len(state.players)
    rules = state.rules
    ships: list[str] = []
    bases: list[str] = []
    strength = 0
    for p in range(n):
        init = [s.id for s in state.ships if s.owner == p]
        credits = state.players[p].credits
        buyable = [_cost(i) for i in rules.fleet_purchases if i != BASE_CARGO]
        extra = credits // min(buyable) if buyable else 0
        mine = init + [f"p{p}s{k}" for k in range(len(init), len(init) + extra)]
        nb = len(init) + (credits // _cost(BASE_CARGO) if BASE_CARGO in rules.fleet_purchases else 0)
        ships += mine
        bases += [f"p{p}ob{k}" for k in range(nb)]
        strength = max(strength, 16 * (len(mine) + nb))
    every = ships + bases
    slot = Values(every)
    slots = {sid: i for i, sid in enumerate(every)}
    amount = max([50] + [s.passengers for s in state.ships])

    def weak_keys(ctx: Context) -> list[str]:
        st = ctx.state
        sh = st._index.get(ctx.fields["ship"])
        if sh is None or not orderable(sh):
            return []
        b, o = ctx.fields["burn"], ctx.fields["overload"]
        keys: set[str] = set()
        for x in order_options(st, sh):
            if x.burn == b and x.overload == o and not x.land:
                keys.update(x.weak)
        return sorted(keys)

    def weak_index(ctx: Context, weak):
        if not weak:
            return 0
        keys = weak_keys(ctx)
        if any(w not in keys for w in weak) or list(weak) != sorted(weak):
            return None
        return sum(1 << keys.index(w) for w in weak)

    def weak_value(ctx: Context, i: int):
        keys = weak_keys(ctx) if i else []
        if i >> len(keys):
            return ("?",) * (i.bit_count())  # no such hexes on this course: an order no ship may give
        return tuple(k for j, k in enumerate(keys) if i >> j & 1)

    def nukes(ctx: Context) -> list[str]:
        return [o.id for o in ctx.state.ordnance if o.kind == "nuke" and not o.destroyed]

    def target_index(ctx: Context, t):
        if t in slots:
            return slots[t]
        live = nukes(ctx)
        return len(every) + live.index(t) if t in live else None

    def target_value(ctx: Context, i: int):
        if i < len(every):
            return every[i]
        live = nukes(ctx)
        j = i - len(every)
        return live[j] if j < len(live) else f"nuke#{j}"

    kinds = [
        Kind(v.Order, (("ship", Values(ships)), (("burn", "overload", "land"), Values(BURNS)),
                       ("weak", Relative(1 << WEAK_BITS, weak_index, weak_value)))),
        Kind(v.EndAstrogation),
        Kind(v.Surrender),
        Kind(v.Launch, (("ship", slot), ("kind", Values(("mine", "torpedo", "nuke"))),
                        (("boost_dir", "boost"), Values(BOOSTS)))),
        Kind(v.EmplaceBase, (("ship", Values(ships)),)),
        Kind(v.EndOrdnance),
        Kind(v.AddAttacker, (("ship", slot),)),
        Kind(v.Fire, (("target", Relative(len(every) + NUKES, target_index, target_value)),
                      ("strength", Values([None, *range(1, strength + 1)])))),
        Kind(v.EndCombat),
        Kind(v.EndLogistics),
    ]
    if rules.logistics:
        kinds.append(Kind(v.Transfer, (("source", slot), ("target", Values(ships)),
                                       ("kind", Values(("fuel", "cargo", "passengers"))), ("amount", ints(1, amount)))))
    if rules.fleet_purchases:
        kinds += [Kind(v.Buy, (("item", Values(rules.fleet_purchases)), ("carrier", Values([None, *ships])))),
                  Kind(v.FleetReady)]
    space = ActionSpace(kinds)
    space.meta = {"ships": every}
    return space


action_space = initial_position_spaces(_build, "tactical")

_ENCODING = Encoding(action_space)
num_distinct_actions = _ENCODING.num_distinct_actions
encode = _ENCODING.encode
decode = _ENCODING.decode
legal_mask = _ENCODING.legal_mask
observation_string = _ENCODING.observation_string


PHASES = ("fleet_building", "astrogation", "ordnance", "combat", "logistics", "game_over")
TYPES = ("transport", "packet", "tanker", "liner", "corvette", "corsair", "frigate", "dreadnaught", "torch",
         "orbitalBase")
ORDNANCE_PLANES = 16


def planes(state, view: dict) -> Features:
    """The fixed-layout planes of a Delta-V tactical view (docs/research.md): per ship slot, then the ordnance in
    flight, the players and the turn. Owners are seen from the viewer (0 = the viewer)."""
    meta = action_space(state).meta
    me = view.get("viewer", view.get("you"))
    if me is None:
        me = view.get("player")
    ships = {s.get("id"): s for s in view.get("ships") or []}
    f = Features()
    f.segment("ships")
    for sid in meta["ships"]:
        s = ships.get(sid) or {}
        f.flag(s)
        f.one_hot(seat(s.get("owner"), me, 2), (0, 1))
        f.one_hot(s.get("type"), TYPES)
        pos, vel = s.get("position") or [0, 0], s.get("velocity") or [0, 0]
        f.num(pos[0], 30)
        f.num(pos[1], 30)
        f.num(vel[0], 10)
        f.num(vel[1], 10)
        fuel = s.get("fuel")
        f.flag(s and fuel is None)  # unlimited fuel
        f.num(fuel, 50)
        for k in ("landed", "destroyed", "overload_used", "detected", "heroic", "resupplied", "carrying_base",
                  "emplaced"):
            f.flag(s.get(k))
        f.num(s.get("disabled"), 6)
        f.num(s.get("cargo_used"), 50)
        f.num(s.get("passengers"), 50)
        f.num(s.get("nukes"), 2)
        f.flag(s.get("control") == "captured")
        f.num(len(s.get("pending_gravity") or []), 3)
        f.one_hot(s.get("identity"), ("fugitives", "decoy", "unknown"))
    f.segment("ordnance")
    live = [o for o in view.get("ordnance") or [] if not o.get("destroyed")]
    for k in range(ORDNANCE_PLANES):
        o = live[k] if k < len(live) else {}
        f.flag(o)
        f.one_hot(seat(o.get("owner"), me, 2), (0, 1))
        f.one_hot(o.get("kind"), ("mine", "torpedo", "nuke"))
        pos, vel = o.get("position") or [0, 0], o.get("velocity") or [0, 0]
        f.num(pos[0], 30)
        f.num(pos[1], 30)
        f.num(vel[0], 10)
        f.num(vel[1], 10)
    f.segment("players")
    players = view.get("players") or []
    for k in range(2):
        p = ((me or 0) + k) % 2
        pl = players[p] if p < len(players) else {}
        f.num(pl.get("credits"), 1000)
        f.num(len(pl.get("visited") or []), 10)
        f.flag(pl.get("ready"))
        f.flag(pl.get("escape_wins"))
    f.num(view.get("unseen_enemy_ships"), 10)
    f.segment("turn")
    f.one_hot(view.get("phase"), PHASES)
    f.one_hot(seat(view.get("active_player"), me, 2), (0, 1))
    f.num(view.get("turn"), max(1, (view.get("options") or {}).get("turn_limit") or 100))
    return f


def observation(state, player: int | None) -> list[float]:
    """The fixed-length observation vector of ``player``: the planes of ``view(player)``, then a hashed sketch
    of the whole view (docs/research.md). Reads the view (and the public configuration) only."""
    view = state.view(player)
    view_for = dict(view, viewer=player)
    return planes(state, view_for).done() + hashed_features(view, SKETCH_SIZE)

