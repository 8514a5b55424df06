"""Deep Space views, spectator views, determinization and random-playout steps per second of CPU time (not a
test): ``PYTHONPATH=src python benchmarks/bench_deepspace_views.py [scenario ...]``.

CPU time (``time.process_time``), not wall time, so that two trees can be compared on a machine other jobs
share: run it once with ``PYTHONPATH`` at each tree's ``src``. The positions are those ``bench.py`` samples
(every 13th step of 20 random playouts, at most 200); each rate is the best of three rounds.
"""

from __future__ import annotations

import sys
import time

from deltav.core.rng import Rng
from deltav.games.deepspace import DeepSpaceGame as Game
from deltav.games.deepspace.scenarios import builtin_ids


def _best(fn, n: int) -> float:
    rates = []
    for _ in range(3):
        t0 = time.process_time()
        fn()
        rates.append(n / max(time.process_time() - t0, 1e-9))
    return max(rates)


def measure(scenario: str) -> dict:
    opts = Game.resolve_options({"scenario": scenario})
    rng = Rng(7)
    positions = []
    steps = 0
    t0 = time.process_time()
    for g in range(20):
        s = Game.new_initial_state(opts, g)
        k = 0
        while not s.is_terminal():
            ps = s.current_players()
            p = ps[rng.below(len(ps))]
            legal = s.legal_actions(p)
            s.apply_action(p, legal[rng.below(len(legal))])
            k += 1
            if k % 13 == 0 and len(positions) < 200:
                positions.append(s.clone())
        steps += k
    playout = steps / (time.process_time() - t0)

    def seat(s):
        ps = s.current_players()
        return s.view(ps[0] if ps else 0)

    samples = [(seat(s), (s.current_players() or [0])[0]) for s in positions if not s.is_terminal()]
    drng = Rng(99)

    def views():
        for _ in range(20):
            for s in positions:
                seat(s)

    def spectators():
        for _ in range(20):
            for s in positions:
                s.view(None)

    def determinize():
        for _ in range(5):
            for v, p in samples:
                Game.determinize(v, p, drng)

    determinize()  # warm the caches a search fills in its first iterations
    return {
        "steps": playout,
        "views": _best(views, 20 * len(positions)),
        "spectator": _best(spectators, 20 * len(positions)),
        "determinize": _best(determinize, 5 * len(samples)) if samples else 0.0,
        "positions": len(positions),
    }


def main(argv: list[str]) -> None:
    print(f"{'scenario':12} {'steps/s':>9} {'views/s':>9} {'spect/s':>9} {'determ/s':>9} {'positions':>9}")
    for sc in argv or builtin_ids():
        r = measure(sc)
        print(f"{sc:12} {r['steps']:9,.0f} {r['views']:9,.0f} {r['spectator']:9,.0f} {r['determinize']:9,.0f} "
              f"{r['positions']:9}")


if __name__ == "__main__":
    main(sys.argv[1:])
