"""The tactical AI's interface for the services that help players (issue 29, "AI apart from rules").

The astrogation assistant (``advise.py``: ``TacticalGame.advise``, the ``plan`` of the server's one advice
message ``suggest``) asks the AI for a course through this module and nothing else; code that serves players must
not import the bots' planner (``bots/routes.py``) or another AI module directly, so the AI's files can move and change
behind this interface (``tests/tactical/test_ai_apart.py`` checks the imports).

- :func:`plan_course`: the planner's fewest-turn course for one ship state to a goal within its fuel and
  ``depth`` turns, as ``((burn, land, weak), (position, velocity, pending, fuel, landed))`` per turn, or None.

It only forwards plain data: it holds no state and never reads a game state.
"""

from __future__ import annotations

from deltav.games.tactical.bots.routes import plan_route


def plan_course(gmap, position: tuple[int, int], velocity: tuple[int, int], pending: tuple, fuel: int | None,
                landed: bool, kind: str, goals: tuple, body: str | None, destroyed: frozenset, *, grazing: bool,
                takeoff_costs_fuel: bool, beam: int, depth: int, avoid: frozenset = frozenset()) -> tuple | None:
    """The fewest-turn course to ``goals`` (``kind``: ``land``, ``visit`` or ``reach``, the planner's), avoiding
    ending a move unlanded in ``avoid``; None when no course within ``depth`` turns and the fuel reaches it."""
    return plan_route(gmap, position, velocity, pending, fuel, landed, kind, goals, body, destroyed, grazing,
                      takeoff_costs_fuel, beam, depth, avoid=avoid)
