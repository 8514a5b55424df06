"""Bots for Delta-V tactical: :class:`~.scripted.ScriptedBot` (``scripted``, the one-ply baseline) and
:class:`~.level_bot.LevelBot` (``level``, the easy / normal / hard ladder, tuned by the records of :mod:`.levels`;
docs/bots-tactical.md).

This module only assembles :data:`BOTS` and :data:`PRESETS`.
"""

from __future__ import annotations

from deltav.games.tactical.bots.level_bot import LevelBot
from deltav.games.tactical.bots.scripted import ScriptedBot

BOTS = {"scripted": ScriptedBot, "level": LevelBot}

#: Difficulty presets (schema of deltav.agents.presets): the ladder is LevelBot at three levels.
PRESETS = {
    "easy": {"agent": "level", "params": {"level": "easy"},
             "budget": "one-ply course scoring, 25% random safe orders, no overloads or ordnance: about 1 ms"},
    "normal": {"agent": "level", "params": {"level": "normal"},
               "budget": "one-ply course scoring with a survival check, exact-odds attacks: about 1 ms"},
    "hard": {"agent": "level", "params": {"level": "hard"},
             "budget": "planner (beam 48 x 16 turns, cached) + two-ply gun tactics over 43 x 43 courses + "
                       "intercept plan (beam 60 x 6 moves, per colonist carrier up to 2) when chasing a runner + "
                       "one-move landing look-ahead (7 x 2 courses per course): a few ms, at most ~0.4 s"},
}
