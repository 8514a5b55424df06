"""clone() cost of each game's state, in µs per clone (run on demand, never as a test).

For each game and each of its first scenarios, plays a few seeded random games, keeps positions spread along them
and times ``clone()`` on all of them: best of ``--repeat`` runs (the search's hot path: compare trees with
``--src``, alternating runs of the two trees for a fair figure under load).

Usage: python benchmarks/bench_clone.py [--games knighthawks] [--scenarios 3] [--repeat 5] [--src DIR]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default="", help="comma-separated game ids (default: all)")
    ap.add_argument("--scenarios", type=int, default=3, help="scenarios per game (the first N)")
    ap.add_argument("--positions", type=int, default=200, help="positions per scenario")
    ap.add_argument("--repeat", type=int, default=5, help="runs per scenario; the best is reported")
    ap.add_argument("--src", default=str(Path(__file__).resolve().parents[1] / "src"), help="the tree to import")
    a = ap.parse_args()
    sys.path.insert(0, a.src)
    from deltav.core.rng import Rng, derive_seed
    from deltav.games import load_all

    games = load_all()
    wanted = [g for g in a.games.split(",") if g] or sorted(games)
    print(f"tree {a.src}")
    for gid in wanted:
        game = games[gid]
        for sc in (game.scenarios() or [None])[:a.scenarios]:
            options = game.resolve_options({"scenario": sc.id} if sc is not None else {})
            positions: list = []
            seed = 0
            while len(positions) < a.positions and seed < 50:
                state = game.new_initial_state(options, derive_seed(7, "bench_clone", seed))
                rng = Rng(seed)
                seed += 1
                steps = 0
                while not state.is_terminal() and steps < 400:
                    p = state.current_players()[0]
                    acts = state.legal_actions(p)
                    state.apply_action(p, acts[rng.below(len(acts))])
                    steps += 1
                    if steps % 3 == 0:
                        positions.append(state.clone())
            positions = positions[:a.positions]
            best = float("inf")
            for _ in range(a.repeat):
                t0 = time.perf_counter()
                for _k in range(20):
                    for s in positions:
                        s.clone()
                best = min(best, (time.perf_counter() - t0) / (20 * len(positions)))
            name = sc.id if sc is not None else "-"
            print(f"{gid:12} {name:28} {len(positions):4} positions  {best * 1e6:7.2f} µs/clone")


if __name__ == "__main__":
    main()
