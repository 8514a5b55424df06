"""Measuring the mining bot ladder: significance tables from ``deltav simulate --json`` output, and decision
times per difficulty level. A measurement script, not a test (figures in ``docs/bots-mining.md``).

- ``python -m deltav.games.mining.ladder table FILE.json ...``: one row per series: the first entrant's wins
  against the others, the Wilson 95% interval of its win rate, and the exact one-sided binomial p-value on
  the decided games against the null "no better than an equal seat" (1/2 with two players, 1/k with k).
- ``python -m deltav.games.mining.ladder speed [--players N] [--games G]``: decisions per second, the
  slowest decision and the share of decisions over 0.1 s for each level (``bots.PRESETS``), each level
  playing seat 0 against the ``normal`` level.

This module owns measurement only; it decides no move.
"""

from __future__ import annotations

import argparse
import json
import math
import time

from deltav.core.match import play_match
from deltav.stats import binomial_one_sided_p, wilson_interval


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


def speed(players: int, games: int) -> str:
    from deltav.games.mining import MiningGame
    from deltav.games.mining.bots import BOTS, PRESETS

    def make(level: str):
        e = PRESETS[level]
        return BOTS[e["agent"]](**e.get("params", {}))

    lines = ["| level | decisions | decisions/s | mean ms | slowest s | share over 0.1 s |", "|---|---|---|---|---|---|"]
    for level in ("easy", "normal", "hard"):
        times: list[float] = []
        for g in range(games):
            agents = [make(level)] + [make("normal") for _ in range(players - 1)]
            me = agents[0]
            inner = me.act

            def timed(d, _inner=inner, _times=times):
                t0 = time.perf_counter()
                a = _inner(d)
                _times.append(time.perf_counter() - t0)
                return a

            me.act = timed  # type: ignore[method-assign]
            play_match(MiningGame, {"players": players}, 500 + g, agents)
        total = sum(times)
        lines.append(f"| {level} | {len(times)} | {len(times) / total:,.0f} | {1000 * total / len(times):.2f} | "
                     f"{max(times):.3f} | {sum(1 for t in times if t > 0.1) / len(times):.1%} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m deltav.games.mining.ladder")
    sub = ap.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("table")
    t.add_argument("files", nargs="+")
    s = sub.add_parser("speed")
    s.add_argument("--players", type=int, default=2)
    s.add_argument("--games", type=int, default=4)
    args = ap.parse_args(argv)
    print(table(args.files) if args.cmd == "table" else speed(args.players, args.games))


if __name__ == "__main__":
    main()
