"""The Knight Hawks *easy* level: :class:`Cadet`, a beginner's plan on the scripted captain.

Owns: the cadet bot only.
"""

from __future__ import annotations

from deltav.core import hexgrid
from deltav.core.agent import Param
from deltav.core.protocol import Decision
from deltav.games.knighthawks import messages as m
from deltav.games.knighthawks.bots import heuristics as hx
from deltav.games.knighthawks.bots.scripted import ScriptedCaptain, _Still


class Cadet(ScriptedCaptain):
    """The easy level: a beginner's plan. Charges the nearest enemy (straight or one turn, whatever the arcs
    say), fires every weapon at the nearest target it can reach (torpedoes too, whatever the odds), fires one
    ICM at anything and never evades, leaves its screens alone and repairs whatever comes first. It still
    plays the scenario's objective (an escort runs for its edge). ``epsilon`` (default 0: none) makes it
    also forget a share of its decisions (a random legal action instead)."""

    name = "cadet"
    #: the spec parameters and their bounds (``epsilon`` is also the registry's: ``bot:cadet:epsilon=0.2``)
    PARAMS = {"epsilon": Param(float, 0.0, "the share of random moves", minimum=0.0, maximum=1.0)}

    def __init__(self, epsilon: float = 0.0) -> None:
        super().__init__()
        self.epsilon = epsilon

    def act(self, decision: Decision):
        legal = decision.legal_actions
        if self.epsilon and len(legal) > 1 and decision.rng.random() < self.epsilon:
            return legal[decision.rng.below(len(legal))]
        return super().act(decision)

    def _screen_wish(self, world, sh, p: int) -> str | None:
        return None

    def _plot(self, world, p: int, sh, options: list):
        best = None
        foes = [s.pos for s in world.ships if s.owner != p and s.status == 0]
        for a in options:
            if a.speed == 0:
                cands = [((), _Still(sh.pos, a.facing))]
            else:
                cands = [(t, st) for t, st in hx.plans(world, sh, a.speed, a.facing, sh.navdir if sh.nav else 0,
                                                       sh.evading and sh.mr > 0) if sum(1 for x in t if x) <= 1]
            for turns, st in cands:
                if st.end == "exit" and not (world.victory.get("kind") == "exit"
                                             and world.victory.get("ship") == sh.id):
                    continue
                near = min((hexgrid.distance(st.pos, f) for f in foes), default=0)
                score = -near + self._objective_bonus(world, sh, st, a.speed, p)
                edge = world.map.radius - hexgrid.length(st.pos)
                if edge < 2:
                    score -= 3 * (2 - edge)
                key = (score, -a.speed)
                if best is None or key > best[0]:
                    best = (key, a, turns)
        return self._commit(sh, best, options)

    def _fire(self, world, p: int, legal: list):
        best = None
        for a in legal:
            if not isinstance(a, m.Assign):
                continue
            d = hexgrid.distance(world.ship(a.ship).pos, world.ship(a.target).pos)
            key = (d, a.ship, a.weapon, a.target)
            if best is None or key < best[0]:
                best = (key, a)
        if best is not None:
            return best[1]
        return m.Fire() if m.Fire() in legal else legal[0]

    def _intercept(self, world, legal: list):
        want = m.Intercept(1, False)
        return want if want in legal else m.Intercept(0, False) if m.Intercept(0, False) in legal else legal[0]

    def _repair(self, world, p: int, legal: list):
        reps = [a for a in legal if isinstance(a, m.Repair)]
        if not reps:
            return m.EndRepair()
        first = reps[0]
        return max((a for a in reps if a.ship == first.ship and a.target == first.target), key=lambda a: a.points)
