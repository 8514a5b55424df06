"""Behaviour-identity check for engine optimisations (run on demand, never as a test).

Two modes:

``record`` plays seeded matches with mixed bots (random, easy, normal) for every scenario of the chosen games,
saves each match record, and writes a *trace* of every record: along the trajectory, at every step,
- the full ``legal_actions(p)`` list (as JSON) of every deciding player;
- hashes of ``to_json()`` and of every player's and the spectator's ``view``;
- probes: a deterministic sample of actions (some currently legal, some legal one step earlier and maybe not
  now, the recorded action sent by a player who may not act) applied to clones, with the events produced or
  the ``IllegalAction`` rule and message, and whether a rejected action left the clone unchanged;
- a short random branch off the trajectory on a clone (legal lists, chosen actions and events hashed).

``check`` recomputes the same traces with the current code and compares them exactly, after replaying each
record event for event (``deltav.core.records.replay``). With ``--texts`` (both modes) a third file per record
holds, at every step, the texts a player reads: each deciding seat's legal entries and buffered choice in its
``Session`` snapshot, and every viewer's new log entries (``Session.log``), plus ``describe_value`` of each
action and event: the guard for changes that must keep every game's wording. It also checks that the live state, a fresh
``from_json(to_json())`` copy and the state after a branch was explored on a clone all give the same legal
actions (caches must not go stale or leak between clones).

Usage:
  python benchmarks/check_identical.py record --dir /tmp/golden [--games tactical,knighthawks] [-n 20] [--texts]
  python benchmarks/check_identical.py check --dir /tmp/golden [--games ...] [--scenarios a,b] [--texts]
``--src DIR`` imports deltav from another source tree (e.g. a pristine copy when recording).
Traces are gzip'd JSON lines (one line per step), records are plain JSON.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import sys
import time
from pathlib import Path

SPECS = (
    ("random", "random"),
    ("random", "easy"),
    ("easy", "normal"),
    ("normal", "random"),
    ("normal", "normal"),
    ("easy", "easy"),
    ("normal", "easy"),
    ("random", "normal"),
)
PROBES_NOW = 6
PROBES_BEFORE = 6
BRANCH_STEPS = 6


def _h(obj) -> str:
    return hashlib.sha1(json.dumps(obj, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:16]


def _apply_probe(state, p, action):
    before = state.to_json()
    c = state.clone()
    try:
        events = c.apply_action(p, action)
    except Exception as exc:  # IllegalAction, but any exception type must also stay the same
        rule = getattr(exc, "rule", type(exc).__name__)
        msg = getattr(exc, "message", str(exc))
        unchanged = c.to_json() == before
        return {"error": rule, "message": msg, "unchanged": unchanged}
    return {"events": [e.to_json() for e in events], "after": _h(c.to_json())}


def trace_record(game, record, Rng, derive_seed, replay_check=True):
    """Yield one dict per step of ``record`` (see the module docstring). Raises AssertionError on an internal
    inconsistency (stale cache, leak between clones) and RuntimeError if the recorded events differ."""
    opts = game.resolve_options(record.options)
    state = game.new_initial_state(opts, record.seed)
    prev_legal: list = []
    for i, step in enumerate(record.steps):
        players = list(state.current_players())
        legal = {p: state.legal_actions(p) for p in players}
        legal_json = {str(p): [a.to_json() for a in legal[p]] for p in players}
        row = {
            "i": i,
            "players": players,
            "legal": legal_json,
            "state": _h(state.to_json()),
            "views": [_h(state.view(q)) for q in range(state.num_players)] + [_h(state.view(None))],
        }
        # a fresh copy (no caches) must agree
        fresh = game.state_from_json(state.to_json())
        for p in players:
            got = [a.to_json() for a in fresh.legal_actions(p)]
            if got != legal_json[str(p)]:
                raise AssertionError(f"step {i}: from_json copy gives other legal actions for player {p}")
        # probes
        rng = Rng(derive_seed(record.seed, "probe", i))
        p0 = step.player
        cand = []
        cur = legal.get(p0, [])
        for _ in range(min(PROBES_NOW, len(cur))):
            cand.append((p0, cur[rng.below(len(cur))]))
        for _ in range(min(PROBES_BEFORE, len(prev_legal))):
            cand.append((p0, prev_legal[rng.below(len(prev_legal))]))
        action = game.action_from_json(step.action)
        for q in range(state.num_players):
            if q not in players:
                cand.append((q, action))
                break
        row["probes"] = _h([[q, a.to_json(), _apply_probe(state, q, a)] for q, a in cand])
        # a random branch on a clone
        c = state.clone()
        br = []
        for _ in range(BRANCH_STEPS):
            if c.is_terminal():
                break
            ps = list(c.current_players())
            q = ps[rng.below(len(ps))]
            la = c.legal_actions(q)
            a = la[rng.below(len(la))]
            ev = c.apply_action(q, a)
            br.append([q, [x.to_json() for x in la], a.to_json(), [e.to_json() for e in ev]])
        row["branch"] = _h(br)
        # the live state must be untouched by all that
        for p in players:
            got = [a.to_json() for a in state.legal_actions(p)]
            if got != legal_json[str(p)]:
                raise AssertionError(f"step {i}: legal actions of player {p} changed after probing clones")
        if _h(state.to_json()) != row["state"]:
            raise AssertionError(f"step {i}: state changed after probing clones")
        events = state.apply_action(step.player, action)
        if replay_check and [e.to_json() for e in events] != step.events:
            raise RuntimeError(f"step {i}: events differ from the record")
        prev_legal = legal.get(p0, [])
        yield row
    res = state.result()
    if replay_check and (res.to_json() if res else None) != record.result:
        raise RuntimeError("final result differs from the record")


def trace_texts(game, record, Session):
    """Yield one list of texts per step of ``record``: what a player reads there (see the module docstring)."""
    s = Session(game, record.options, record.seed, record.seats or None)
    viewers = [*range(s.num_players), None]
    for i, step in enumerate(record.steps):
        row = {"i": i, "legal": {}, "submitted": {}}
        for p in s.deciding():
            snap = s.snapshot(p)
            row["legal"][str(p)] = [e["text"] for e in snap["legal"]]
            if snap["submitted"] is not None:
                row["submitted"][str(p)] = snap["submitted"]["text"]
        before = s.step
        s.submit(step.player, step.action)
        row["log"] = [[e["text"] for e in s.log(v, before)] for v in viewers] if s.step != before else []
        row["action"] = game.describe_value(step.action)
        row["events"] = [game.describe_value(e) for e in step.events]
        yield row


def _setup(src):
    if src:
        sys.path.insert(0, str(Path(src).resolve()))
    else:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    import deltav

    return deltav


def _scenarios(game, only):
    ids = [s.id for s in game.scenarios()]
    if only:
        ids = [s for s in ids if s in only]
    return ids


def cmd_record(args):
    deltav = _setup(args.src)
    from deltav.agents import make_agent
    from deltav.core.agent import RandomAgent
    from deltav.core.match import play_match
    from deltav.core.rng import Rng, derive_seed
    from deltav.games import load_all

    print(f"recording with deltav from {Path(deltav.__file__).parent}")
    games = load_all()
    out = Path(args.dir)
    out.mkdir(parents=True, exist_ok=True)
    for gid in args.games.split(","):
        game = games[gid]
        for sc in _scenarios(game, args.scenarios):
            t0 = time.perf_counter()
            for k in range(args.n):
                pair = SPECS[k % len(SPECS)]
                players = game.num_players(game.resolve_options({"scenario": sc}))
                specs = tuple(pair[p % 2] for p in range(players))  # the pair cycled over 3 or 4 seats
                seed = derive_seed(2024, gid, sc, k)
                agents = []
                for spec in specs:
                    try:
                        agents.append(make_agent(gid, spec))
                    except Exception:
                        agents.append(RandomAgent())
                try:
                    record, _, _ = play_match(game, {"scenario": sc}, seed, agents, seats=list(specs))
                except Exception as exc:  # a bot under development may fail: fall back to random play
                    print(f"  {gid}/{sc}/{k}: bots failed ({exc}); random play instead")
                    record, _, _ = play_match(game, {"scenario": sc}, seed, [RandomAgent() for _ in specs])
                base = out / f"{gid}__{sc}__{k:02d}"
                record.save(base.with_suffix(".record.json"))
                with gzip.open(base.with_suffix(".trace.jsonl.gz"), "wt") as f:
                    for row in trace_record(game, record, Rng, derive_seed):
                        f.write(json.dumps(row, separators=(",", ":")) + "\n")
                if args.texts:
                    from deltav.core.session import Session

                    with gzip.open(base.with_suffix(".texts.jsonl.gz"), "wt") as f:
                        for row in trace_texts(game, record, Session):
                            f.write(json.dumps(row, separators=(",", ":")) + "\n")
            print(f"{gid:12} {sc:20} {args.n} matches recorded in {time.perf_counter() - t0:.1f}s", flush=True)


def cmd_check(args):
    deltav = _setup(args.src)
    from deltav.core.records import MatchRecord, replay
    from deltav.core.rng import Rng, derive_seed
    from deltav.games import load_all

    print(f"checking deltav from {Path(deltav.__file__).parent}")
    games = load_all()
    root = Path(args.dir)
    failures = 0
    total = 0
    for gid in args.games.split(","):
        game = games[gid]
        for sc in _scenarios(game, args.scenarios):
            t0 = time.perf_counter()
            files = sorted(root.glob(f"{gid}__{sc}__*.record.json"))
            steps = 0
            for rf in files:
                total += 1
                record = MatchRecord.load(rf)
                name = rf.name[: -len(".record.json")]
                try:
                    replay(record)
                    with gzip.open(root / f"{name}.trace.jsonl.gz", "rt") as f:
                        golden = [json.loads(line) for line in f]
                    n = 0
                    for row, want in zip(trace_record(game, record, Rng, derive_seed), golden, strict=True):
                        n += 1
                        if row != want:
                            keys = [k for k in want if row.get(k) != want[k]]
                            raise AssertionError(f"step {row['i']}: {keys} differ")
                    steps += n
                    if args.texts:
                        from deltav.core.session import Session

                        with gzip.open(root / f"{name}.texts.jsonl.gz", "rt") as f:
                            golden = [json.loads(line) for line in f]
                        for row, want in zip(trace_texts(game, record, Session), golden, strict=True):
                            if row != want:
                                keys = [k for k in want if row.get(k) != want[k]]
                                raise AssertionError(f"step {row['i']}: texts {keys} differ")
                except (AssertionError, RuntimeError, ValueError) as exc:
                    failures += 1
                    print(f"  FAIL {name}: {exc}")
                except Exception as exc:  # RecordError, IllegalAction...
                    failures += 1
                    print(f"  FAIL {name}: {type(exc).__name__}: {exc}")
            print(f"{gid:12} {sc:20} {len(files)} records, {steps} steps checked in {time.perf_counter() - t0:.1f}s",
                  flush=True)
    print(f"{total - failures}/{total} records identical" + ("" if failures else " (all)"))
    return 1 if failures or not total else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("record", "check"):
        sp = sub.add_parser(name)
        sp.add_argument("--dir", required=True, help="directory of records and traces")
        sp.add_argument("--games", default="tactical,knighthawks", help="comma-separated game ids")
        sp.add_argument("--scenarios", type=lambda s: set(s.split(",")), help="only these scenario ids")
        sp.add_argument("--src", help="import deltav from this source tree")
        sp.add_argument("--texts", action="store_true", help="also the texts a player reads (legal entries, logs)")
        if name == "record":
            sp.add_argument("-n", type=int, default=20, help="matches per scenario")
    args = ap.parse_args(argv)
    return cmd_record(args) if args.cmd == "record" else cmd_check(args)


if __name__ == "__main__":
    sys.exit(main())
