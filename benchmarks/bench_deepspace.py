"""Quick speed measurement (not a test): ``python benchmarks/bench_deepspace.py [scenario] [games]``.

Prints random-playout steps (applied actions) per second, rounds per second, ``clone()`` per second on a
mid-game state, and ``determinize`` per second.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from deltav.core.rng import Rng  # noqa: E402
from deltav.games.deepspace import DeepSpaceGame  # noqa: E402


def random_playouts(scenario: str, games: int) -> tuple[float, float, float]:
    steps = rounds = 0
    t0 = time.perf_counter()
    for seed in range(games):
        s = DeepSpaceGame.new_initial_state({"scenario": scenario}, seed)
        rng = Rng(seed + 1)
        while not s.is_terminal():
            ps = s.current_players()
            p = ps[rng.below(len(ps))]
            legal = s.legal_actions(p)
            s.apply_action(p, legal[rng.below(len(legal))])
            steps += 1
        rounds += s.round
    dt = time.perf_counter() - t0
    return steps / dt, rounds / dt, steps / games


def mid_game(scenario: str):
    s = DeepSpaceGame.new_initial_state({"scenario": scenario}, 5)
    rng = Rng(3)
    while s.phase != "plot":
        p = s.current_players()[0]
        s.apply_action(p, rng.choice(s.legal_actions(p)))
    return s


def per_second(fn, seconds: float = 1.0) -> float:
    n = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for _ in range(200):
            fn()
        n += 200
    return n / (time.perf_counter() - t0)


def main(argv: list[str]) -> None:
    scenario = argv[0] if argv else "duel"
    games = int(argv[1]) if len(argv) > 1 else 50
    sps, rps, spg = random_playouts(scenario, games)
    s = mid_game(scenario)
    view = s.view(0)
    rng = Rng(9)
    print(f"scenario {scenario}: {len(s.ships)} ships")
    print(f"random playouts: {sps:,.0f} steps/s, {rps:,.1f} rounds/s ({spg:.0f} steps per game)")
    print(f"clone: {per_second(s.clone):,.0f}/s")
    print(f"determinize: {per_second(lambda: DeepSpaceGame.determinize(view, 0, rng)):,.0f}/s")


if __name__ == "__main__":
    main(sys.argv[1:])
