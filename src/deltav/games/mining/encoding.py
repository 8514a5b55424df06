"""Integer actions of mining (Delta V): a fixed numbering of every decomposed action (docs/research.md).

Squares are 0..48, players 0..n-1, and the named things are numbered as the configuration lists them: tiles
(``t00``..), bribe counters (owner-major, minerals in rules order) and contracts (scenario order). The number of
actions depends only on the scenario's components and the player count. This module owns the encoding only.
"""

from __future__ import annotations

import json

from deltav.games.actionspace import ActionSpace, Kind, SpaceCache, Values, canonical_json, hashed_features, ints

from . import actions as a
from .components import SQUARES


def _build(cfg) -> ActionSpace:
    n = cfg.n
    sq = ints(0, SQUARES - 1)
    tiles = Values(cfg.ids)
    bribes = Values(cfg.counter_ids)
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
        Kind(a.SabotageMove, (("frm", sq),)),
        Kind(a.RevealIncident, (("square", sq),)),
        Kind(a.MoveAlien, (("square", sq),)),
        Kind(a.Steal, (("item", Values(cfg.ids + cfg.counter_ids)),)),
        Kind(a.Declare, (("contract", Values([c.id for c in cfg.contracts])),)),
        Kind(a.Reveal, (("square", sq),)),
        Kind(a.Replace, (("bribe", bribes),)),
        Kind(a.BidUp, (("bribe", bribes),)),
        Kind(a.Pass),
    ])


_SPACES = SpaceCache(_build)


def action_space(state) -> ActionSpace:
    cfg = state.cfg
    return _SPACES.get(json.dumps([cfg.fingerprint, cfg.n], sort_keys=True), cfg)


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
