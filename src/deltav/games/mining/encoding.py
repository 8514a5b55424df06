"""Integer actions of mining (Delta V): a fixed numbering of every decomposed action (docs/research.md).

Squares are 0..48, players 0..n-1, and the named things are numbered as the configuration lists them: tiles
(``t00``..), bribe counters (owner-major, minerals in rules order) and contracts (scenario order). The number of
actions depends only on the scenario's components and the player count. This module owns the encoding only.
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
    SpaceCache,
    Values,
    hashed_features,
    ints,
    seat,
)

from . import messages as a
from .scenarios import INCIDENTS, KINDS, MINERALS, SQUARES
from .visibility import board_of_view, squares_of


def _build(cfg) -> ActionSpace:
    n = cfg.n
    sq = ints(0, SQUARES - 1)
    tiles = Values(cfg.ids)
    bribes = Values(cfg.counter_ids)
    items = cfg.ids + cfg.counter_ids
    where = {x: i for i, x in enumerate(items)}

    def item_index(ctx: Context, v):
        item, victim = v
        i = where.get(item)
        return i if i is not None and victim in (None, _holder(ctx.state, item)) else None

    def item_value(ctx: Context, i: int):
        return items[i], _holder(ctx.state, items[i])

    return ActionSpace([
        Kind(a.Move, (("frm", sq), ("to", sq), ("bump", Values([None, *range(n)])))),
        Kind(a.EndMoves),
        Kind(a.Prospect),
        Kind(a.Survey, (("bribe", bribes),)),
        Kind(a.Look, (("square", sq),)),
        Kind(a.EndLooks),
        Kind(a.BuyRocket),
        Kind(a.Discard, (("incident", tiles),)),
        Kind(a.Sabotage, (("victim", ints(0, n - 1)), ("square", sq))),
        Kind(a.SabotageMove, (("frm", sq), ("bump", Values([None, *range(n)])))),
        Kind(a.RevealIncident, (("square", sq),)),
        Kind(a.MoveAlien, (("square", sq),)),
        # the victim is read off the position (who holds the item): a steal is numbered by its item
        Kind(a.Steal, ((("item", "victim"), Relative(len(items), item_index, item_value)),)),
        Kind(a.Declare, (("contract", Values([c.id for c in cfg.contracts])),)),
        Kind(a.Reveal, (("square", sq),)),
        Kind(a.Replace, (("bribe", bribes),)),
        Kind(a.BidUp, (("bribe", bribes),)),
        Kind(a.Pass),
    ])


def _holder(state, item: str) -> int | None:
    """Who holds an incident tile or bribe counter now (None: nobody)."""
    cfg = state.cfg
    b = cfg.counter_index.get(item)
    if b is not None:
        h = state.holders[b]
        return h if h >= 0 else None
    t = cfg.id_index[item]
    return next((q for q in range(state.num_players) if any(tt == t for tt, _ in state.hands[q])), None)


_SPACES = SpaceCache(_build)


def action_space(state) -> ActionSpace:
    cfg = state.cfg
    return _SPACES.get(json.dumps([cfg.fingerprint, cfg.n], sort_keys=True), cfg)


_ENCODING = Encoding(action_space)
num_distinct_actions = _ENCODING.num_distinct_actions
encode = _ENCODING.encode
decode = _ENCODING.decode
legal_mask = _ENCODING.legal_mask
observation_string = _ENCODING.observation_string


STATUSES = ("station", "empty", "face_down", "face_up", "revealed")
MAX_PLAYERS = 4


def planes(view: dict) -> Features:
    """The fixed-layout planes of a mining view (docs/research.md): players are seen from the viewer (seat 0
    is the viewer, then the next seats in turn order; a spectator sees seat order)."""
    me = view.get("viewer")
    n = int(view.get("players") or 2)
    rel = [(me or 0) + k for k in range(MAX_PLAYERS)]  # absolute seat of relative seat k (if k < n)
    rockets_each = max(1, int(board_of_view(view)["rockets_per_player"]))
    f = Features()
    f.segment("squares")
    for sq in squares_of(view):
        f.one_hot(sq.get("status"), STATUSES)
        tile = sq.get("tile") or {}
        f.flag(tile)
        f.one_hot(tile.get("kind"), KINDS)
        f.num(tile.get("value"), 5)
        rk = sq.get("rockets") or []
        for k in range(MAX_PLAYERS):
            f.num(rk[rel[k] % n] if k < n and rel[k] % n < len(rk) else 0, rockets_each)
        looked = set(sq.get("looked_by") or [])
        for k in range(MAX_PLAYERS):
            f.flag(k < n and rel[k] % n in looked)
        f.flag(sq.get("public"))
        f.flag(view.get("alien") == sq.get("square"))
    f.segment("turn")
    f.num(view.get("turn"), max(1, int((view.get("options") or {}).get("max_turns") or 400)))
    f.num(view.get("aliens_revealed"), 5)
    cur, deciding = seat(view.get("current_player"), me, n), view.get("deciding") or []
    f.one_hot(cur, range(MAX_PLAYERS))
    dec = {seat(p, me, n) for p in deciding}
    for k in range(MAX_PLAYERS):
        f.flag(k in dec)
    f.segment("players")
    yards = view.get("shipyards") or []
    hands = view.get("hands") or []
    coll = view.get("collected") or []
    scores = view.get("scores") or []
    for k in range(MAX_PLAYERS):
        p = rel[k] % n if k < n else None
        f.flag(p is not None)
        f.num(yards[p] if p is not None and p < len(yards) else 0, rockets_each)
        hand = hands[p] if p is not None and p < len(hands) else []
        f.num(len(hand), 5)
        for kind in INCIDENTS:
            f.num(sum(1 for h in hand if h.get("kind") == kind), 2)
        got = coll[p] if p is not None and p < len(coll) else []
        f.num(len(got), 10)
        for mineral in MINERALS:
            f.num(sum(1 for c in got if c.get("counted_as") == mineral), 5)
        f.num(scores[p] if p is not None and p < len(scores) else 0, 50)
    f.segment("bribes")
    bribes = list(view.get("bribes") or ())[: 5 * MAX_PLAYERS]  # a tuple in a view, a list after JSON
    for b in bribes + [{}] * (5 * MAX_PLAYERS - len(bribes)):
        f.flag(b)
        f.one_hot(seat(b.get("owner"), me, n), range(MAX_PLAYERS))
        f.one_hot(seat(b.get("holder"), me, n), range(MAX_PLAYERS))
        f.flag(b.get("spent"))
    f.segment("contracts")
    cs = view.get("contracts") or []
    for k in range(MAX_CONTRACTS):
        c = cs[k] if k < len(cs) else {}
        f.flag(c)
        f.one_hot(seat(c.get("owner"), me, n), range(MAX_PLAYERS))
        for mineral in MINERALS:
            f.num(sum(1 for x in c.get("minerals") or [] if x == mineral), 3)
    f.segment("decision")
    att = view.get("attempt") or {}
    f.flag(att)
    f.num(len(att.get("matched") or []), 5)
    f.num(view.get("scan_left"), 3)
    f.num(len(view.get("picks") or []), 3)
    f.flag(view.get("pirated"))
    f.flag(view.get("stormed"))
    return f


MAX_CONTRACTS = 16


def observation(state, player: int | None) -> list[float]:
    """The fixed-length observation vector of ``player``: the planes of ``view(player)``, then a hashed sketch
    of the whole view (docs/research.md). Reads the view only."""
    view = state.view(player)
    return planes(view).done() + hashed_features(view, SKETCH_SIZE)

