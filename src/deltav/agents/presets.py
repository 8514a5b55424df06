"""Difficulty presets ``easy`` / ``normal`` / ``hard`` per game, as data.

A preset entry holds:

- ``agent``: ``mcts``, ``ismcts``, ``duct``, ``random`` or the name of a bot in the game's ``bots.BOTS``;
- ``params``: the agent's parameters (a search budget is an **iteration count**, so a seeded match replays
  exactly; ``max_seconds`` is only a safety net), or a bot's keyword arguments;
- ``epsilon`` (optional): the share of uniformly random moves mixed into the agent's choices;
- ``rollout``, ``evaluation``, ``prior`` (optional, search agents): the names of the playout policy, leaf
  evaluation and PUCT prior in the game's AI module ``deltav.games.<id>.bots.heuristics`` (``MODULE.NAME`` for a
  function of another AI module of the game, e.g. ``hard_policy.policy``), or ``bot:NAME`` for a bot of the game
  driving the playouts / giving the prior;
- ``fallback`` (optional): the entry used while the game has no bot of that name;
- ``phases`` and ``otherwise`` (optional): the agent decides only where the view's ``phase`` (or the view key
  ``phase_key``) is one of ``phases``; elsewhere the game's bot ``otherwise = {"agent": NAME, "params": {...}}``
  decides (:class:`~deltav.agents.gate.PhaseGate`: "search only the strategic decisions");
- ``budget``: the documented decision-time budget, in words.

Resolution (:func:`preset_for`): a level the game defines itself in ``deltav.games.<id>.bots.PRESETS`` (same
entry format) wins; otherwise this module's table for the game, else ``default``;
``deltav.agents.registry.resolve_preset`` applies the fallback and reports which heuristics were found. A named
heuristic the game does not (yet) define falls back to uniformly random playouts (the preset's ``max_depth``
then ends playouts with ``state.returns()``).

Budgets: *hard* must stay under 2 s per decision on a 2-core machine (search caps at 1.8 s); *normal* searches
cap at 0.6 s and the search fallback of *easy* at 0.3 s. The tables follow measurements
(``python -m deltav.agents.bench``; figures in ``docs/agents.md``): with the games' current heuristics the
scripted bots beat our generic search, so every game's ladder is its scripted bot, weakened at lower levels.

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
    """A copy of the preset entry for ``game_id`` at ``level`` (``easy``, ``normal`` or ``hard``): the game's
    own ``deltav.games.<id>.bots.PRESETS`` when it defines that level, else this module's table."""
    if level not in LEVELS:
        raise KeyError(level)
    mod = game_module(game_id, "bots")
    own = getattr(mod, "PRESETS", None) if mod is not None else None
    if isinstance(own, dict) and level in own:
        return copy.deepcopy(own[level])
    table = PRESETS.get(game_id, PRESETS["default"])
    return copy.deepcopy(table.get(level, PRESETS["default"][level]))


def game_module(game_id: str, name: str) -> Any | None:
    """``deltav.games.<game_id>.<name>`` if it exists, else None (other import errors propagate)."""
    full = f"deltav.games.{game_id}.{name}"
    try:
        return importlib.import_module(full)
    except ModuleNotFoundError as exc:
        if exc.name in (full, f"deltav.games.{game_id}", full.rsplit(".", 1)[0]):
            return None
        raise


def heuristic(game_id: str, name: str | None) -> Any | None:
    """The callable ``name`` of the game's AI module ``heuristics`` (``MODULE.NAME``: of its AI module
    ``MODULE``), or None when it does not exist (yet). A game's AI modules live in its ``bots`` package
    (``deltav.games.<id>.bots.heuristics``), and only there: a module beside the rules is never looked up."""
    if not name:
        return None
    module = "heuristics"
    if "." in name:
        module, name = name.rsplit(".", 1)
    mod = game_module(game_id, f"bots.{module}")
    fn = getattr(mod, name, None) if mod is not None else None
    return fn if callable(fn) else None
