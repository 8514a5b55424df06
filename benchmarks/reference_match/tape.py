"""Replay a bridge tape offline (run on demand, never as a test): the requests ``bridge.py`` was sent in a head-to-head
run against the reference (recorded with ``DELTAV_BRIDGE_TAPE=FILE``), sent again to this tree's bridge, so our
bot decides the same positions the reference's AI led to, without Node or the reference's checkout.

    DELTAV_BRIDGE_TAPE=/tmp/fa.tape DELTAV_REFERENCE=... benchmarks/reference_match/run.sh fleet_action 30
    python benchmarks/reference_match/tape.py /tmp/fa.tape                       # CPU ms per player-turn
    python benchmarks/reference_match/tape.py /tmp/fa.tape --answers /tmp/a.jsonl  # keep every answer
    python benchmarks/reference_match/tape.py /tmp/fa.tape --same /tmp/a.jsonl     # a change keeps every answer?
    python benchmarks/reference_match/tape.py /tmp/fa.tape --profile /tmp/fa.prof

Prints the bot's CPU (``time.process_time`` inside ``act``, as the harness counts it) per player-turn and per
decision, and with ``--same`` the first answer that differs from a kept run. ``--nogc`` turns the cyclic
collector off for the run. It owns measurement only; the decisions are the bot's.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bridge  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tape")
    ap.add_argument("--answers", help="write every answer (without its CPU time) to this file, one a line")
    ap.add_argument("--same", help="a file --answers wrote: report the first answer that differs")
    ap.add_argument("--profile", help="write cProfile stats of the replay to this file")
    ap.add_argument("--nogc", action="store_true")
    args = ap.parse_args(argv)
    lines = Path(args.tape).read_text().splitlines()
    out = io.StringIO()
    if args.nogc:
        gc.disable()
    if args.profile:
        prof = cProfile.Profile()
        prof.runcall(bridge.serve, lines, out)
        prof.dump_stats(args.profile)
    else:
        bridge.serve(lines, out)
    answers = [json.loads(a) for a in out.getvalue().splitlines()]
    decides = [a for a in answers if "cpu_ms" in a]
    errors = [a for a in answers if "error" in a]
    cpu = sum(a["cpu_ms"] for a in decides)
    n_dec = sum(a["decisions"] for a in decides)
    print(f"{len(decides)} phases, {n_dec} decisions, {len(errors)} errors: bot CPU {cpu:.0f} ms, "
          f"{cpu / max(1, n_dec):.3f} ms a decision, {cpu / max(1, len(decides)):.3f} ms a phase")
    kept = [{k: v for k, v in a.items() if k != "cpu_ms"} for a in answers]
    if args.answers:
        Path(args.answers).write_text("".join(json.dumps(a, sort_keys=True) + "\n" for a in kept))
    if args.same:
        before = [json.loads(x) for x in Path(args.same).read_text().splitlines()]
        for i, (a, b) in enumerate(zip(before, kept)):
            if a != b:
                print(f"answer {i} differs:\n  kept: {json.dumps(a)[:400]}\n  now:  {json.dumps(b)[:400]}")
                return 1
        if len(before) != len(kept):
            print(f"{len(before)} answers kept, {len(kept)} now")
            return 1
        print(f"all {len(kept)} answers the same")
    return 0


if __name__ == "__main__":
    bridge.translate.game()
    bridge.freeze_startup()  # as bridge.py's process does (and every bot worker)
    raise SystemExit(main())
