"""Measure agents on the registered games: decisions per second, think time, search iterations per second.

    python -m deltav.agents.bench                       # every game, specs easy, normal, hard
    python -m deltav.agents.bench --games mining --specs "mcts:iterations=200;hard" --decisions 30
    python -m deltav.agents.bench --gate --specs "easy;hard"   # every scenario, bot against bot; exit 1 on failure
    python -m deltav.agents.bench --games tactical --versus "hard;normal" --matches 60   # win rate with a 95% CI

Positions are sampled from seeded games: a game is played with uniformly random moves and every ``--every``-th
decision (of any player) is handed to the agent under test, whose answer is then played (so an illegal answer
is caught exactly as a match would catch it). The figures are wall-clock measurements of this machine; the
moves themselves are deterministic given the seed. ``--matches`` plays whole matches of the spec against
itself with :func:`deltav.core.match.play_match` instead.

This module owns measurement only (it is a tool, not part of the agents' behaviour).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

from deltav.agents.registry import make_agent
from deltav.core.errors import DeltavError, IllegalAction
from deltav.core.match import play_match
from deltav.core.protocol import Decision, Game
from deltav.core.rng import Rng, derive_seed


def sample_decisions(game: type[Game], options: dict, spec: str, decisions: int, seed: int, every: int = 3,
                     max_games: int = 50) -> dict:
    """Ask the agent for ``decisions`` decisions at positions of seeded random games; return the figures."""
    opts = game.resolve_options(options)
    think: list[float] = []
    iterations = 0
    illegal = 0
    g = 0
    while len(think) < decisions and g < max_games:
        state = game.new_initial_state(opts, derive_seed(seed, "bench", g))
        rng = Rng(derive_seed(seed, "moves", g))
        agents: dict[int, object] = {}
        step = 0
        while not state.is_terminal() and len(think) < decisions:
            players = list(state.current_players())
            p = players[rng.below(len(players))]
            legal = state.legal_actions(p)
            if step % every == 0 and len(legal) > 1:
                agent = agents.get(p)
                if agent is None:
                    agent = agents[p] = make_agent(game.id, spec)
                decision = Decision(game, p, state.view(p), legal, Rng(derive_seed(seed, "seat", g, p, step)), opts)
                t0 = time.perf_counter()
                action = agent.act(decision)  # type: ignore[attr-defined]
                think.append(time.perf_counter() - t0)
                last = getattr(agent, "last", None)
                if last is not None:
                    iterations += last.iterations
                    agent.last = None  # type: ignore[attr-defined]
                if action not in legal:
                    illegal += 1
                    action = legal[rng.below(len(legal))]
            else:
                action = legal[rng.below(len(legal))]
            try:
                state.apply_action(p, action)
            except IllegalAction:
                illegal += 1
                state.apply_action(p, legal[rng.below(len(legal))])
            step += 1
        g += 1
    total = sum(think)
    return {
        "decisions": len(think),
        "seconds": total,
        "per_second": len(think) / total if total else float("inf"),
        "mean_ms": 1000 * total / len(think) if think else 0.0,
        "max_ms": 1000 * max(think) if think else 0.0,
        "iterations_per_second": iterations / total if total and iterations else 0.0,
        "illegal": illegal,
    }


def match_figures(game: type[Game], options: dict, spec: str, matches: int, seed: int) -> dict:
    """Play ``matches`` whole matches of ``spec`` against itself; return think-time figures."""
    decisions = 0
    think = 0.0
    worst = 0.0
    results = []
    for m in range(matches):
        opts = game.resolve_options(options)
        n = game.num_players(opts)
        agents = [make_agent(game.id, spec) for _ in range(n)]
        record, state, stats = play_match(game, options, derive_seed(seed, "match", m), agents)
        decisions += sum(stats.decisions)
        think += sum(stats.think_seconds)
        worst = max(worst, max(stats.max_think))
        results.append(state.result().reason if state.result() else "?")
    return {"decisions": decisions, "per_second": decisions / think if think else float("inf"),
            "max_ms": 1000 * worst, "results": results}


def gate(games: dict[str, type[Game]], ids: list[str], specs: list[str], seed: int, matches: int = 1) -> int:
    """Play every scenario (at its smallest player count) of every game with the specs seated in turn; print one
    line per match and return the number of failures (an illegal action or any engine/agent error)."""
    failures = 0
    for gid in ids:
        game = games[gid]
        scenarios = game.scenarios() or [None]
        has_players = any(o.name == "players" for o in game.options)
        for sc in scenarios:
            options: dict = {}
            n = game.num_players(game.resolve_options({}))
            if sc is not None:
                options["scenario"] = sc.id
                n = sc.players[0]
                if has_players:
                    options["players"] = n
            for m in range(matches):
                seats = [specs[(m + i) % len(specs)] for i in range(n)]
                t0 = time.perf_counter()
                try:
                    agents = [make_agent(gid, s) for s in seats]
                    record, state, stats = play_match(game, options, derive_seed(seed, "gate", m), agents)
                    res = state.result()
                    print(f"ok   {gid:12} {options.get('scenario', '-'):20} {seats}: {len(record.steps)} steps, "
                          f"winners {list(res.winners) if res else '?'}, max think {max(stats.max_think):.2f} s, "
                          f"{time.perf_counter() - t0:.0f} s", flush=True)
                except Exception as exc:  # noqa: BLE001 - the gate reports every failure and goes on
                    failures += 1
                    print(f"FAIL {gid:12} {options.get('scenario', '-'):20} {seats}: {type(exc).__name__}: {exc}",
                          flush=True)
    return failures


def versus(game: type[Game], options: dict, spec_a: str, spec_b: str, matches: int, seed: int) -> dict:
    """Play ``spec_a`` against ``spec_b`` (seats alternated: A is seat 0 in even matches, seat 1 in odd ones, and
    B fills every other seat). Returns A's wins, B's wins, other results (draws, shared or third-party wins),
    and A's score share ``(wins + other / 2) / matches`` with its 95% Wilson interval."""
    a_wins = b_wins = other = 0
    opts = game.resolve_options(options)
    n = game.num_players(opts)
    for m in range(matches):
        a_seat = m % 2 if n > 1 else 0
        seats = [spec_a if p == a_seat else spec_b for p in range(n)]
        agents = [make_agent(game.id, s) for s in seats]
        _, state, _ = play_match(game, options, derive_seed(seed, "versus", m), agents)
        winners = state.result().winners if state.result() else ()
        if len(winners) == 1 and winners[0] == a_seat:
            a_wins += 1
        elif winners and a_seat not in winners and n == 2:
            b_wins += 1
        else:
            other += 1
    share = (a_wins + other / 2) / matches if matches else 0.0
    lo, hi = wilson(share, matches)
    return {"a_wins": a_wins, "b_wins": b_wins, "other": other, "share": share, "ci": (lo, hi)}


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``p`` observed over ``n`` trials."""
    if n == 0:
        return 0.0, 1.0
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def main(argv: Sequence[str] | None = None) -> int:
    from deltav.games import load_all

    ap = argparse.ArgumentParser(prog="python -m deltav.agents.bench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default="all", help="comma-separated game ids, or all")
    ap.add_argument("--specs", default="easy,normal,hard", help="agent specs separated by ';' or ','")
    ap.add_argument("--scenario", default=None, help="scenario id (default: the game's first)")
    ap.add_argument("--decisions", type=int, default=12, help="decisions sampled per game and spec")
    ap.add_argument("--every", type=int, default=3, help="hand every k-th decision to the agent")
    ap.add_argument("--matches", type=int, default=0, help="play this many whole matches instead of sampling")
    ap.add_argument("--gate", action="store_true",
                    help="play every scenario of every game with the specs seated in turn; exit 1 on any failure")
    ap.add_argument("--versus", default=None, help='"A;B": play spec A against spec B for --matches matches')
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    games = load_all()
    ids = sorted(games) if args.games == "all" else args.games.split(",")
    specs = _split_specs(args.specs)
    if args.gate:
        return 1 if gate(games, ids, specs, args.seed, max(1, args.matches)) else 0
    if args.versus:
        spec_a, spec_b = _split_specs(args.versus)
        for gid in ids:
            game = games[gid]
            scenarios = [s.id for s in game.scenarios()]
            options = {"scenario": args.scenario or scenarios[0]} if scenarios else {}
            f = versus(game, options, spec_a, spec_b, max(1, args.matches), args.seed)
            print(f"{gid:12} {options.get('scenario', '-'):16} A={spec_a} B={spec_b}: A {f['a_wins']}, B {f['b_wins']}, "
                  f"other {f['other']}; A's score {f['share']:.3f} (95% CI {f['ci'][0]:.3f}-{f['ci'][1]:.3f})",
                  flush=True)
        return 0
    print(f"{'game':12} {'spec':36} {'dec':>4} {'dec/s':>8} {'mean ms':>8} {'max ms':>8} {'iter/s':>8} illegal")
    for gid in ids:
        game = games[gid]
        scenarios = [s.id for s in game.scenarios()]
        options = {"scenario": args.scenario or scenarios[0]} if scenarios else {}
        for spec in specs:
            try:
                make_agent(gid, spec)
            except DeltavError as exc:
                print(f"{gid:12} {spec:36} unavailable: {exc}")
                continue
            if args.matches:
                f = match_figures(game, options, spec, args.matches, args.seed)
                print(f"{gid:12} {spec:36} {f['decisions']:4d} {f['per_second']:8.1f} {'':8} {f['max_ms']:8.0f} "
                      f"{'':8} 0  {f['results']}")
            else:
                f = sample_decisions(game, options, spec, args.decisions, args.seed, args.every)
                print(f"{gid:12} {spec:36} {f['decisions']:4d} {f['per_second']:8.1f} {f['mean_ms']:8.1f} "
                      f"{f['max_ms']:8.0f} {f['iterations_per_second']:8.0f} {f['illegal']}")
    return 0


def _split_specs(text: str) -> list[str]:
    """Specs separated by ';' (or by ',' where a comma does not start a parameter)."""
    if ";" in text:
        return [s.strip() for s in text.split(";") if s.strip()]
    out: list[str] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if "=" in part and out and ":" in out[-1]:
            out[-1] += "," + part
        else:
            out.append(part)
    return out


if __name__ == "__main__":
    raise SystemExit(main())
