"""Random-playout steps per second in process CPU time, optionally against a baseline source tree (run on demand,
never as a test).

``bench.py`` measures wall-clock time, which other processes on a shared machine distort. This script plays a
fixed workload (seeded random playouts as in ``bench.py``: legal_actions + a random choice + apply_action,
whole games; every repetition plays new seeds) in a fresh process per measurement and reports the best
repetition in process CPU time (other load only slows a run down, so the best is the least disturbed). The
first repetition warms the engine up (imports, shared caches of the first positions) and is not counted.
With ``--baseline DIR`` each scenario is measured alternately with the current tree and with the tree in DIR
(for instance a pristine copy of ``src`` taken before an optimisation), and the speed-up is printed; equal step
counts show that both trees played the same games.

``--rollouts`` measures a search's kind of work instead: many short random rollouts from clones of the same
root positions (roots taken along fresh random games), where positions recur as they do in a search.

Usage: python benchmarks/bench_cpu.py [--games tactical,knighthawks] [--scenarios a,b] [--games-per-run 20]
       [--reps 3] [--rounds 2] [--rollouts] [--baseline /tmp/orig_src] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"

WORKER = r"""
import sys, time
sys.path.insert(0, sys.argv[1])
from deltav.core.rng import Rng, derive_seed
from deltav.games import load_all
game = load_all()[sys.argv[2]]
opts = game.resolve_options({"scenario": sys.argv[3]})
ngames, reps = int(sys.argv[4]), int(sys.argv[5])
best = None
total = 0
rng = Rng(12345)
for rep in range(reps + 1):
    steps = 0
    t = 0.0
    for k in range(ngames):
        seed = rep * ngames + k  # new games every repetition: caches help only through genuine reuse
        state = game.new_initial_state(opts, derive_seed(7, "bench", seed))
        t0 = time.process_time()
        while not state.is_terminal():
            players = state.current_players()
            p = players[rng.below(len(players))] if len(players) > 1 else players[0]
            legal = state.legal_actions(p)
            state.apply_action(p, legal[rng.below(len(legal))])
            steps += 1
        t += time.process_time() - t0
    total += steps
    if rep:
        rate = steps / t
        best = rate if best is None else max(best, rate)
print(total, best)
"""

ROLLOUT_WORKER = r"""
import sys, time
sys.path.insert(0, sys.argv[1])
from deltav.core.rng import Rng, derive_seed
from deltav.games import load_all
game = load_all()[sys.argv[2]]
opts = game.resolve_options({"scenario": sys.argv[3]})
nroots, reps = int(sys.argv[4]), int(sys.argv[5])
ROLLOUTS, DEPTH = 20, 40
rng = Rng(777)
best = None
total = 0
for rep in range(reps + 1):
    # roots: positions along fresh random games (new games every repetition)
    roots = []
    seed = 10_000 + rep * nroots
    while len(roots) < nroots:
        state = game.new_initial_state(opts, derive_seed(7, "roots", seed))
        seed += 1
        k = 0
        while not state.is_terminal() and len(roots) < nroots:
            if k % 7 == 3:
                roots.append(state.clone())
            players = state.current_players()
            p = players[rng.below(len(players))] if len(players) > 1 else players[0]
            legal = state.legal_actions(p)
            state.apply_action(p, legal[rng.below(len(legal))])
            k += 1
    steps = 0
    t0 = time.process_time()
    for root in roots:  # a search's work: many short random rollouts from clones of one position
        for _ in range(ROLLOUTS):
            state = root.clone()
            for _ in range(DEPTH):
                if state.is_terminal():
                    break
                players = state.current_players()
                p = players[rng.below(len(players))] if len(players) > 1 else players[0]
                legal = state.legal_actions(p)
                state.apply_action(p, legal[rng.below(len(legal))])
                steps += 1
    t = time.process_time() - t0
    total += steps
    if rep:
        rate = steps / t
        best = rate if best is None else max(best, rate)
print(total, best)
"""


def measure(src: Path, gid: str, scenario: str, ngames: int, reps: int, rollouts: bool = False) -> tuple[int, float]:
    """(total steps played, best steps per CPU second of the counted repetitions) in a fresh process."""
    worker = ROLLOUT_WORKER if rollouts else WORKER
    out = subprocess.run([sys.executable, "-c", worker, str(src), gid, scenario, str(ngames), str(reps)],
                         capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"{gid}/{scenario} failed in {src}:\n{out.stderr}")
    steps, rate = out.stdout.split()
    return int(steps), float(rate)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default="tactical,knighthawks", help="comma-separated game ids")
    ap.add_argument("--scenarios", type=lambda s: set(s.split(",")), help="only these scenario ids")
    ap.add_argument("--games-per-run", type=int, default=20,
                    help="seeded games in one repetition (with --rollouts: root positions)")
    ap.add_argument("--rollouts", action="store_true",
                    help="search-like work instead of whole games: 20 random rollouts of up to 40 steps from clones "
                         "of each root position (roots taken along fresh random games)")
    ap.add_argument("--reps", type=int, default=3, help="counted repetitions per process (best is kept)")
    ap.add_argument("--rounds", type=int, default=2, help="processes per tree and scenario (alternating)")
    ap.add_argument("--baseline", help="a source tree to compare with (e.g. a copy of src before a change)")
    ap.add_argument("--json", help="write the results to this file")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(SRC))
    from deltav.games import load_all

    games = load_all()
    rows = []
    for gid in args.games.split(","):
        for sc in (s.id for s in games[gid].scenarios()):
            if args.scenarios and sc not in args.scenarios:
                continue
            cur, base = [], []
            for _ in range(args.rounds):
                if args.baseline:
                    base.append(measure(Path(args.baseline), gid, sc, args.games_per_run, args.reps, args.rollouts))
                cur.append(measure(SRC, gid, sc, args.games_per_run, args.reps, args.rollouts))
            steps = cur[0][0]
            row = {"game": gid, "scenario": sc, "steps": steps,
                   "steps_per_cpu_second": max(r for _, r in cur)}
            line = f"{gid:12} {sc:20} {steps:7d} steps  {row['steps_per_cpu_second']:9,.0f} steps/s"
            if args.baseline:
                bsteps = base[0][0]
                row["baseline_steps_per_cpu_second"] = max(r for _, r in base)
                row["same_trajectories"] = bsteps == steps
                row["speedup"] = row["steps_per_cpu_second"] / row["baseline_steps_per_cpu_second"]
                line += (f"   baseline {row['baseline_steps_per_cpu_second']:9,.0f} steps/s   x{row['speedup']:.2f}"
                         + ("" if bsteps == steps else "   (DIFFERENT step counts!)"))
            print(line, flush=True)
            rows.append(row)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
