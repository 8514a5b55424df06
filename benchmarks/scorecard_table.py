"""Print the tactical scorecard table of docs/bots-tactical.md from ``deltav simulate --json`` outputs.

    python benchmarks/scorecard_table.py OUT/*.json

Each file is one series (``deltav simulate tactical --scenario S -n N --seat 0=bot:hard --seat 1=bot:B --jobs 1
--json``); the first entrant is the one the row is about. Columns: games; the first entrant's wins-losses-draws
and its share of decided games with the 95% Wilson interval; the scorecard (``Game.scorecard``, summed by
``deltav simulate``): endings by kind, objective share, passenger deliveries, Grand Tour completions, timeouts,
invalid actions (rejected bot actions) and engine errors, fuel stalls per game (each entrant), player 0's share of
decided games, the first entrant's ships lost to crashes (of them while disabled), and each entrant's bot CPU ms
per player-turn.
"""

from __future__ import annotations

import json
import sys

from deltav.stats import wilson_interval

SHORT = {"fleet_eliminated": "elim", "passengers": "colonists", "passengers_failed": "no colonists",
         "grand_tour": "tour", "checkpoints_timeout": "tour timeout", "fugitive": "fugitives",
         "moral_victory": "moral", "mutual_destruction": "mutual", "timeout": "turn limit"}


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.0f}%"


def row(d: dict) -> str:
    c = d["scorecard"]
    a, b = c["per_entrant"]
    ta, tb = d["per_entrant"]  # the timings (bot CPU per player-turn) are beside the scorecard's counts
    if "bot_cpu_ms_per_player_turn" not in ta:  # a file of the first version kept it in the scorecard
        ta, tb = a, b
    games = c["games"]
    w, l_ = a["wins_by"], b["wins_by"]
    wins, losses = sum(w.values()), sum(l_.values())
    draws = games - wins - losses
    lo, hi = wilson_interval(wins, wins + losses) if wins + losses else (0.0, 0.0)
    share = wins / (wins + losses) if wins + losses else None
    ends = ", ".join(f"{SHORT.get(k, k)} {v}" for k, v in c["endings"].items())
    obj = c.get("objective_resolution_share")
    pair = f"{a['spec'][4:]} vs {b['spec'][4:]}"
    return (f"| {d['options']['scenario']} | {pair} | {games} | {wins}-{losses}-{draws} | {_pct(share)} "
            f"({_pct(lo)}-{_pct(hi)}) | {ends} | {_pct(obj)} | {_pct(c['passenger_delivery_share'])} | "
            f"{_pct(c['grand_tour_complete_share'])} | {c['timeout']} | {c['invalid_actions']}/{c['engine_errors']} | "
            f"{a['fuel_stalls'] / games:.2f} / {b['fuel_stalls'] / games:.2f} | {_pct(c['player0_decided_rate'])} | "
            f"{a['lost_to_crash']} ({a['crashes_disabled']}) / {b['lost_to_crash']} ({b['crashes_disabled']}) | "
            f"{ta['bot_cpu_ms_per_player_turn']:.2f} / {tb['bot_cpu_ms_per_player_turn']:.2f} |")


def main(paths: list[str]) -> None:
    print("| scenario | pairing | games | W-L-D | share (95% CI) | endings | objective | colonists landed | tour "
          "complete | timeouts | invalid / errors | fuel stalls per game | P0 of decided | crashes "
          "(disabled) | bot CPU ms per player-turn |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for p in paths:
        with open(p) as f:
            print(row(json.load(f)))


if __name__ == "__main__":
    main(sys.argv[1:])
