"""Delta-V tactical engine benchmarks: cost per player-turn, per course preview, random-playout steps/s and
clones/s, per scenario. Prints a table and a JSON document.

    .venv/bin/python benchmarks/bench_tactical.py            # every scenario, ~2 s each
    .venv/bin/python benchmarks/bench_tactical.py duel 5     # one scenario, 5 s per measurement

Measures (all single-threaded, engine only, no bot thinking; CPU time of this process, so that other work on the
machine does not inflate the figures):

- ``turn_ms``: one player-turn through the protocol: ``legal_actions`` enumerated for every decision, one random
  legal order per ship, then the end of astrogation (movement, post-movement steps) and every later phase ended
  (ordnance, combat and logistics skipped), as a game's engine work between two bots. Compare with the
  reference engine's 0.2-0.9 ms per player-turn (design/tactical.md 4.2).
- ``turn_direct_ms``: the same player-turn with orders validated and applied but without enumerating the legal
  actions (what a server applying a client's orders pays).
- ``preview_us``: one ``preview_course`` (validation + course) on a random own ship and a random legal order.
- ``steps_per_s``: random playouts (uniform over ``legal_actions``), decisions per second.
- ``clones_per_s``: ``clone()`` of mid-game states.
- ``reach_ms``: the reach shadow (``reach.reach_shadow``, issue 26) of the seat to move, from a fresh view of a
  mid-game state (the view built, determinized, every seen enemy ship's orders previewed).
"""

from __future__ import annotations

import json
import sys
import time

from deltav.core.rng import Rng
from deltav.games import load_all
from deltav.games.tactical import preview_course
from deltav.games.tactical.astrogation_phase import order_options
from deltav.games.tactical.courses import orderable
from deltav.games.tactical.messages import EndAstrogation, EndCombat, EndLogistics, EndOrdnance, Order

GAME = load_all()["tactical"]
ENDERS = {"ordnance": EndOrdnance(), "combat": EndCombat(), "logistics": EndLogistics()}


def mid_game_states(scenario: str, count: int, seed: int = 0) -> list:
    """States at the start of an astrogation phase, reached by random play (fleet building done randomly)."""
    out = []
    k = 0
    while len(out) < count and k < count * 50:
        s = GAME.new_initial_state({"scenario": scenario}, seed + k)
        r = Rng(seed + k)
        k += 1
        target = r.below(12)
        while not s.is_terminal():
            if s.phase == "astrogation" and s.turn >= target // 2 and not s.orders:
                out.append(s.clone())
                break
            p = s.current_players()[0]
            s.apply_action(p, r.choice(s.legal_actions(p)))
    return out


def _finish_turn(s, p) -> None:
    while not s.is_terminal() and s.active_player == p and s.phase in ENDERS:
        s.apply_action(p, ENDERS[s.phase])


def bench_turn(states, seconds: float, enumerate_legal: bool) -> float:
    r = Rng(1)
    n = 0
    total = 0.0
    t_end = time.process_time() + seconds
    while time.process_time() < t_end:
        for base in states:
            s = base.clone()
            s._opts = {}
            p = s.active_player
            ships = [sh for sh in s.ships if sh.owner == p and orderable(sh)]
            if not enumerate_legal:
                picks = [r.choice(order_options(s, sh)) for sh in ships]
                s._opts = {}
            t0 = time.process_time()
            if enumerate_legal:
                for _ in ships:
                    legal = [a for a in s.legal_actions(p) if isinstance(a, Order)]
                    if not legal:
                        break
                    s.apply_action(p, r.choice(legal))
                s.legal_actions(p)
            else:
                for o in picks:
                    s.apply_action(p, o)
            s.apply_action(p, EndAstrogation())
            _finish_turn(s, p)
            total += time.process_time() - t0
            n += 1
    return 1000.0 * total / max(1, n)


def bench_preview(states, seconds: float) -> float:
    r = Rng(2)
    n = 0
    total = 0.0
    t_end = time.process_time() + seconds
    while time.process_time() < t_end:
        for s in states:
            ships = [sh for sh in s.ships if sh.owner == s.active_player and orderable(sh)]
            if not ships:
                continue
            sh = r.choice(ships)
            o = r.choice(order_options(s, sh))
            t0 = time.process_time()
            preview_course(s, sh.id, o)
            total += time.process_time() - t0
            n += 1
    return 1e6 * total / max(1, n)


def bench_playouts(scenario: str, seconds: float) -> tuple[float, float]:
    steps = 0
    games = 0
    seed = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        s = GAME.new_initial_state({"scenario": scenario}, seed)
        r = Rng(seed)
        seed += 1
        while not s.is_terminal():
            p = s.current_players()[0]
            s.apply_action(p, r.choice(s.legal_actions(p)))
            steps += 1
        games += 1
    dt = time.process_time() - t0
    return steps / dt, games / dt


def bench_reach(states, seconds: float) -> float:
    from deltav.games.tactical.reach import reach_shadow

    n = 0
    total = 0.0
    t_end = time.process_time() + seconds
    while time.process_time() < t_end:
        for s in states:
            t0 = time.process_time()
            reach_shadow(s.view(s.active_player), s.active_player)
            total += time.process_time() - t0
            n += 1
    return 1000.0 * total / max(1, n)


def bench_clones(states, seconds: float) -> float:
    n = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        for s in states:
            s.clone()
            n += 1
    return n / (time.process_time() - t0)


def main(argv: list[str]) -> dict:
    scenarios = [a for a in argv if not a.replace(".", "").isdigit()] or [s.id for s in GAME.scenarios()]
    seconds = next((float(a) for a in argv if a.replace(".", "").isdigit()), 1.0)
    rows = {}
    for sc in scenarios:
        states = mid_game_states(sc, 20)
        steps, games = bench_playouts(sc, seconds)
        rows[sc] = {
            "turn_ms": round(bench_turn(states, seconds, True), 4),
            "turn_direct_ms": round(bench_turn(states, seconds, False), 4),
            "preview_us": round(bench_preview(states, seconds), 2),
            "steps_per_s": round(steps),
            "games_per_s": round(games, 1),
            "clones_per_s": round(bench_clones(states, seconds)),
            "reach_ms": round(bench_reach(states, seconds), 3),
        }
    head = (f"{'scenario':20} {'turn ms':>8} {'direct ms':>9} {'preview us':>10} {'steps/s':>9} {'games/s':>8} "
            f"{'clones/s':>9} {'reach ms':>8}")
    print(head)
    print("-" * len(head))
    for sc, r in rows.items():
        print(f"{sc:20} {r['turn_ms']:8.3f} {r['turn_direct_ms']:9.3f} {r['preview_us']:10.1f} {r['steps_per_s']:9d} "
              f"{r['games_per_s']:8.1f} {r['clones_per_s']:9d} {r['reach_ms']:8.3f}")
    doc = {"benchmark": "tactical", "seconds_per_measure": seconds, "reference_turn_ms": [0.2, 0.9], "scenarios": rows}
    print(json.dumps(doc, indent=1))
    return doc


if __name__ == "__main__":
    main(sys.argv[1:])
