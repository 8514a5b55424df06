"""The rollout bot of Knight Hawks: policy improvement over the scripted plans at the fleet level.

At the start of each of its movement phases the tactician chooses *how its whole fleet moves this phase*
among a few complete fleet plans (the scripted captain's plan, the admiral's expected-exchange plan, a charge,
a cautious stand-off, ...). Each plan is played in ``rollouts`` worlds sampled from the view
(``decision.sample_world``, never the true state) for the rest of the phase, then both sides play the
scripted captains' policy until the tactician's next movement phase (``horizon`` full game turns), and the
resulting position is scored (material, decided games as the whole of both fleets, plus the scenario's
objective). Common random numbers: every plan sees the same sampled worlds and the same dice seeds, and plans
that produce the same movement share their rollouts. The scripted captain's plan is the base: another plan is
chosen only when its mean beats the base's by ``z`` standard errors of the paired differences (Bertsekas'
rollout algorithm with a guard against noise). The chosen plan then plays the phase's decisions (screens,
plots, mines) in the real game; fire, ICMs and repairs follow ``fire`` (the captain's or the admiral's).

Owns: the tactician bot. Must not reach into the true game state (everything comes from its Decision).
"""

from __future__ import annotations

from deltav.core.agent import Agent, Param
from deltav.core.errors import IllegalAction
from deltav.core.protocol import Decision
from deltav.core.rng import Rng
from deltav.games.knighthawks.bots import fire_exchange as fx
from deltav.games.knighthawks.bots.admiral import Admiral
from deltav.games.knighthawks.bots.scripted import ScriptedCaptain


def _plan_bots() -> dict:
    return {
        "captain": lambda: ScriptedCaptain(),
        "exchange": lambda: Admiral(move="exchange", fleet_limit=0),
        "charge": lambda: ScriptedCaptain(closing=1.5),
        "standoff": lambda: ScriptedCaptain(closing=0.0, caution=0.5),
        "cautious": lambda: ScriptedCaptain(caution=0.3),
        "admiral": lambda: Admiral(fleet_limit=0),
        "hunter": lambda: Admiral(move="exchange", hunt=1.5, fleet_limit=0),
    }


def evaluate(state, player: int) -> float:
    """The value of a rolled-out state for ``player``: ``fire_exchange.outcome_value`` (material in points, a decided
    game as the whole of both fleets), plus, in escort scenarios, the escorted ship's progress toward its
    edge (a point per hex for its side)."""
    v = fx.outcome_value(state, player)
    vic = state.victory
    if vic.get("kind") == "exit" and not state.is_terminal():
        sh = state.ship(vic["ship"])
        if sh.status == 0:
            edge = vic.get("edge", "any")
            q = sh.pos[0]
            prog = q if edge == "east" else -q if edge == "west" else 0
            v += prog if sh.owner == player else -prog
    return v


class Tactician(Agent):
    """Hard-level bot: chooses each movement phase's fleet plan by rollouts (see the module docstring).

    Parameters (``bot:tactician:rollouts=6``): ``plans`` (plan names joined by ``+``, the first is the base:
    ``captain``, ``exchange``, ``charge``, ``standoff``, ``cautious``, ``admiral``), ``rollouts`` (sampled
    worlds per plan), ``horizon`` (game turns simulated after the phase), ``z`` (how many standard errors a
    plan must beat the base by), ``fire`` (``captain`` or ``admiral``: who fires, intercepts and repairs)."""

    name = "tactician"
    #: the spec parameters (``bot:tactician:rollouts=6``) and their bounds
    PARAMS = {
        "plans": Param(str, "captain+exchange+charge+standoff", "the plans weighed, joined by +; the first is the base"),
        "rollouts": Param(int, 4, "sampled worlds played out per plan", minimum=1, maximum=64),
        "horizon": Param(int, 1, "game turns simulated after the phase", minimum=0, maximum=8),
        "z": Param(float, 0.5, "standard errors a plan must beat the base by", minimum=-10.0, maximum=10.0),
        "fire": Param(str, "captain", "who fires, intercepts and repairs", choices=("captain", "admiral")),
    }

    def __init__(self, plans: str = "captain+exchange+charge+standoff", rollouts: int = 4, horizon: int = 1,
                 z: float = 0.5, fire: str = "captain") -> None:
        table = _plan_bots()
        self.plan_names = [x for x in str(plans).replace("+", ",").split(",") if x]
        for x in self.plan_names:
            if x not in table:
                raise ValueError(f"unknown plan {x!r}: one of {sorted(table)}")
        if fire not in ("captain", "admiral"):
            raise ValueError(f"fire must be captain or admiral, not {fire!r}")
        self.rollouts = int(rollouts)
        self.horizon = int(horizon)
        self.z = float(z)
        self._table = table
        self._bots = {x: table[x]() for x in self.plan_names}
        self._fire = table[fire]()
        self._phase: tuple | None = None
        self._mover = self._bots[self.plan_names[0]]
        self.last_choice: str | None = None
        self.last_values: dict[str, float] = {}

    def act(self, decision: Decision):
        legal = decision.legal_actions
        view = decision.view
        p = decision.player
        if view.get("stage") == "move" and view.get("mover") == p:
            if len(legal) == 1 and self._phase == (view["turn"], view["half"]):
                return legal[0]
            key = (view["turn"], view["half"])
            if key != self._phase:
                self._phase = key
                name = self._choose(decision) if len(self.plan_names) > 1 and self.rollouts > 0 else None
                self._mover = self._bots[name or self.plan_names[0]]
            return self._mover.act(decision)
        if len(legal) == 1:
            return legal[0]
        return self._fire.act(decision)

    # --- the rollouts ------------------------------------------------------------------------------------
    def _choose(self, decision: Decision) -> str:
        p = decision.player
        seeds = [decision.rng.next64() for _ in range(self.rollouts)]
        worlds = [decision.sample_world(Rng(sd)) for sd in seeds]
        values: dict[str, list[float]] = {}
        cache: list[dict] = [{} for _ in worlds]
        for name in self.plan_names:
            vals = []
            for i, (sd, w0) in enumerate(zip(seeds, worlds)):
                w = w0.clone()
                w.rng = Rng(sd)
                bot = self._table[name]()
                ok = self._play_phase(w, p, bot)
                if not ok:
                    vals.append(-1e9)
                    continue
                sig = _signature(w)
                v = cache[i].get(sig)
                if v is None:
                    self._play_on(w, p)
                    v = evaluate(w, p)
                    cache[i][sig] = v
                vals.append(v)
            values[name] = vals
        base = self.plan_names[0]
        best, best_key = base, 0.0
        n = len(seeds)
        for name in self.plan_names[1:]:
            diffs = [a - b for a, b in zip(values[name], values[base])]
            mean = sum(diffs) / n
            var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
            se = (var / n) ** 0.5
            if mean > self.z * se and mean > best_key:
                best, best_key = name, mean
        self.last_choice = best
        self.last_values = {k: sum(v) / n for k, v in values.items()}
        return best

    def _play_phase(self, w, p: int, bot) -> bool:
        """Our movement phase in world ``w`` with ``bot``'s plan (the enemy answers any decision in it with
        the captain's policy). False when the plan is refused (it should not be)."""
        other = ScriptedCaptain()
        turn, half = w.turn, w.half
        steps = 0
        try:
            while (not w.is_terminal() and w.stage == "move" and w.mover == p and (w.turn, w.half) == (turn, half)
                   and steps < 400):
                q = w.current_players()[0]
                legal = w.legal_actions(q)
                a = fx.policy_action(bot if q == p else other, w, q, legal)
                w.apply_action(q, a)
                steps += 1
        except IllegalAction:
            return False
        return True

    def _play_on(self, w, p: int) -> None:
        """Both sides play the scripted captains' policy for ``horizon`` game turns (to our movement phase)."""
        fire = type(self._fire)
        for _ in range(max(1, self.horizon)):
            if w.is_terminal():
                return
            bots = [ScriptedCaptain(), ScriptedCaptain()]
            if fire is not ScriptedCaptain:
                bots[p] = self._table["admiral"]()
                bots[p].move = "scripted"
            fx.play_until_next_move(w, p, tuple(bots))


def _signature(w) -> tuple:
    """The position after our movement phase (ships, traps, dice state): equal signatures roll out alike."""
    ships = tuple((s.id, s.pos, s.facing, s.speed, s.status, s.dmg, s.screen, s.ms_turns) for s in w.ships)
    return ships, tuple(repr(x) for x in w.mines), w.rng.to_json(), w.stage, w.fire_mode

