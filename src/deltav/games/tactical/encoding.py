"""Integer actions of Delta-V tactical: a fixed numbering of every decomposed action (docs/research.md).

Ships are numbered by roster slot: per player the scenario's ships, then ``p<P>s<k>`` slots for every ship its
credits could buy (credits / cheapest purchasable ship), then ``p<P>ob<k>`` slots for orbital bases. An order is
(ship, one of the 50 burn/overload/land combinations, ``weak``), ``weak`` as a bit mask over the ignorable
weak-gravity hexes of that course in sorted order (at most 3: a course meets at most that many runs); a nuke
target as its rank among the nukes in flight (at most 8); strengths and amounts by value. The numbering depends
only on the scenario and the options. This module owns the encoding only.
"""

from __future__ import annotations

import json

from deltav.games.actionspace import (
    ActionSpace,
    Context,
    Kind,
    Relative,
    SpaceCache,
    Values,
    canonical_json,
    hashed_features,
    ints,
)

from . import values as v
from .fleet import BASE_CARGO, _cost

WEAK_BITS = 3
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
        if sh is None or not st.orderable(sh):
            return []
        b, o = ctx.fields["burn"], ctx.fields["overload"]
        keys: set[str] = set()
        for x in st.order_options(sh):
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
    return ActionSpace(kinds)


_SPACES = SpaceCache(_build)


def action_space(state) -> ActionSpace:
    key = json.dumps(state.options, sort_keys=True, default=str)
    sp = _SPACES._cache.get(key)
    if sp is None:  # built from the configuration's initial position, so every later state numbers alike
        from deltav.games.tactical import TacticalGame

        sp = _SPACES.get(key, TacticalGame.new_initial_state(state.options, 0))
    return sp


def num_distinct_actions(state) -> int:
    return action_space(state).n


def encode(state, action, player: int | None = None) -> int:
    return action_space(state).encode(state, player, action)


def decode(state, code: int, player: int | None = None):
    return action_space(state).decode(state, player, code)


def legal_mask(state, player: int) -> list[int]:
    return action_space(state).legal_mask(state, player)


def observation(state, player: int | None) -> list[float]:
    """The fixed-length observation vector of ``player`` (hashed features of ``view(player)`` only)."""
    return hashed_features(state.view(player))


def observation_string(state, player: int | None) -> str:
    """``view(player)`` as canonical JSON."""
    return canonical_json(state.view(player))
