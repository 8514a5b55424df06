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

def _scripted_ladder(game: str, measured: str) -> dict[str, dict[str, Any]]:
    """The ladder of a game whose scripted bot beats our generic search at a playable budget (measured): the
    scripted bot with fewer random moves at each level. Search stays available as ``mcts``/``ismcts``/``duct``."""
    note = f" (search measured weaker than the scripted bot: {measured})"
    return {
        "easy": {"agent": "scripted", "epsilon": 0.7, "fallback": _EASY_FALLBACK,
                 "budget": "scripted bot, 70% random moves: a few ms" + note},
        "normal": {"agent": "scripted", "epsilon": 0.3, "fallback": _DEFAULT["normal"],
                   "budget": "scripted bot, 30% random moves: a few ms" + note},
        "hard": {"agent": "scripted", "fallback": _DEFAULT["hard"],
                 "budget": "scripted bot: a few ms" + note},
    }


PRESETS: dict[str, dict[str, dict[str, Any]]] = {
    "default": _DEFAULT,
    # Delta-V tactical: ISMCTS (pool of 16 worlds, scripted-bot playouts) won 1 of 4 against the scripted bot
    # and took up to 9 s; with random playouts it lost 8 of 9 scenarios.
    "tactical": _scripted_ladder("tactical", "ismcts won 1 of 4 and 1 of 9 matches"),
    # Delta V mining: the levels forget, as a human does (design note 3.1): the scripted bot forgets each
    # remembered square with probability 0.4 (easy) or 0.15 (normal) per turn; hard remembers everything.
    # SO-ISMCTS with the game's policy and evaluation (300 iterations) only drew level with the scripted bot
    # (7-7), so it is not the hard level yet.
    "mining": {
        "easy": {"agent": "scripted", "params": {"forget": 0.4}, "fallback": _EASY_FALLBACK,
                 "budget": "scripted bot forgetting 40% of its memory per turn: a few ms"},
        "normal": {"agent": "scripted", "params": {"forget": 0.15}, "fallback": _DEFAULT["normal"],
                   "budget": "scripted bot forgetting 15% of its memory per turn: a few ms"},
        "hard": {"agent": "scripted", "fallback": _DEFAULT["hard"],
                 "budget": "scripted bot with perfect memory: a few ms"},
    },
    # Deep Space Combat: decoupled UCT with scripted-bot playouts won 1 of 6 against the scripted bot.
    "deepspace": _scripted_ladder("deepspace", "duct won 1 of 6 matches"),
    # Knight Hawks: ISMCTS with scripted-bot playouts won 1 of 4 against the scripted bot (seat-dominated).
    "knighthawks": _scripted_ladder("knighthawks", "ismcts won 1 of 4 matches"),
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
