"""Knight Hawks bots and the difficulty ladder.

``BOTS``: ``scripted``/``captain`` (:class:`ScriptedCaptain`, the *normal* level), ``cadet`` (:class:`Cadet`,
*easy*) and ``admiral`` (:class:`Admiral`, *hard*); ``PRESETS`` maps the levels to them (same schema as
``deltav.agents.presets``). Measurements: ``docs/bots-knighthawks.md``.

Every bot decides from its Decision only (its view, its legal actions, its rng and a world sampled from the
view by ``sample_world``) and sends only actions from its legal list.

- The scripted captain picks screens against the enemy's weapons, plots each ship's move by scoring a few
  turn patterns per speed (weapons bearing, range, map edge, break-up risk, the scenario's objective),
  assigns weapons to targets by expected damage, fires ICMs in proportion to the threat, evades torpedoes,
  activates seekers near enemies and spends DCR by repair priority.
- The cadet plays a beginner's plan: it charges, fires at whatever is nearest, wastes torpedoes, ignores
  screens, fires one ICM at anything and repairs the first thing listed.
- The admiral scores every move by the exact expected exchange of fire it leads to (``fire_exchange.py``) and
  assigns fire and ICMs by expected damage; raiders hunt the escorted ship, the escorted ship never lets its
  momentum carry it off the wrong edge (``escort.py``); in fleet battles its ships never end where their
  momentum must crash them into a planet or carry them off the map (``planet_safety.py``), weighing break-up risk
  more than the captain (see its docstring).
- The tactician (``bots/tactician.py``, not a preset) picks each movement phase's fleet plan by rollouts.

This module only assembles ``BOTS`` and ``PRESETS``; each bot lives in its own module (``scripted.py``, ``plans.py``,
``cadet.py``, ``admiral.py``, ``tactician.py``).
"""

from __future__ import annotations

from deltav.games.knighthawks.bots.admiral import Admiral
from deltav.games.knighthawks.bots.cadet import Cadet
from deltav.games.knighthawks.bots.scripted import ScriptedCaptain
from deltav.games.knighthawks.bots.tactician import Tactician

BOTS = {"scripted": ScriptedCaptain, "cadet": Cadet, "captain": ScriptedCaptain, "admiral": Admiral,
        "tactician": Tactician}

#: The difficulty ladder (same schema as ``deltav.agents.presets``; measurements in docs/bots-knighthawks.md).
PRESETS = {
    "easy": {"agent": "cadet", "params": {},
             "budget": "a beginner's plan (charge the nearest enemy, fire at the nearest target): a few ms"},
    "normal": {"agent": "captain", "params": {},
               "budget": "the scripted captain's heuristic plan: a few ms per decision"},
    "hard": {"agent": "admiral", "params": {},
             "budget": "expected-exchange scoring of every candidate move and shot, the raiders' hunt, the "
                       "escorted ship's two-turn momentum check, the fleet's planet/edge doom check and break-up "
                       "weight (no search tree): a few ms per decision, the slowest plotting decisions about 0.2 s"},
}
