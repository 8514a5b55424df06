"""Rollout policy improvement for the Deep Space Combat planner (the ``hard`` level): a few candidate choices
for one decision (a whole side's plot, or the stats a damaged ship keeps), each played out in the same sampled
worlds with the scripted (normal) bot's policy for every side, and scored by the outcome.

How it works (the rollout algorithm of Tesauro and Bertsekas, over the scripted base policy):

- **Worlds** (:class:`Bank`): ``n`` determinizations of the view (``decision.sample_world``), the enemy ships'
  stats replaced by the planner's particles (the scenario's public fleet when it names one). Each world keeps
  its own dice seed, and every candidate is played out in a clone of the same world with the same seed (common
  random numbers): the candidates are compared on the same luck.
- **Play-out**: the candidate fixes the deciding player's choices for the current phase of the current round;
  everything else, both sides, is the scripted bot, until the game ends or ``horizon`` more rounds have been
  played. Score: +1 / -1 / 0 at the end of the game, else the material share of ``heuristics.evaluate``.
- **Choice** (:meth:`Bank.choose`): the candidate with the best mean wins only if it beats the base candidate
  (the planner's own choice, listed first) by more than ``margin`` standard errors of the paired differences;
  otherwise the base candidate stands. So the search corrects the planner where the play-outs clearly disagree
  and never replaces it on noise.

Budgets are counts (worlds, rounds), so matches replay exactly. This module owns play-outs only: it works on
sampled worlds (clones) and never touches the game state a bot is deciding in.
"""

from __future__ import annotations

import math

from deltav.core.protocol import Decision
from deltav.core.rng import Rng
from deltav.games.deepspace import damage as dmg
from deltav.games.deepspace.heuristics import evaluate
from deltav.games.deepspace.messages import (
    Allocate,
    AutoAllocate,
    Done,
    Fire,
    SetVelocity,
    VelocityColumn,
    Withdraw,
)
from deltav.games.deepspace.sampler import strip_levels


class Bank:
    """``n`` sampled worlds with fixed dice seeds for comparing candidates of one decision."""

    def __init__(self, decision, parts: dict[str, list[list[int]]], n: int, horizon: int):
        from deltav.games.deepspace.bots import ScriptedBot

        self.game = decision.game
        self.me = decision.player
        self.horizon = horizon
        self.policy = ScriptedBot
        self.worlds = []
        seeds = [decision.rng.next64() for _ in range(2 * n)]
        for i in range(n):
            w = decision.sample_world(Rng(seeds[2 * i]))
            for sid, plist in parts.items():
                try:
                    ship = w.ship(sid)
                except (KeyError, IndexError):
                    continue
                ship.lv = list(plist[i % len(plist)])
                ship.partial = [0, 0, 0]
            self.worlds.append((w, seeds[2 * i + 1]))

    def playout(self, world, seed: int, choose) -> float:
        """Value for the deciding player of one play-out: ``choose(state, legal)`` gives the deciding player's
        actions in the current phase (None: the scripted bot decides), then the scripted bot for everyone."""
        s = world.clone()
        s.rng = Rng(seed)
        me = self.me
        bots = [self.policy() for _ in range(s.num_players)]
        rng = Rng(seed ^ 0x5DEECE66D)
        start_round, start_phase = s.round, s.phase
        last = start_round + self.horizon
        steps = 0
        while not s.is_terminal() and s.round <= last and steps < 4000:
            steps += 1
            chosen = []
            for p in s.current_players():
                legal = s.legal_actions(p)
                a = None
                if p == me and s.round == start_round and s.phase == start_phase:
                    a = choose(s, legal)
                    if a is not None and a not in legal:
                        a = None
                if a is None:
                    a = bots[p].act(Decision(self.game, p, s.view(p), legal, rng))
                chosen.append((p, a))
            for p, a in chosen:
                if s.is_terminal():
                    break
                s.apply_action(p, a)
        if s.is_terminal():
            return float(s.returns()[me])
        return evaluate(s, me)

    def values(self, choose) -> list[float]:
        return [self.playout(w, seed, choose) for w, seed in self.worlds]

    def choose(self, candidates: list, make_choose, margin: float = 1.0) -> tuple[int, list[float]]:
        """Index of the candidate to play (0, the base, unless another beats it clearly) and the means."""
        vals = [self.values(make_choose(c)) for c in candidates]
        means = [sum(v) / len(v) for v in vals]
        best = 0
        best_edge = 0.0
        n = len(vals[0])
        for i in range(1, len(candidates)):
            diff = [a - b for a, b in zip(vals[i], vals[0])]
            m = sum(diff) / n
            var = sum((d - m) ** 2 for d in diff) / max(1, n - 1)
            se = math.sqrt(var / n) if n > 1 else float("inf")
            edge = m - margin * se
            if m > 0 and edge > 0 and m > best_edge:
                best, best_edge = i, m
        return best, means


# --- candidates -------------------------------------------------------------------------------------------


def plan_chooser(plan: dict):
    """``choose(state, legal)`` that plays a whole-side plot ``{ship: (velocity, {weapon: target})}``."""

    def choose(s, legal):
        first = legal[0]
        if isinstance(first, SetVelocity | VelocityColumn | Withdraw):
            sid = first.ship
            if sid not in plan:
                return None
            v = plan[sid][0]
            if isinstance(first, VelocityColumn) or any(isinstance(a, VelocityColumn) for a in legal):
                return VelocityColumn(sid, v[0])
            return SetVelocity(sid, v[0], v[1])
        if isinstance(first, Fire):
            sid = first.ship
            if sid not in plan:
                return None
            return Fire(sid, first.weapon, plan[sid][1].get(first.weapon))
        if isinstance(first, Done) or any(isinstance(a, Done) for a in legal):
            return Done()
        return None

    return choose


def step_toward(size: int, lv, partial, remaining: int, mode: str, target) -> tuple[int, int] | None:
    """The next allocation step ``(slot, hp)`` toward keeping ``target`` (whole levels off a slot above its
    target), or None when no such step is legal."""
    for k, (have, want) in enumerate(zip(lv, target)):
        if have > want:
            hp = min(remaining, (have - want) * dmg.slot_cost(k, size))
            if hp > 0 and dmg.is_legal(size, lv, partial, remaining, k, hp, mode):
                return (k, hp)
            cost = dmg.slot_cost(k, size)
            if remaining >= cost and dmg.is_legal(size, lv, partial, remaining, k, cost, mode):
                return (k, cost)
    return None


def allocation_chooser(sid: str, target):
    """``choose(state, legal)`` that allocates ship ``sid``'s hit points toward keeping ``target`` (the default
    allocation for what is left), and lets the scripted bot allocate the other ships."""

    def choose(s, legal):
        first = legal[0]
        if not isinstance(first, Allocate | AutoAllocate) or first.ship != sid:
            return None
        ship = s.ship(sid)
        mode = s.opts["leftover_damage"]
        step = step_toward(ship.size, ship.lv, ship.partial, ship.pending, mode, target) if target else None
        if step is None:
            return AutoAllocate(sid)
        stat, weapon = dmg.slot_name(step[0])
        return Allocate(sid, stat, weapon, step[1])

    return choose


def allocation_candidates(size: int, lv, remaining: int, mode: str, planned) -> list:
    """Distinct stat slots to keep after ``remaining`` hit points: the planner's choice first (``planned``), then
    the default allocation, keeping the weapons (ship stats lost first), keeping the ship stats (weapons lost
    first), and keeping thrust and weapons (evasion and endurance lost first)."""
    out = []

    def add(t):
        if t is not None and list(t) not in out:
            out.append(list(t))

    add(planned)
    default = list(lv)
    partial = [0, 0, 0]
    for slot, hp in dmg.default_plan(size, default, partial, remaining, mode):
        dmg.apply(size, default, partial, slot, hp, mode)
    add(default)
    nslots = len(lv)
    ship_first = sorted(range(3), key=lambda k: -lv[k]) + list(range(3, nslots))
    weapons_first = list(range(3, nslots)) + sorted(range(3), key=lambda k: -lv[k])
    defences_first = [1, 2] + list(range(3, nslots)) + [0]
    for order in (ship_first, weapons_first, defences_first):
        add(strip_levels(size, lv, remaining, order, mode))
    return out
