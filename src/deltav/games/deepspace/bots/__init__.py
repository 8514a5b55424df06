"""Deep Space Combat bots: the difficulty ladder ``easy`` = :class:`~.cadet.CadetBot`, ``normal`` =
:class:`~.scripted.ScriptedBot`, ``hard`` = :class:`~.planner_bot.PlannerBot` (measurements in
``docs/bots-deepspace.md``). Every bot decides from its ``Decision`` only and never sends an action outside the
legal list.

This module only assembles :data:`BOTS` (name -> class) and :data:`PRESETS` (the levels, as data in the schema of
``deltav.agents.presets``).
"""

from __future__ import annotations

from deltav.games.deepspace.bots.cadet import CadetBot
from deltav.games.deepspace.bots.planner_bot import PlannerBot
from deltav.games.deepspace.bots.scripted import ScriptedBot

BOTS = {"scripted": ScriptedBot, "cadet": CadetBot, "planner": PlannerBot}

#: The difficulty ladder (same entry schema as ``deltav.agents.presets``): levels differ in what they think
#: about, not in random noise. Budgets are counts (sampled worlds), so a seeded match replays exactly.
PRESETS = {
    "easy": {
        "agent": "cadet",
        "params": {},
        "budget": "cadet bot (charges the nearest enemy, fires at the nearest, default allocation, never "
                  "self-destructs, the scripted design): under 1 ms per decision",
    },
    "normal": {
        "agent": "scripted",
        "params": {},
        "budget": "scripted bot (one-ship expected-damage plotting, greedy expected-damage targeting): about "
                  "1 ms per decision",
    },
    "hard": {
        "agent": "planner",
        "params": {"particles": 8},
        "budget": "planner: 8 particles per enemy ship (the scenario's public fleet, else 8 sampled worlds); "
                  "one whole-side plan per round (enemy moves predicted, candidate velocities x exact-odds "
                  "target assignment), 0.01-0.5 s at a round's first plot step, a few ms otherwise",
    },
}
