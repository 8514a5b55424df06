"""Decision-identity check for bot optimisations (run on demand, never as a test): plays seeded matches between
bots (hard against hard and against normal by default) in every scenario of a game and stores a hash of each
match record's steps (every action of every seat) and its result; ``check`` plays them again with the current
code and reports every match whose record differs.

    python benchmarks/check_bots.py record --out /tmp/bots.json [--game tactical] [-n 3] [--scenarios duel,convoy]
    python benchmarks/check_bots.py check --out /tmp/bots.json

Seats: ``hard``-``hard``, ``hard``-``normal`` and ``normal``-``hard`` (``--pairs hard:hard,hard:normal``); a
scenario with more seats takes the pair's levels in turn (hard, normal, hard at three), and ``--players 2,3,4``
plays each player count of a game that has the option (mining). Record
with the old code, change the bots, check with the new: identical hashes mean identical decisions. This module
owns measurement only; it decides no move.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from deltav.agents import make_agent  # noqa: E402
from deltav.core.match import play_match  # noqa: E402
from deltav.core.rng import derive_seed  # noqa: E402
from deltav.games import load_all  # noqa: E402

PAIRS = "hard:hard,hard:normal,normal:hard"


def one(game, scenario: str, seed: int, pair: tuple[str, ...], players: int | None = None) -> dict:
    """One match; a scenario with more seats than ``pair`` names seats them in turn (hard:normal at 3 seats:
    hard, normal, hard)."""
    options = {"scenario": scenario} if scenario else {}
    if players:
        options["players"] = players
    seats = game.num_players(game.resolve_options(options))
    levels = [pair[k % len(pair)] for k in range(seats)]
    agents = [make_agent(game.id, level) for level in levels]
    t0 = time.process_time()
    record, _state, _stats = play_match(game, options, seed, agents, [f"bot:{x}" for x in levels])
    cpu = time.process_time() - t0
    steps = json.dumps([s.to_json() for s in record.steps], sort_keys=True, separators=(",", ":"))
    return {"scenario": scenario, "players": players, "seed": seed, "pair": list(pair), "steps": len(record.steps),
            "hash": hashlib.sha1(steps.encode()).hexdigest(), "result": record.result, "cpu": round(cpu, 3)}


def run(game_id: str, n: int, scenarios: list[str] | None, pairs: list[tuple[str, ...]],
        player_counts: list[int | None] | None = None) -> list[dict]:
    game = load_all()[game_id]
    rows = []
    for sc in scenarios or [s.id for s in game.scenarios()]:
        for players in player_counts or [None]:
            for pair in pairs:
                for i in range(n):
                    # the seed of a match without a player count is the one recorded before --players existed
                    extra = () if players is None else (players,)
                    r = one(game, sc, derive_seed(7, "check_bots", sc, ":".join(pair), i, *extra), pair, players)
                    rows.append(r)
                    print(f"{sc:20} {players or '-'!s:2} {'-'.join(pair):12} {i} steps={r['steps']:5} "
                          f"cpu={r['cpu']:7.3f}s {r['hash'][:12]}", flush=True)
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mode", choices=("record", "check"))
    ap.add_argument("--out", required=True)
    ap.add_argument("--game", default="tactical")
    ap.add_argument("-n", type=int, default=3)
    ap.add_argument("--scenarios")
    ap.add_argument("--pairs", default=PAIRS)
    ap.add_argument("--players", help="comma-separated player counts, for games with a players option (mining)")
    args = ap.parse_args(argv)
    counts = [int(x) for x in args.players.split(",")] if args.players else None
    if args.mode == "record":
        pairs = [tuple(p.split(":")) for p in args.pairs.split(",")]
        scen = args.scenarios.split(",") if args.scenarios else None
        rows = run(args.game, args.n, scen, pairs, counts)
        doc = {"game": args.game, "n": args.n, "scenarios": scen, "pairs": args.pairs, "players": counts,
               "rows": rows}
        Path(args.out).write_text(json.dumps(doc, indent=1) + "\n")
        print(f"recorded {len(rows)} matches, cpu {sum(r['cpu'] for r in rows):.1f}s")
        return 0
    doc = json.loads(Path(args.out).read_text())
    pairs = [tuple(p.split(":")) for p in doc["pairs"].split(",")]
    scen = args.scenarios.split(",") if args.scenarios else doc["scenarios"]
    rows = run(doc["game"], doc["n"], scen, pairs, doc.get("players"))
    old = {(r["scenario"], r.get("players"), tuple(r["pair"]), r["seed"]): r for r in doc["rows"]}
    bad = 0
    for r in rows:
        o = old.get((r["scenario"], r["players"], tuple(r["pair"]), r["seed"]))
        if o is None:
            continue
        if o["hash"] != r["hash"] or o["result"] != r["result"]:
            bad += 1
            print(f"DIFFERS: {r['scenario']} {'-'.join(r['pair'])} seed {r['seed']}: {o['steps']} -> {r['steps']} "
                  f"steps, result {o['result']} -> {r['result']}")
    print(f"{len(rows)} matches, {bad} differ; cpu {sum(r['cpu'] for r in rows):.1f}s "
          f"(recorded {sum(o['cpu'] for o in old.values()):.1f}s)")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
