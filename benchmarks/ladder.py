"""Measuring bot ladders: significance tables from ``deltav simulate --json`` output, and decision times per
difficulty level for any game. A measurement script, not a test (figures in ``docs/bots*.md``).

- ``python benchmarks/ladder.py table FILE.json ...``: one row per series: the first entrant's wins
  against the others, the Wilson 95% interval of its win rate, and the exact one-sided binomial p-value on
  the decided games against the null "no better than an equal seat" (1/2 with two players, 1/k with k).
- ``python benchmarks/ladder.py speed [GAME] [--scenario S] [--players N] [--games G] [--opponent normal]``:
  decisions per second, the slowest decision and the share of decisions over 0.1 s for each level
  (``bot:easy``, ``bot:normal``, ``bot:hard``), each level playing seat 0 against ``--opponent`` bots
  (GAME defaults to mining).

This module owns measurement only; it decides no move.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from deltav.core.match import play_match  # noqa: E402
from deltav.stats import binomial_one_sided_p, wilson_interval  # noqa: E402


def row(summary: dict) -> dict:
    """Entrant 0's record in one ``simulate`` summary, with its interval and one-sided p-value."""
    k = len(summary["entrants"])
    m = summary["completed"]
    decided = m - summary["draws"]
    wins = summary["per_entrant"][0]["wins"]
    lo, hi = wilson_interval(wins, m)
    p = binomial_one_sided_p(math.floor(wins), decided, 1.0 / k)
    opts = summary["options"]
    return {"scenario": opts.get("scenario"), "players": opts.get("players"), "entrant": summary["entrants"][0],
            "rivals": summary["entrants"][1:], "games": m, "wins": wins, "rate": wins / m if m else 0.0,
            "ci95": (lo, hi), "null": 1.0 / k, "p": p}


def table(paths: list[str]) -> str:
    lines = ["| scenario | players | entrant | rivals | games | wins | win rate (95% CI) | null | one-sided p |",
             "|---|---|---|---|---|---|---|---|---|"]
    for path in paths:
        with open(path) as f:
            r = row(json.load(f))
        lines.append(f"| {r['scenario']} | {r['players']} | {r['entrant']} | {', '.join(r['rivals'])} | "
                     f"{r['games']} | {r['wins']:g} | {r['rate']:.2f} ({r['ci95'][0]:.2f}-{r['ci95'][1]:.2f}) | "
                     f"{r['null']:.2f} | {r['p']:.2g} |")
    return "\n".join(lines)


def speed(game_id: str, options: dict, games: int, opponent: str = "normal") -> str:
    """Decision times of each level (``bot:easy`` .. ``bot:hard``) playing seat 0 against ``opponent`` bots."""
    from deltav.agents.registry import make_agent
    from deltav.games import load_all

    game = load_all()[game_id]
    players = int(options.get("players") or game.min_players)
    lines = ["| level | decisions | decisions/s | mean ms | slowest s | share over 0.1 s |", "|---|---|---|---|---|---|"]
    for level in ("easy", "normal", "hard"):
        times: list[float] = []
        for g in range(games):
            agents = [make_agent(game, level)] + [make_agent(game, opponent) for _ in range(players - 1)]
            inner = agents[0].act

            def timed(d, _inner=inner, _times=times):
                t0 = time.perf_counter()
                a = _inner(d)
                _times.append(time.perf_counter() - t0)
                return a

            agents[0].act = timed  # type: ignore[method-assign]
            play_match(game, options, 500 + g, agents)
        total = sum(times)
        lines.append(f"| {level} | {len(times)} | {len(times) / total:,.0f} | {1000 * total / len(times):.2f} | "
                     f"{max(times):.3f} | {sum(1 for t in times if t > 0.1) / len(times):.1%} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python benchmarks/ladder.py")
    sub = ap.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("table")
    t.add_argument("files", nargs="+")
    s = sub.add_parser("speed")
    s.add_argument("game", nargs="?", default="mining")
    s.add_argument("--scenario")
    s.add_argument("--players", type=int)
    s.add_argument("--games", type=int, default=4)
    s.add_argument("--opponent", default="normal")
    args = ap.parse_args(argv)
    if args.cmd == "table":
        print(table(args.files))
        return
    opts = {k: v for k, v in (("scenario", args.scenario), ("players", args.players)) if v is not None}
    print(speed(args.game, opts, args.games, args.opponent))


if __name__ == "__main__":
    main()
