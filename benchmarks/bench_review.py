"""How long a game review takes (docs/review.md): one seeded match per game, reviewed for every seat.

    PYTHONPATH=src python benchmarks/bench_review.py [--games tactical,mining] [--budget rollouts=8] [--seed 1]

For each game it plays one match (bot:easy against bot:normal, so there are choices to grade), then reviews it in
this process and prints the match's turns and decisions, the decisions valued, the marks by grade, and the CPU and
wall seconds of the review. The tactical line is the issue's target: a review of a Duel of about 10 turns within
30 s on 2 cores. ``--json`` prints the figures as JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from deltav.agents import make_agent
from deltav.agents.review import ReviewBudget, review_record
from deltav.core.match import play_match
from deltav.games import load_all

# (game, options): the duel is played on until at least 10 turns by picking the first seed from --seed that lasts so
CASES = {
    "tactical": {"scenario": "duel"},
    "deepspace": {"scenario": "duel"},
    "knighthawks": {"scenario": "skirmish"},
    "mining": {"scenario": "standard"},
}
MIN_TURNS = {"tactical": 10}


def _turns(state) -> int | None:
    view = state.full_view()
    for key in ("turn", "round"):
        if isinstance(view.get(key), int):
            return view[key]
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default=",".join(CASES))
    ap.add_argument("--budget", default="")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--specs", default="easy,normal", help="the two seats' bots (cycled)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    games = load_all()
    budget = ReviewBudget.parse(args.budget)
    specs = args.specs.split(",")
    rows = []
    for gid in args.games.split(","):
        game = games[gid]
        opts = game.resolve_options(CASES[gid])
        n = game.num_players(opts)
        seed = args.seed
        while True:
            record, final, _ = play_match(game, opts, seed, [make_agent(gid, specs[p % len(specs)]) for p in range(n)])
            turns = _turns(final)
            if turns is None or turns >= MIN_TURNS.get(gid, 0) or seed > args.seed + 200:
                break
            seed += 1
        cpu, wall = time.process_time(), time.perf_counter()
        review = review_record(record, budget=budget)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        ds = review["decisions"]
        row = {
            "game": gid, "options": CASES[gid], "seed": seed, "turns": turns, "decisions": len(ds),
            "choices": sum(1 for d in ds if not d["forced"]), "differ": sum(1 for d in ds if not d["same"] and not d["forced"]),
            "valued": sum(1 for d in ds if d.get("valued")),
            "marks": {g: sum(1 for d in ds if d["grade"] == g) for g in ("inaccuracy", "mistake", "blunder")},
            "cpu_seconds": round(cpu, 2), "wall_seconds": round(wall, 2),
            "ms_per_decision": round(1000 * cpu / max(1, len(ds)), 1),
        }
        rows.append(row)
        if not args.json:
            print(f"{gid:12s} seed {seed:3d}, {turns} turns, {row['decisions']} decisions ({row['differ']} not bot:hard's, "
                  f"{row['valued']} valued), marks {row['marks']}: review {row['cpu_seconds']} s CPU, "
                  f"{row['wall_seconds']} s wall ({row['ms_per_decision']} ms CPU per decision)", flush=True)
    if args.json:
        print(json.dumps({"budget": budget.to_json(), "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
