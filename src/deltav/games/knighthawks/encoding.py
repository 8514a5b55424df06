"""Integer actions of Knight Hawks: a fixed numbering of every decomposed action (docs/research.md).

Ships are numbered in scenario order, weapons by their index in a ship's list, traps (``trap-k``) by k up to
the scenario's traps plus every mine and seeker the ships carry, repair targets by a fixed vocabulary
(``hull``, ``adf``, ``mr``, ``w<i>``, ``d<i>``, ``short``, ``ccs``, ``nav``, ``dc``, ``fire``). A course's speed
is numbered as the change from the ship's current speed (within the largest ADF), so it needs no speed bound;
a ``lay``'s path index is bounded by ``4 * map radius + 2 * largest ADF`` (no plotted path on the map is longer).
The numbering depends only on the scenario and the options. This module owns the encoding only.
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

from . import messages as m
from .repair import MAX_BLOCK

SCREENS = ("PS", "ES", "SS", "MS", "none")


def _build(state) -> ActionSpace:
    ships = state.ships
    ids = [s.id for s in ships]
    sh = Values(ids)
    weapons = max((len(s.weapons) for s in ships), default=0)
    defenses = max((len(s.defenses) for s in ships), default=0)
    layers = [s.id for s in ships if any(w[0] in ("M", "S") for w in s.weapons)]
    traps = len(state.mines) + sum(max(0, w[1]) for s in ships for w in s.weapons if w[0] in ("M", "S"))
    icms = sum(max(0, d[1]) for s in ships for d in s.defenses if d[0] == "ICM")
    adf = max((s.adf0 for s in ships), default=0)
    at_hi = 4 * state.map.radius + 2 * adf
    targets = ["hull", "adf", "mr", *(f"w{i}" for i in range(weapons)), *(f"d{i}" for i in range(defenses)),
               "short", "ccs", "nav", "dc", "fire"]

    def speed_index(ctx: Context, v):
        d = v - ctx.state.ships[ctx.state.index[ctx.fields["ship"]]].speed
        return d + adf if -adf <= d <= adf else None

    def speed_value(ctx: Context, i: int):
        return ctx.state.ships[ctx.state.index[ctx.fields["ship"]]].speed + i - adf

    return ActionSpace([
        Kind(m.Screen, (("ship", sh), ("screen", Values(SCREENS)))),
        Kind(m.Lay, (("ship", Values(layers)), ("kind", Values(("M", "S"))), ("at", ints(0, at_hi)))),
        Kind(m.Activate, (("seeker", Values([f"trap-{k}" for k in range(1, traps + 1)])),)),
        Kind(m.Orbit, (("ship", sh), ("clockwise", Values((False, True))))),
        Kind(m.Course, (("ship", sh), ("speed", Relative(2 * adf + 1, speed_index, speed_value)),
                        ("facing", ints(0, 5)))),
        Kind(m.Step, (("turn", ints(-1, 1)),)),
        Kind(m.EndMovement),
        Kind(m.Assign, (("ship", sh), ("weapon", ints(0, weapons - 1)), ("target", sh))),
        Kind(m.Fire),
        Kind(m.Intercept, (("icms", ints(0, icms)), ("evade", Values((False, True))))),
        Kind(m.Repair, (("ship", sh), ("target", Values(targets)), ("points", ints(1, MAX_BLOCK)))),
        Kind(m.EndRepair),
    ])


_SPACES = SpaceCache(_build)


def action_space(state) -> ActionSpace:
    key = json.dumps(state.options, sort_keys=True, default=str)
    sp = _SPACES._cache.get(key)
    if sp is None:  # built from the configuration's initial position, so every later state numbers alike
        from deltav.games.knighthawks import KnightHawks

        sp = _SPACES.get(key, KnightHawks.new_initial_state(state.options, 0))
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
