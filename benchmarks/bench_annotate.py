"""The cost of the notes on legal actions (each game's ``annotate.py``: for tactical a course preview per order and
odds per attack, for mining the odds of each reveal and a plan per declaration, ...) in the snapshot a server
sends: ``Session.snapshot(seat)`` with and without ``annotate_legal``, per scenario, at the decisions of random
playouts (a fresh session per decision, so the per-step cache of the legal entries does not hide the cost). CPU
time of this process, best of 3 rounds.

    PYTHONPATH=src .venv/bin/python benchmarks/bench_annotate.py                  # every tactical scenario
    PYTHONPATH=src .venv/bin/python benchmarks/bench_annotate.py duel             # one
    PYTHONPATH=src .venv/bin/python benchmarks/bench_annotate.py --game mining    # another game's scenarios
"""

from __future__ import annotations

import json
import sys
import time

from deltav.core.records import MatchRecord
from deltav.core.rng import Rng
from deltav.core.session import Session
from deltav.games import load_all


def positions(game, scenario: str, n: int = 40) -> list[tuple[MatchRecord, int]]:
    """Up to ``n`` records of a random playout, each ending at a decision (with the seat to move)."""
    out = []
    options = {"scenario": scenario, "turn_limit": 20} if game.id == "tactical" else {"scenario": scenario}
    s = Session(game, options, 1)
    rng = Rng(2)
    steps = 0
    while not s.is_over() and len(out) < n and steps < 2000:
        seat = s.waiting_for()[0]
        legal = s.legal_actions(seat)
        if steps % 3 == 0:
            out.append((MatchRecord.from_json(s.record.to_json()), seat))
        a = rng.choice([x for x in legal if x.TYPE != "surrender"] or legal)
        s.submit_action(seat, a)
        steps += 1
    return out


def measure(game, scenario: str) -> dict:
    states = [(Session.replay(rec, game), seat) for rec, seat in positions(game, scenario)]
    orig = game.annotate_legal
    best = {}
    for label in ("with_notes", "without_notes"):
        if label == "without_notes":
            game.annotate_legal = classmethod(lambda cls, state, player, actions, view=None: None).__get__(None, game)
        times = []
        for _ in range(3):
            total = 0.0
            for sess, seat in states:
                sess._legal_json.clear()
                t = time.process_time()
                sess.snapshot(seat)
                total += time.process_time() - t
            times.append(total / len(states))
        best[label] = min(times) * 1000
        game.annotate_legal = orig
    return {"scenario": scenario, "decisions": len(states), "snapshot_ms": round(best["with_notes"], 3),
            "snapshot_no_notes_ms": round(best["without_notes"], 3),
            "notes_ms": round(best["with_notes"] - best["without_notes"], 3)}


def main() -> None:
    args = sys.argv[1:]
    gid = "tactical"
    if args[:1] == ["--game"]:
        gid, args = args[1], args[2:]
    game = load_all()[gid]
    ids = args or [sc.id for sc in game.scenarios()]
    rows = [measure(game, sid) for sid in ids]
    print(f"{'scenario':<20} {'decisions':>9} {'snapshot':>10} {'no notes':>10} {'notes':>8}  (ms per snapshot)")
    for r in rows:
        print(f"{r['scenario']:<20} {r['decisions']:>9} {r['snapshot_ms']:>10.3f} {r['snapshot_no_notes_ms']:>10.3f} "
              f"{r['notes_ms']:>8.3f}")
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
