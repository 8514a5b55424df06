"""Speed figures for the mining engine: ``python benchmarks/bench_mining.py [--players N] [--seconds S]``.

Prints random-playout steps per second (legal_actions + apply_action), clone() per second, sampler
(determinize) calls per second and view() calls per second. ``--ladder`` instead plays the scripted bot
against random and against its forgetful levels. A measurement script, not a test.

This module owns the measurement only.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from deltav.core.rng import Rng  # noqa: E402
from deltav.games.mining import MiningGame  # noqa: E402


def playout_steps(players: int, seconds: float) -> tuple[float, int]:
    steps = games = 0
    t0 = time.perf_counter()
    seed = 0
    while time.perf_counter() - t0 < seconds:
        st = MiningGame.new_initial_state({"players": players}, seed)
        rng = Rng(seed)
        while not st.is_terminal():
            p = st.current_players()[0]
            legal = st.legal_actions(p)
            st.apply_action(p, legal[rng.below(len(legal))])
            steps += 1
        games += 1
        seed += 1
    return steps / (time.perf_counter() - t0), games


def midgame(players: int, seed: int = 1, decisions: int = 80):
    st = MiningGame.new_initial_state({"players": players}, seed)
    rng = Rng(seed)
    for _ in range(decisions):
        if st.is_terminal():
            break
        p = st.current_players()[0]
        legal = st.legal_actions(p)
        st.apply_action(p, legal[rng.below(len(legal))])
    return st


def rate(fn, seconds: float) -> float:
    n = 0
    t0 = time.perf_counter()
    while True:
        for _ in range(200):
            fn()
        n += 200
        dt = time.perf_counter() - t0
        if dt >= seconds:
            return n / dt


def ladder(games: int = 30) -> None:
    """Win counts of the scripted bot (perfect memory) against random and against weaker memories."""
    from deltav.core.agent import RandomAgent
    from deltav.core.match import play_match
    from deltav.games.mining.bots.scripted import ScriptedAgent

    rivals = {
        "random": RandomAgent,
        "forget=0.3": lambda: ScriptedAgent(forget=0.3),
        "forget=0.15": lambda: ScriptedAgent(forget=0.15),
        "capacity=4": lambda: ScriptedAgent(capacity=4),
    }
    for name, make in rivals.items():
        for n in (2, 3, 4):
            perfect = weak = 0
            for seed in range(games):
                # seats alternate: perfect memory on even seats in even games, odd seats in odd games
                agents = [ScriptedAgent() if (p + seed) % 2 == 0 else make() for p in range(n)]
                rec, _, _ = play_match(MiningGame, {"players": n}, seed, agents)
                for w in rec.result["winners"]:
                    if (w + seed) % 2 == 0:
                        perfect += 1
                    else:
                        weak += 1
            print(f"scripted vs {name}, {n} players, {games} games: scripted seats won {perfect}, {name} seats won {weak}")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--ladder", action="store_true", help="also play the bot ladder (about a minute)")
    args = ap.parse_args(argv)
    if args.ladder:
        ladder()
        return
    steps, games = playout_steps(args.players, args.seconds)
    st = midgame(args.players)
    view = st.view(0)
    rng = Rng(5)
    print(f"players={args.players}")
    print(f"random playout: {steps:,.0f} steps/s ({games} games)")
    print(f"clone(): {rate(st.clone, args.seconds):,.0f} /s")
    print(f"determinize (sampler): {rate(lambda: MiningGame.determinize(view, 0, rng), args.seconds):,.0f} /s")
    print(f"view(p): {rate(lambda: st.view(0), args.seconds):,.0f} /s")


if __name__ == "__main__":
    main()
