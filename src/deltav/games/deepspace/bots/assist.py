"""The Deep Space Combat AI's interface for the services that help players (issue 29, "AI apart from rules").

The notes on legal actions (``annotate.py``: ``DeepSpaceGame.annotate_legal``) show the odds of a shot at an
enemy ship whose design is secret; for that they ask the AI for its neutral guess of the ship's stats through
this module and nothing else. Code that serves players must not import another AI module (``bots/heuristics.py``,
``bots/lookahead.py``, ``bots/opponent.py``) directly, so the AI's files can move and change behind this interface
(``tests/conformance/test_ai_apart.py`` checks the imports). The exact dice odds are rules, not AI: ``odds.py``.

- :func:`estimated_enemy_stats`: ``(thrust, evasion, endurance, weapons)`` of an enemy ship's view record,
  guessed from public facts only (its size, the hit points it took, what it was seen doing).

It only forwards plain data: it holds no state and never reads a game state.
"""

from __future__ import annotations

from deltav.games.deepspace.bots.heuristics import estimated_enemy_stats

__all__ = ["estimated_enemy_stats"]
