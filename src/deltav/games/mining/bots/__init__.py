"""Delta V mining bots: the scripted bot (:mod:`.scripted`) and the difficulty ladder as data.

*easy* and *normal* are the scripted bot forgetting part of what it saw; *hard* is the generic SO-ISMCTS of
``deltav.agents`` with this game's plan policy and prior (``hard_policy.policy``, ``hard_policy.prior``) and evaluation
(``heuristics.evaluate``), searching only the strategic decisions (``hard_policy.SEARCHED``; the scripted bot with
perfect memory decides the rest). Measurements: ``docs/bots-mining.md``.

This module only assembles :data:`BOTS` and :data:`PRESETS`.
"""

from __future__ import annotations

from deltav.games.mining.bots.hard_policy import SEARCHED
from deltav.games.mining.bots.scripted import ForgetfulAgent, ScriptedAgent

BOTS = {"scripted": ScriptedAgent, "scripted-forgetful": ForgetfulAgent}

#: Difficulty presets (the schema of ``deltav.agents.presets``). The levels differ the way players do:
#: *easy* forgets much of what it saw, *normal* plays the scripted plan with a good human memory, *hard*
#: remembers everything and looks ahead with SO-ISMCTS over sampled worlds at its strategic decisions.
#: Measured in ``docs/bots-mining.md``.
PRESETS = {
    "easy": {
        "agent": "scripted",
        "params": {"forget": 0.4},
        "budget": "scripted bot forgetting each remembered square with probability 0.4 per turn: under 1 ms",
    },
    "normal": {
        "agent": "scripted",
        "params": {"forget": 0.1},
        "budget": "scripted bot forgetting each remembered square with probability 0.1 per turn: under 1 ms",
    },
    "hard": {
        "agent": "ismcts",
        "params": {"iterations": 80, "max_depth": 8, "pool": 16, "c": 1.0, "c_prior": 0.5, "max_seconds": 1.8},
        "rollout": "hard_policy.policy",
        "prior": "hard_policy.prior",
        "evaluation": "evaluate",
        "phases": SEARCHED,
        "otherwise": {"agent": "scripted"},
        "budget": "perfect memory; SO-ISMCTS with 80 iterations over 16 sampled worlds, playouts of 8 decisions, "
                  "at the strategic decisions only (tens of ms each, the rest under 1 ms; measured mean 6 ms per "
                  "decision at 2 players, 7 ms at 4, slowest 0.03 s); 1.8 s safety cap",
    },
}
