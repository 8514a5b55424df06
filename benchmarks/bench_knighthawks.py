"""A quick benchmark (not a test): random-playout decisions and game turns per second, and clones per second,
measured in process CPU time (robust to other processes sharing the machine).

Run: ``python benchmarks/bench_knighthawks.py [seconds-per-scenario] [repeats]``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from deltav.core.rng import Rng  # noqa: E402
from deltav.games.knighthawks import KnightHawks  # noqa: E402
from deltav.games.knighthawks.scenarios import BUILTIN  # noqa: E402


def playouts(scenario: str, seconds: float) -> tuple[float, float, int]:
    steps = turns = games = 0
    seed = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        s = KnightHawks.new_initial_state({"scenario": scenario}, seed)
        rng = Rng(seed)
        while not s.is_terminal():
            p = s.current_players()[0]
            s.apply_action(p, rng.choice(s.legal_actions(p)))
            steps += 1
        turns += s.turn
        games += 1
        seed += 1
    dt = time.process_time() - t0
    return steps / dt, turns / dt, games


def clones(scenario: str, n: int = 20000) -> float:
    s = KnightHawks.new_initial_state({"scenario": scenario}, 1)
    t0 = time.process_time()
    for _ in range(n):
        s.clone()
    return n / (time.process_time() - t0)


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    for sc in BUILTIN:
        runs = [playouts(sc, seconds / repeats) for _ in range(repeats)]  # best of: other load only slows
        sps = max(r[0] for r in runs)
        tps = max(r[1] for r in runs)
        games = sum(r[2] for r in runs)
        cps = max(clones(sc) for _ in range(repeats))
        print(f"{sc:16s} {sps:9.0f} decisions/s  {tps:6.1f} game turns/s  ({games} games)  {cps:9.0f} clones/s")


if __name__ == "__main__":
    main()
