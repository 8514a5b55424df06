"""The Python side of the head-to-head harness against the reference Delta-V (docs/bots-tactical.md, "Head to head
on the reference's engine"): a persistent process that reads one JSON request a line on stdin and writes one JSON
answer a line on stdout. ``driver.ts`` (run with the reference's ``tsx``) is the referee and starts it.

Requests:
- ``{"op": "new_game", "seat": p, "seed": n, "spec": "hard", "rulings": {...}}``: a fresh agent for seat ``p``
  (``make_agent``), its own RNG seeded from ``n``, our rules options overridden by ``rulings`` on top of
  ``translate.REFERENCE_RULINGS``; answers ``{"ok": true}``.
- ``{"op": "decide", "seat": p, "state": {...}}``: the reference's state as seat ``p`` may see it (its
  ``filterStateForPlayer``). The state is translated (``translate.state_from_reference``), then our bot decides
  that phase in our engine: one decision at a time on the seat's view (``state.view(p)``, the bot never sees the
  translated state itself), each applied to the translated state to reach the next decision, until the phase
  changes or the seat no longer decides. Answers ``{"action": <the reference's order>, "cpu_ms": <the bot's CPU
  in act()>, "decisions": n}``, or ``{"error": "..."}`` when the state does not translate or the bot fails (the
  driver then skips the phase and counts it).
- ``{"op": "check", "pre": {...}, "orders": [...], "launches": [...], "emplacements": [...], "post": {...}}``
  (``driver.ts --check``): replays one player-turn's accepted orders in our engine and answers
  ``{"divergences": [...]}``, where our movement differs from the reference's (``translate.movement_divergences``).
- ``{"op": "quit"}``.

Tapes: with ``DELTAV_BRIDGE_TAPE=FILE`` in the environment every request line is also appended to FILE. The bot's
answers never change a later request, so ``python bridge.py < FILE`` replays the same decisions offline (no Node,
no reference checkout): the way to profile our side on the positions the reference's AI leads to
(``python -m cProfile -o OUT bridge.py < FILE > /dev/null``) and to check that a speed change keeps every answer
(``benchmarks/reference_match/tape.py``).

It owns nothing of either engine: the translation is translate.py's, the decisions the bot's.
"""

from __future__ import annotations

import json
import os
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "src"))
sys.path.insert(0, str(HERE))

import translate  # noqa: E402

from deltav.agents import make_agent  # noqa: E402
from deltav.core.heap import freeze_startup  # noqa: E402
from deltav.core.protocol import Decision  # noqa: E402
from deltav.core.rng import Rng, derive_seed  # noqa: E402

MAX_DECISIONS = 200  # per phase: a bot that never ends its phase is a fault, not a hang


class Seat:
    """One seat's bot for one game."""

    def __init__(self, seat: int, seed: int, spec: str, rulings: dict | None = None):
        self.seat = seat
        self.rulings = rulings or {}
        self.spec = spec
        self.agent = make_agent("tactical", spec)
        self.rng = Rng(derive_seed(seed, "seat", seat))

    def decide(self, ref: dict) -> dict:
        game = translate.game()
        state = translate.state_from_reference(ref, self.seat, self.rulings)
        opts = state.options
        phase = state.phase
        steps = []
        cpu = 0.0
        while (not state.is_terminal() and state.phase == phase and self.seat in state.current_players()
               and len(steps) < MAX_DECISIONS):
            view = state.view(self.seat)
            legal = list(state.legal_actions(self.seat))
            t0 = time.process_time()
            action = self.agent.act(Decision(game, self.seat, view, legal, self.rng, opts))
            cpu += time.process_time() - t0
            group = list(state.combat.group) if phase == "combat" and state.combat is not None else []
            steps.append((action, group))
            state.apply_action(self.seat, action)
        if len(steps) >= MAX_DECISIONS:
            raise RuntimeError(f"the bot did not end its {phase} phase in {MAX_DECISIONS} decisions")
        return {"action": translate.to_reference(phase, steps), "cpu_ms": cpu * 1000.0, "decisions": len(steps)}


def serve(lines, out) -> None:
    seats: dict[int, Seat] = {}
    tape_path = os.environ.get("DELTAV_BRIDGE_TAPE")
    tape = open(tape_path, "a", encoding="utf-8") if tape_path else None  # noqa: SIM115 (open for the whole run)
    for line in lines:
        if not line.strip():
            continue
        if tape is not None:
            tape.write(line if line.endswith("\n") else line + "\n")
        try:
            req = json.loads(line)
            op = req.get("op")
            if op == "quit":
                break
            if op == "new_game":
                seat = int(req["seat"])
                seats[seat] = Seat(seat, int(req["seed"]), req.get("spec", "hard"), req.get("rulings"))
                answer = {"ok": True}
            elif op == "decide":
                answer = seats[int(req["seat"])].decide(req["state"])
            elif op == "check":
                answer = {"divergences": translate.movement_divergences(
                    req["pre"], req["orders"], req.get("launches") or [], req.get("emplacements") or [], req["post"],
                    req.get("rulings"))}
            else:
                answer = {"error": f"unknown op {op!r}"}
        except Exception as exc:  # reported to the driver, which counts it and skips the phase
            answer = {"error": f"{type(exc).__name__}: {exc}", "trace": traceback.format_exc(limit=6)}
        out.write(json.dumps(answer) + "\n")
        out.flush()
    if tape is not None:
        tape.close()


if __name__ == "__main__":
    translate.game()  # every game module loaded before the heap is frozen, as a bot worker does
    freeze_startup()
    serve(sys.stdin, sys.stdout)
