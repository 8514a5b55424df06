"""Sum up a head-to-head run against the reference Delta-V (the per-game records ``driver.ts --out`` writes):
W-L-D for our bot with the 95% Wilson interval of its win share, endings by reason and winner, ships lost by
cause on each side, invalid actions on each side (by phase) with the first refusals, mean game-turns, each
side's CPU ms per player-turn, our wins by seat, and with ``driver.ts --check`` the movements our engine replays
differently. ``--json FILE`` writes the figures.

    python benchmarks/reference_match/report.py games.json [--json figures.json]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))
from deltav.stats import wilson_interval  # noqa: E402  (the project's one Wilson interval)


def figures(doc: dict) -> dict:
    games = doc["games"]
    n = len(games)
    wins = sum(g["winner"] == "ours" for g in games)
    losses = sum(g["winner"] == "ref" for g in games)
    draws = n - wins - losses
    lo, hi = wilson_interval(wins, n)
    endings = Counter(f"{g['winner'] or 'draw'}: {g['reason']}" for g in games)
    lost = {side: Counter() for side in ("ours", "ref")}
    invalid = {side: Counter() for side in ("ours", "ref")}
    cpu = {side: {"ms": 0.0, "player_turns": 0} for side in ("ours", "ref")}
    by_seat = {0: [0, 0], 1: [0, 0]}
    decisions = 0  # our bot's decisions (one per ship's order, then "done", ...): a player-turn is several
    for g in games:
        for side in ("ours", "ref"):
            lost[side].update(g["lost"][side])
            invalid[side].update(g["invalid"][side])
            cpu[side]["ms"] += g["cpu"][side]["ms"]
            cpu[side]["player_turns"] += g["cpu"][side]["playerTurns"]
        decisions += g["cpu"]["ours"].get("decisions", 0)
        by_seat[g["ourSeat"]][0] += g["winner"] == "ours"
        by_seat[g["ourSeat"]][1] += 1
    out = {
        "scenario": doc["scenario"],
        "games": n,
        "wins": wins,
        "losses": losses,
        "draws": draws,
        "win_share": wins / n if n else None,
        "wilson95": [lo, hi],
        "timeouts": sum(g["timeout"] for g in games),
        "mean_turns": sum(g["turns"] for g in games) / n if n else None,
        "endings": dict(endings.most_common()),
        "lost": {side: dict(c.most_common()) for side, c in lost.items()},
        "invalid": {side: dict(c) for side, c in invalid.items()},
        "cpu_ms_per_pt": {side: (c["ms"] / c["player_turns"] if c["player_turns"] else None) for side, c in cpu.items()},
        "our_decisions_per_pt": decisions / cpu["ours"]["player_turns"] if cpu["ours"]["player_turns"] else None,
        "our_ms_per_decision": cpu["ours"]["ms"] / decisions if decisions else None,
        "our_wins_by_seat": {f"P{s}": f"{w}/{t}" for s, (w, t) in by_seat.items()},
        "seed": doc["args"]["seed"],
    }
    checked = sum(g.get("checked", 0) for g in games)
    if checked:
        out["movement_checks"] = checked
        out["divergences"] = sum(len(g.get("divergences", ())) for g in games)
        out["divergence_examples"] = sorted({d for g in games for d in g.get("divergences", ())})[:5]
    out["bridge_errors"] = [e for g in games for e in g["errors"]][:5]
    if doc["key"] == "grandTour":
        out["visited_mean"] = {side: sum(g["visited"][side] for g in games) / n for side in ("ours", "ref")}
    return out


def text(f: dict) -> str:
    lo, hi = f["wilson95"]
    lines = [
        f"{f['scenario']}: {f['games']} games (seed {f['seed']}), our bot W-L-D {f['wins']}-{f['losses']}-{f['draws']}"
        f" = {100 * f['win_share']:.1f}% wins (95% Wilson {100 * lo:.1f}-{100 * hi:.1f}%), our wins by seat "
        + ", ".join(f"{k} {v}" for k, v in f["our_wins_by_seat"].items()),
        f"  mean game-turns {f['mean_turns']:.1f}, timeouts {f['timeouts']}",
        "  endings: " + "; ".join(f"{k} x{v}" for k, v in f["endings"].items()),
        "  ships lost: ours " + (", ".join(f"{k} {v}" for k, v in f["lost"]["ours"].items()) or "none")
        + "; reference " + (", ".join(f"{k} {v}" for k, v in f["lost"]["ref"].items()) or "none"),
        "  invalid actions: ours " + (", ".join(f"{k} {v}" for k, v in f["invalid"]["ours"].items()) or "0")
        + "; reference " + (", ".join(f"{k} {v}" for k, v in f["invalid"]["ref"].items()) or "0"),
        "  CPU ms per player-turn: ours " + _ms(f["cpu_ms_per_pt"]["ours"]) + ", reference "
        + _ms(f["cpu_ms_per_pt"]["ref"]) + (f" (ours: {f['our_decisions_per_pt']:.1f} decisions a player-turn, "
                                           f"{_ms(f['our_ms_per_decision'])} ms each)" if f["our_ms_per_decision"] else ""),
    ]
    if "movement_checks" in f:
        lines.append(f"  movement replayed in our engine (--check): {f['movement_checks']} player-turns, "
                     f"{f['divergences']} ships differing")
        lines.extend(f"    {d}" for d in f["divergence_examples"])
    lines.extend(f"  refused: {e}" for e in f["bridge_errors"])
    if "visited_mean" in f:
        lines.append(f"  checkpoints visited (mean): ours {f['visited_mean']['ours']:.2f}, "
                     f"reference {f['visited_mean']['ref']:.2f}")
    return "\n".join(lines)


def _ms(v) -> str:
    return "-" if v is None else f"{v:.2f}"


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", help="the driver's --out file")
    ap.add_argument("--json", help="write the figures here")
    args = ap.parse_args(argv)
    with open(args.games) as fh:
        f = figures(json.load(fh))
    print(text(f))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(f, fh, indent=1)
            fh.write("\n")


if __name__ == "__main__":
    main()
