"""The Deep Space Combat ``easy`` level: :class:`CadetBot`, a short-sighted player built on the scripted bot.

This module owns the cadet bot only.
"""

from __future__ import annotations

from deltav.core.hexgrid import distance
from deltav.games.deepspace.bots.scripted import ScriptedBot
from deltav.games.deepspace.choices import velocity_actions
from deltav.games.deepspace.messages import AutoAllocate, SelfDestruct, SetVelocity, VelocityColumn


class CadetBot(ScriptedBot):
    """The ``easy`` level: a short-sighted player. It charges straight at the nearest enemy, fires every weapon
    at the nearest enemy whatever the odds, lets the default allocation place its damage and never
    self-destructs. No random moves: it is weak the way a beginner is, predictably."""

    name = "cadet"

    def _velocity(self, view, me, legal):
        mine, enemies = self._ships(view, me)
        ship = mine[legal[0].ship]
        if not enemies:
            return super()._velocity(view, me, legal)
        pos = ship["pos"]
        near = min(enemies, key=lambda e: (distance(pos, e[0]["pos"]), e[0]["id"]))[0]["pos"]
        cands = [a for a in legal if isinstance(a, SetVelocity)]
        if isinstance(legal[0], VelocityColumn):
            cands = list(velocity_actions(ship["id"], tuple(ship["vel"]), ship["thrust"]))
        if not cands:
            return legal[0]
        return min(cands, key=lambda a: (distance((pos[0] + a.dq, pos[1] + a.dr), near), abs(a.dq) + abs(a.dr),
                                         a.dq, a.dr))

    def _fire(self, view, me, legal):
        mine, enemies = self._ships(view, me)
        pos = mine[legal[0].ship]["pos"]
        ids = {s["id"]: s["pos"] for s, *_ in enemies}
        shots = [a for a in legal if a.target in ids]
        if not shots:
            return legal[0]
        return min(shots, key=lambda a: (distance(pos, ids[a.target]), a.target))

    def _allocate(self, view, legal):
        return next((a for a in legal if isinstance(a, AutoAllocate)), legal[0])

    def _destruct(self, view, me, legal):
        return SelfDestruct(legal[0].ship, False)
