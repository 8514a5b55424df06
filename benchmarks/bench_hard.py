"""Side-by-side benchmark: whole bot-vs-bot games (hard vs hard by default) in one scenario, with the cost split
into the engine, the views and the bots, so a ratio against another implementation (the reference Delta-V on
Node, say) can be taken on the same machine.

    .venv/bin/python benchmarks/bench_hard.py tactical duel --games 20
    .venv/bin/python benchmarks/bench_hard.py tactical --games 5               # every tactical scenario
    .venv/bin/python benchmarks/bench_hard.py mining standard --bot bot:normal --json out.json
    .venv/bin/python benchmarks/bench_hard.py tactical --reference benchmarks/reference/tactical.json  # ratios
    .venv/bin/python benchmarks/bench_hard.py tactical duel --direct --src /tmp/old/src  # an older tree

Per scenario it prints:
- ``games/s`` and ``turns/s``: whole games and game turns (``State.turn_count``) per second of CPU time;
- ``engine+view ms/pt``: per player-turn, the engine's work (``legal_actions`` and ``apply_action`` through the
  Session) plus building the deciding seat's ``view()``, i.e. what a server or a match runner pays around the
  bots; a player-turn is a maximal run of decisions by the same seat (tactical: one player's turn);
- ``view ms/pt``: the view part alone;
- ``bot ms/dec`` and ``bot ms/pt``: the bots' thinking per decision and per player-turn.

All times are CPU time of this process (``time.process_time``), so other jobs on the machine do not inflate them;
bots run in this process (no pool). ``--reference FILE`` reads a JSON document with the same keys per scenario
(``{"duel": {"games_per_s": ..., "engine_view_ms_per_pt": ...}}``) and prints ours / theirs for rates and
theirs / ours for costs (above 1 means deltav is faster). ``benchmarks/reference/tactical.json`` holds the reference
Delta-V's figures as published in the design notes (its ``_source`` says which runs). ``--direct`` plays on the
state itself instead of through a Session (the engine's cost without the session's event filtering and record
keeping), the only way an older tree without a Session (``--src``, before 2026-11-30) can be measured; compare direct
with direct.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path


def _source_tree() -> str:
    """The ``src`` directory to import deltav from: ``--src DIR`` (an older tree, for a before/after) or this
    checkout's (read before the imports below)."""
    for i, arg in enumerate(sys.argv):
        if arg == "--src" and i + 1 < len(sys.argv):
            return sys.argv[i + 1]
        if arg.startswith("--src="):
            return arg.split("=", 1)[1]
    return str(Path(__file__).resolve().parents[1] / "src")


sys.path.insert(0, _source_tree())

from deltav.agents import make_agent  # noqa: E402
from deltav.core.protocol import Decision  # noqa: E402
from deltav.core.rng import Rng, derive_seed  # noqa: E402
from deltav.games import load_all  # noqa: E402

try:
    from deltav.core.heap import freeze_startup  # noqa: E402
    from deltav.core.session import Session  # noqa: E402
except ImportError:  # an older tree (--src): no session (only --direct) and no start-up freeze
    Session = None

    def freeze_startup():
        pass

RATES = ("games_per_s", "turns_per_s")
COSTS = ("engine_view_ms_per_pt", "view_ms_per_pt", "bot_ms_per_decision", "bot_ms_per_pt")


def play_direct(game, options: dict, seed: int, specs: list[str]) -> dict:
    """One game on the state itself (no Session: no per-seat event filtering by the session, no record), as a
    bot's search or the tree of 2026-11-29 plays; the same split of CPU time as ``play``."""
    opts = game.resolve_options(options)
    state = game.new_initial_state(opts, seed)
    agents = [make_agent(game.id, s.removeprefix("bot:")) for s in specs]
    rngs = [Rng(derive_seed(seed, "seat", p)) for p in range(len(specs))]
    clock = time.process_time
    engine = view = bots = 0.0
    decisions = player_turns = 0
    last = None
    while not state.is_terminal():
        for p in list(state.current_players()):
            t0 = clock()
            v = state.view(p)
            t1 = clock()
            legal = list(state.legal_actions(p))
            t2 = clock()
            action = agents[p].act(Decision(game, p, v, legal, rngs[p], opts))
            t3 = clock()
            watching = 0.0  # the bots' observe(): their time, not the engine's
            events = state.apply_action(p, action)
            for q in range(len(specs)):
                seen = [e for e in events if e.visible_to(q)]
                if seen:
                    t5 = clock()
                    agents[q].observe(q, seen)
                    watching += clock() - t5
            t4 = clock()
            view += t1 - t0
            engine += (t2 - t1) + (t4 - t3) - watching
            bots += t3 - t2 + watching
            decisions += 1
            if p != last:
                player_turns += 1
                last = p
            if state.is_terminal():
                break
    # an older tree's tactical turn_count() was None: its game turn is the state's ``turn``
    return {"engine": engine, "view": view, "bots": bots, "decisions": decisions, "player_turns": player_turns,
            "turns": state.turn_count() or getattr(state, "turn", 0) or 0}


def play(game, options: dict, seed: int, specs: list[str]) -> dict:
    """One game through a Session (what a server or a match runner pays); returns the CPU seconds spent in the
    engine, the views and the bots, and the counts."""
    session = Session(game, options, seed, specs)
    agents = [make_agent(game.id, s.removeprefix("bot:")) for s in specs]
    rngs = [Rng(derive_seed(seed, "seat", p)) for p in range(len(specs))]
    clock = time.process_time
    engine = view = bots = 0.0
    decisions = player_turns = 0
    last = None
    while not session.is_over():
        for p in list(session.deciding()):
            t0 = clock()
            v = session.state.view(p)
            t1 = clock()
            legal = list(session.legal_actions(p))
            t2 = clock()
            decision = Decision(game, p, v, legal, rngs[p], session.options)
            action = agents[p].act(decision)
            t3 = clock()
            watching = 0.0  # the bots' observe(): their time, not the engine's
            outcome = session.submit_action(p, action)
            for applied in outcome.applied:
                for q in range(len(specs)):
                    seen = applied.events_for(q)
                    if seen:
                        t5 = clock()
                        agents[q].observe(q, seen)
                        watching += clock() - t5
            t4 = clock()
            view += t1 - t0
            engine += (t2 - t1) + (t4 - t3) - watching
            bots += t3 - t2 + watching
            decisions += 1
            if p != last:
                player_turns += 1
                last = p
    return {"engine": engine, "view": view, "bots": bots, "decisions": decisions, "player_turns": player_turns,
            "turns": session.state.turn_count() or 0}


def bench(game, scenario: str | None, games: int, seed: int, specs: list[str], players: int | None = None,
          direct: bool = False) -> dict:
    options = {"scenario": scenario} if scenario else {}
    if players:
        options["players"] = players
    totals = {"engine": 0.0, "view": 0.0, "bots": 0.0, "decisions": 0, "player_turns": 0, "turns": 0}
    for i in range(games):
        r = (play_direct if direct else play)(game, options, derive_seed(seed, "bench_hard", i), specs)
        for k in totals:
            totals[k] += r[k]
    cpu = totals["engine"] + totals["view"] + totals["bots"]
    pt = max(1, totals["player_turns"])
    return {
        "game": game.id,
        "scenario": scenario,
        "bots": specs,
        "games": games,
        "games_per_s": games / cpu if cpu else 0.0,
        "turns_per_s": totals["turns"] / cpu if cpu else 0.0,
        "avg_turns": totals["turns"] / games,
        "engine_view_ms_per_pt": 1000 * (totals["engine"] + totals["view"]) / pt,
        "view_ms_per_pt": 1000 * totals["view"] / pt,
        "bot_ms_per_decision": 1000 * totals["bots"] / max(1, totals["decisions"]),
        "bot_ms_per_pt": 1000 * totals["bots"] / pt,
        "player_turns": totals["player_turns"],
        "decisions": totals["decisions"],
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("scenario", nargs="?", help="default: every scenario of the game")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bot", default="bot:hard", help="the spec every seat plays (default bot:hard)")
    ap.add_argument("--players", type=int, help="for games with a player count (mining)")
    ap.add_argument("--json", help="write the rows as JSON to this file ('-' for stdout)")
    ap.add_argument("--reference", help="a JSON file of the other implementation's figures per scenario")
    ap.add_argument("--direct", action="store_true",
                    help="call the engine on the state itself, not through a Session (a bot's view of the cost; "
                         "the only mode for an older --src tree)")
    ap.add_argument("--src", help="import deltav from this source tree (e.g. a git archive of an older commit)")
    ap.add_argument("--no-freeze", action="store_true",
                    help="leave the start-up heap to the collector (bot processes of deltav serve and simulate "
                         "--jobs freeze it: deltav.core.heap)")
    args = ap.parse_args(argv)
    if Session is None and not args.direct:
        ap.error("this tree has no deltav.core.session: use --direct")
    registry = load_all()
    if not args.no_freeze:
        freeze_startup()
    if args.game not in registry:
        ap.error(f"unknown game {args.game!r} (allowed: {', '.join(sorted(registry))})")
    game = registry[args.game]
    scenarios = [args.scenario] if args.scenario else [s.id for s in game.scenarios()] or [None]
    ref = json.loads(Path(args.reference).read_text()) if args.reference else {}
    rows = []
    head = (f"{'scenario':20} {'games/s':>8} {'turns/s':>8} {'turns':>6} {'eng+view ms/pt':>14} {'view ms/pt':>10} "
            f"{'bot ms/dec':>10} {'bot ms/pt':>9}")
    print(head)
    print("-" * len(head))
    for sc in scenarios:
        base = {"scenario": sc} if sc else {}
        if args.players:
            base["players"] = args.players
        n = game.num_players(game.resolve_options(base))
        r = bench(game, sc, args.games, args.seed, [args.bot] * n, args.players, args.direct)
        rows.append(r)
        print(f"{sc or '-':20} {r['games_per_s']:8.2f} {r['turns_per_s']:8.1f} {r['avg_turns']:6.1f} "
              f"{r['engine_view_ms_per_pt']:14.3f} {r['view_ms_per_pt']:10.3f} {r['bot_ms_per_decision']:10.3f} "
              f"{r['bot_ms_per_pt']:9.2f}")
        theirs = ref.get(sc or "-")
        if theirs:
            ratios = [f"{k} {r[k] / theirs[k]:.2f}x" for k in RATES if theirs.get(k)]
            ratios += [f"{k} {theirs[k] / r[k]:.2f}x" for k in COSTS if theirs.get(k) and r[k]]
            print(f"{'':20} vs reference (above 1: deltav faster): " + ", ".join(ratios))
    if args.json == "-":
        print(json.dumps(rows, indent=2))
    elif args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
