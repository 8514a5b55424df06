"""Bytes and encoding CPU of the server's state messages, per game (run on demand, never as a test).

Seeded random matches (5) per game and scenario is played through the server's session (``RoomSession``); after
every accepted submission every viewer (each seat and one spectator) is given the state message the server sends
then, built as the server builds it (``Session.snapshot`` and the new log entries, encoded with orjson), in two
forms:

- ``tail``: the snapshot with its log tail (the newest 20 entries) and the new entries again in ``events``: what
  the server sent after every action before issue 28;
- ``once``: the snapshot without its log and the new entries once, in ``events``: what it sends now to a socket
  that has the log already (the log tail goes only on connecting, a sync, a new match or renamed seats).

It prints the mean and largest message per viewer (a seat, the spectator), the share of the bytes that the log
tail was, and the CPU time (this process's) to build and encode every viewer's message after an action. The room
info (about 0.4 KiB, the same in both forms) is left out.

    PYTHONPATH=src .venv/bin/python benchmarks/bench_messages.py [--seed 1] [--matches 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

MATCHES = [("tactical", "duel"), ("tactical", "fleet_action"), ("mining", "standard"), ("deepspace", "design-duel"),
           ("knighthawks", "skirmish")]


def frames(session, applied: list, viewers: list, with_tail: bool) -> list[bytes]:
    """Every viewer's state message (without the room info) after ``applied``, as the server builds it."""
    import orjson

    since = applied[0].index if applied else None
    out = []
    for v in viewers:
        events = session.log(v, since) if since is not None else []
        snap = orjson.dumps(session.snapshot(v, with_log=with_tail))
        out.append(b'{"type":"state","snapshot":' + snap + b',"events":' + orjson.dumps(events) + b"}")
    return out


def measure(gid: str, scenario: str, seeds: list[int], max_steps: int = 400) -> dict:
    sizes: dict[str, dict[str, list[int]]] = {f: {"seat": [], "spectator": []} for f in ("tail", "once")}
    cpu = {"tail": 0.0, "once": 0.0}
    steps = 0
    for seed in seeds:
        steps += play(gid, scenario, seed, max_steps, sizes, cpu)
    out = {"game": gid, "scenario": scenario, "matches": len(seeds), "submissions": steps}
    for form in ("tail", "once"):
        for who in ("seat", "spectator"):
            xs = sizes[form][who]
            out[f"{form}_{who}_mean"] = statistics.fmean(xs)
            out[f"{form}_{who}_max"] = max(xs)
        out[f"{form}_cpu_ms"] = 1000 * cpu[form] / max(1, steps)
    return out


def play(gid: str, scenario: str, seed: int, max_steps: int, sizes: dict, cpu: dict) -> int:
    from deltav.core.protocol import get_game
    from deltav.server.legal_entries import RoomSession

    game = get_game(gid)
    session = RoomSession(game, {"scenario": scenario}, seed, ["human"] * game.new_initial_state(
        game.resolve_options({"scenario": scenario}), seed).num_players)
    viewers = [*range(session.num_players), None]
    rng = random.Random(seed)
    steps = 0
    while not session.is_over() and steps < max_steps:
        seat = session.waiting_for()[0]
        legal = session.legal_actions(seat)
        outcome = session.submit_action(seat, legal[rng.randrange(len(legal))])
        steps += 1
        for form in (("tail", "once") if steps % 2 else ("once", "tail")):  # alternated: neither warms the other
            t0 = time.process_time()
            got = frames(session, outcome.applied, viewers, form == "tail")
            cpu[form] += time.process_time() - t0
            for v, f in zip(viewers, got, strict=True):
                sizes[form]["seat" if v is not None else "spectator"].append(len(f))
    return steps


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--matches", type=int, default=5, help="random matches per scenario (seeds seed, seed + 1, ...)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    from deltav.games import load_all

    load_all()
    rows = [measure(g, s, list(range(args.seed, args.seed + args.matches))) for g, s in MATCHES]
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"state messages after an action (room info left out), {args.matches} random matches each; KiB mean (max)")
    print(f"{'game, scenario':28} {'seat: tail':>16} {'seat: once':>16} {'spectator: tail':>16} {'spectator: once':>16}"
          f" {'bytes saved':>11} {'encode ms/action: tail, once':>30}")
    def cell(r, form, who):
        return f"{r[f'{form}_{who}_mean'] / 1024:.1f} ({r[f'{form}_{who}_max'] / 1024:.1f})"

    for r in rows:
        saved = 1 - (r["once_seat_mean"] * 2 + r["once_spectator_mean"]) / (r["tail_seat_mean"] * 2 + r["tail_spectator_mean"])
        print(f"{r['game'] + ' ' + r['scenario']:28} {cell(r, 'tail', 'seat'):>16} {cell(r, 'once', 'seat'):>16} "
              f"{cell(r, 'tail', 'spectator'):>16} {cell(r, 'once', 'spectator'):>16} {100 * saved:>10.0f}% "
              f"{r['tail_cpu_ms']:>14.2f}, {r['once_cpu_ms']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
