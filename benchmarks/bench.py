"""Engine benchmarks for every registered game and scenario (run on demand, never as a test).

For each configuration it measures:
- random-playout steps per second (legal_actions + a random choice + apply_action, whole games);
- clone() per second, on positions taken from those games;
- full random games per second;
- to_json() per second and legal_actions() per second;
- view(p) per second (the player to move, on those positions) and spectator view(None) per second;
- for hidden-information games, determinize(view(p), p) per second (one sampled world from a player's view).

Usage: python benchmarks/bench.py [--games mining,deepspace] [--seconds 2] [--json out.json]
Prints a table, and JSON with --json (or to stdout with --json -).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from deltav.core.rng import Rng, derive_seed  # noqa: E402
from deltav.games import load_all  # noqa: E402


def configurations(games):
    out = []
    for gid, game in sorted(games.items()):
        names = {o.name for o in game.options}
        for sc in game.scenarios() or [None]:
            if sc is None:
                out.append((gid, {}))
                continue
            counts = sc.players if "players" in names else (None,)
            for n in counts:
                opts = {"scenario": sc.id}
                if n is not None:
                    opts["players"] = n
                out.append((gid, opts))
    return out


def bench_config(game, opts, seconds):
    options = game.resolve_options(opts)
    rng = Rng(12345)
    steps = 0
    games_done = 0
    positions = []
    t_play = 0.0
    seed = 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline or games_done == 0:
        state = game.new_initial_state(options, derive_seed(7, "bench", seed))
        seed += 1
        t0 = time.perf_counter()
        while not state.is_terminal():
            players = state.current_players()
            p = players[rng.below(len(players))] if len(players) > 1 else players[0]
            legal = state.legal_actions(p)
            state.apply_action(p, legal[rng.below(len(legal))])
            steps += 1
            if steps % 97 == 0 and len(positions) < 200:
                positions.append(state.clone())
        t_play += time.perf_counter() - t0
        games_done += 1
    if not positions:
        positions.append(game.new_initial_state(options, 1))

    def rate(fn, budget):
        count = 0
        t0 = time.perf_counter()
        end = t0 + budget
        while True:
            for s in positions:
                fn(s)
            count += len(positions)
            now = time.perf_counter()
            if now >= end:
                return count / (now - t0)

    clones = rate(lambda s: s.clone(), seconds / 2)
    to_json = rate(lambda s: s.to_json(), seconds / 4)

    def legal(s):
        for p in s.current_players():
            s.legal_actions(p)

    legal_rate = rate(legal, seconds / 4)

    def seat_view(s):
        players = s.current_players()
        return s.view(players[0] if players else 0)

    views = rate(seat_view, seconds / 4)
    spectator_views = rate(lambda s: s.view(None), seconds / 4)
    determinize = None
    if game.has_hidden_information:
        drng = Rng(99)
        samples = [(seat_view(s), (s.current_players() or [0])[0]) for s in positions if not s.is_terminal()]
        samples = samples or [(positions[0].view(0), 0)]
        count, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds / 4:
            for v, p in samples:
                game.determinize(v, p, drng)
            count += len(samples)
        determinize = count / (time.perf_counter() - t0)
    return {
        "game": game.id,
        "options": opts,
        "games": games_done,
        "steps": steps,
        "steps_per_second": steps / t_play if t_play else 0.0,
        "games_per_second": games_done / t_play if t_play else 0.0,
        "avg_steps_per_game": steps / games_done,
        "clones_per_second": clones,
        "to_json_per_second": to_json,
        "legal_actions_per_second": legal_rate,
        "views_per_second": views,
        "spectator_views_per_second": spectator_views,
        "determinize_per_second": determinize,
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", help="comma-separated game ids (default: all)")
    ap.add_argument("--seconds", type=float, default=2.0, help="time budget per measurement")
    ap.add_argument("--json", help="write JSON results to this file ('-' for stdout)")
    args = ap.parse_args(argv)
    games = load_all()
    if args.games:
        wanted = args.games.split(",")
        unknown = [g for g in wanted if g not in games]
        if unknown:
            ap.error(f"unknown game(s) {unknown} (allowed: {sorted(games)})")
        games = {g: games[g] for g in wanted}
    rows = [bench_config(games[g], o, args.seconds) for g, o in configurations(games)]
    header = (f"{'game':12} {'configuration':28} {'steps/s':>10} {'clones/s':>10} {'games/s':>9} {'steps/game':>10} "
              f"{'views/s':>9} {'determ/s':>9}")
    print(header)
    print("-" * len(header))
    for r in rows:
        conf = ",".join(f"{k}={v}" for k, v in r["options"].items())
        print(
            f"{r['game']:12} {conf:28} {r['steps_per_second']:10,.0f} {r['clones_per_second']:10,.0f} "
            f"{r['games_per_second']:9,.1f} {r['avg_steps_per_game']:10,.1f} {r['views_per_second']:9,.0f} "
            + (f"{r['determinize_per_second']:9,.0f}" if r["determinize_per_second"] is not None else f"{'-':>9}")
        )
    out = {"python": platform.python_version(), "machine": platform.machine(), "results": rows}
    if args.json == "-":
        print(json.dumps(out, indent=2))
    elif args.json:
        Path(args.json).write_text(json.dumps(out, indent=2) + "\n")
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
