"""Difficulty presets ``easy`` / ``normal`` / ``hard`` per game, as data.

A preset names an agent (``mcts``, ``ismcts``, ``duct``, ``random`` or a scripted bot of the game), its
parameters (the budget is an **iteration count**, so a seeded match replays exactly; ``max_seconds`` is only
a safety net), optionally the names of a rollout policy and an evaluation function in the game's
``deltav.games.<id>.heuristics`` module, and the documented decision-time budget (``budget``).

Resolution (:func:`preset_for`): the game's own entry if it has one, else ``default``. A preset whose agent is
``scripted`` falls back to its ``fallback`` entry while the game has no ``bots.BOTS["scripted"]``; a named
heuristic the game does not (yet) define falls back to uniformly random playouts (the preset's ``max_depth``
then ends playouts with ``state.returns()``). :func:`describe` reports which fallbacks are in force.

Budgets: *hard* must stay under 2 s per decision on a 2-core machine (its ``max_seconds`` cap is 1.8 s);
*normal* is capped at 0.6 s and the search fallback of *easy* at 0.3 s. The iteration counts are set from
measured iterations per second (``python -m deltav.agents.bench``; figures in ``docs/agents.md``) so that the
caps are rarely reached.

This module owns the preset table and its lookup only; it builds no agent (see :mod:`deltav.agents.registry`).
"""

from __future__ import annotations

import copy
import importlib
from typing import Any

LEVELS = ("easy", "normal", "hard")

#: Generic presets: random playouts at growing budgets. ``easy`` is the game's scripted bot when it has one.
_EASY_FALLBACK = {"agent": "ismcts", "params": {"iterations": 40, "max_depth": 10, "pool": 8, "max_seconds": 0.3}}
_DEFAULT: dict[str, dict[str, Any]] = {
    "easy": {
        "agent": "scripted",
        "fallback": _EASY_FALLBACK,
        "budget": "the scripted bot (a few ms); without one, ismcts 40 iterations, at most 0.3 s",
    },
    "normal": {
        "agent": "ismcts",
        "params": {"iterations": 120, "max_depth": 10, "pool": 16, "max_seconds": 0.6},
        "evaluation": "evaluate",
        "rollout": "rollout_policy",
        "budget": "ismcts 120 iterations over 16 sampled worlds, playouts of 10 decisions, at most 0.6 s",
    },
    "hard": {
        "agent": "ismcts",
        "params": {"iterations": 400, "max_depth": 10, "pool": 32, "max_seconds": 1.8},
        "evaluation": "evaluate",
        "rollout": "rollout_policy",
        "budget": "ismcts 400 iterations over 32 sampled worlds, playouts of 10 decisions, at most 1.8 s",
    },
}

PRESETS: dict[str, dict[str, dict[str, Any]]] = {
    "default": _DEFAULT,
    # Delta-V tactical: alternating turns, hidden identities in some scenarios. Its determinizer costs ~5 ms,
    # so the worlds come from a pool (measured 260 iterations/s with a pool, 100 without).
    "tactical": {
        "easy": _DEFAULT["easy"],
        "normal": {**_DEFAULT["normal"], "params": {"iterations": 60, "max_depth": 10, "pool": 16, "max_seconds": 0.6},
                   "budget": "ismcts 60 iterations over 16 sampled worlds, playouts of 10 decisions, at most 0.6 s"},
        "hard": {**_DEFAULT["hard"], "params": {"iterations": 240, "max_depth": 10, "pool": 32, "max_seconds": 1.8},
                 "budget": "ismcts 240 iterations over 32 sampled worlds, playouts of 10 decisions, at most 1.8 s"},
    },
    # Delta V mining: hidden tiles with a cheap exact determinizer: a fresh world every iteration (SO-ISMCTS),
    # the game's evaluation at the cap and its playout policy (measured 600-650 iterations/s).
    "mining": {
        "easy": _DEFAULT["easy"],
        "normal": {**_DEFAULT["normal"], "params": {"iterations": 150, "max_depth": 10, "max_seconds": 0.6},
                   "budget": "ismcts 150 iterations, fresh world each, playouts of 10 decisions, at most 0.6 s"},
        "hard": {**_DEFAULT["hard"], "params": {"iterations": 600, "max_depth": 10, "max_seconds": 1.8},
                 "budget": "ismcts 600 iterations, fresh world each, playouts of 10 decisions, at most 1.8 s"},
    },
    # Deep Space Combat: simultaneous secret plotting and hidden designs: decoupled UCT, mixed root choice,
    # short playouts scored by the game's evaluation (plot positions are slow: up to 10 ms per iteration).
    "deepspace": {
        "easy": _DEFAULT["easy"],
        "normal": {**_DEFAULT["normal"], "agent": "duct",
                   "params": {"iterations": 40, "max_depth": 4, "max_seconds": 0.6},
                   "budget": "duct 40 iterations, playouts of 4 decisions, at most 0.6 s"},
        "hard": {**_DEFAULT["hard"], "agent": "duct",
                 "params": {"iterations": 150, "max_depth": 4, "max_seconds": 1.8},
                 "budget": "duct 150 iterations, playouts of 4 decisions, at most 1.8 s"},
    },
    # Knight Hawks: alternating phases; a pool of sampled worlds (measured ~400 iterations/s).
    "knighthawks": {
        "easy": _DEFAULT["easy"],
        "normal": {**_DEFAULT["normal"], "params": {"iterations": 60, "max_depth": 10, "pool": 16, "max_seconds": 0.6},
                   "budget": "ismcts 60 iterations over 16 sampled worlds, playouts of 10 decisions, at most 0.6 s"},
        "hard": {**_DEFAULT["hard"], "params": {"iterations": 250, "max_depth": 10, "pool": 32, "max_seconds": 1.8},
                 "budget": "ismcts 250 iterations over 32 sampled worlds, playouts of 10 decisions, at most 1.8 s"},
    },
}


def preset_for(game_id: str, level: str) -> dict[str, Any]:
    """A copy of the preset table entry for ``game_id`` at ``level`` (``easy``, ``normal`` or ``hard``)."""
    if level not in LEVELS:
        raise KeyError(level)
    table = PRESETS.get(game_id, PRESETS["default"])
    return copy.deepcopy(table.get(level, PRESETS["default"][level]))


def game_module(game_id: str, name: str) -> Any | None:
    """``deltav.games.<game_id>.<name>`` if it exists, else None (other import errors propagate)."""
    full = f"deltav.games.{game_id}.{name}"
    try:
        return importlib.import_module(full)
    except ModuleNotFoundError as exc:
        if exc.name in (full, f"deltav.games.{game_id}"):
            return None
        raise


def heuristic(game_id: str, name: str | None) -> Any | None:
    """The callable ``name`` of the game's ``heuristics`` module, or None when it does not exist (yet)."""
    if not name:
        return None
    mod = game_module(game_id, "heuristics")
    fn = getattr(mod, name, None) if mod is not None else None
    return fn if callable(fn) else None
