"""view() and determinize() per second, for every game and scenario (run on demand, never as a test).

Views along play (the headline figure, ``view along play``): 6 seeded random playouts per scenario (at most 400
steps each) are replayed; after every step the deciding seat's ``view()`` is built once and timed (this process's
CPU time around each call, less the clock's own cost; best of 3 replays), as a bot or a server asks for it: what
the step changed is built anew, and the processor's caches are as cold as the engine's work in between leaves them.

Then, on fixed positions (every 29th step of 12 seeded random playouts per scenario, at most 120, the same ones
for any tree that plays the same rules): ``view again``, the deciding seat's view of the same positions over and
over (what a game keeps between views is warm: an upper bound, not what play sees); ``determinize(view, p, rng)``
one sampled world from it (hidden-information games only), measured two ways: 8 draws from each view in turn, as
a bot samples worlds for one decision (a game may reuse what it read from the view), and the first draw from a
view just built (the views built untimed). Each of these rates is the best of 3 rounds of 0.25 s
of this process's CPU time (``time.process_time``), so other jobs on the machine change it less than wall time
would; for a before/after, run both trees in turn, twice (``--src`` imports deltav from another tree: a ``git
archive`` of an older commit).

    PYTHONPATH=src .venv/bin/python benchmarks/bench_views.py                          # every game
    PYTHONPATH=src .venv/bin/python benchmarks/bench_views.py --games tactical,deepspace --json now.json
    .venv/bin/python benchmarks/bench_views.py --src /tmp/old/src --json before.json   # another tree
    .venv/bin/python benchmarks/bench_views.py --compare before.json now.json            # ratios

This module measures only; it changes no game.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

#: worlds drawn from each view in the determinize rate
DRAWS = 8


def _best(fn, items: list, rounds: int = 3, budget: float = 0.25) -> float:
    rates = []
    for _ in range(rounds):
        t0 = time.process_time()
        count = 0
        while time.process_time() - t0 < budget:
            for it in items:
                fn(it)
            count += len(items)
        rates.append(count / (time.process_time() - t0))
    return max(rates)


def _first_draws(game, seats: list, rng, rounds: int = 3, budget: float = 0.25) -> float:
    """First draws per second of CPU time: each from a view just built (the views' own cost not timed)."""
    rates = []
    for _ in range(rounds):
        spent = 0.0
        count = 0
        while spent < budget:
            fresh = [(s.view(p), p) for s, p in seats]
            t0 = time.process_time()
            for v, p in fresh:
                game.determinize(v, p, rng)
            spent += time.process_time() - t0
            count += len(fresh)
        rates.append(count / spent)
    return max(rates)


def trajectories(game, options: dict, games: int = 6, steps: int = 400) -> list:
    """Seeded random playouts: (seed, [(player, action), ...]) each."""
    from deltav.core.rng import Rng, derive_seed

    rng = Rng(54321)
    out = []
    for g in range(games):
        seed = derive_seed(7, "bench-play", g)
        st = game.new_initial_state(options, seed)
        acts = []
        while not st.is_terminal() and len(acts) < steps:
            ps = st.current_players()
            p = ps[rng.below(len(ps))] if len(ps) > 1 else ps[0]
            legal = st.legal_actions(p)
            a = legal[rng.below(len(legal))]
            st.apply_action(p, a)
            acts.append((p, a))
        out.append((seed, acts))
    return out


def _clock_cost(clock, n: int = 20000) -> float:
    """What one ``clock() - clock()`` pair costs (subtracted from every timed call)."""
    t0 = clock()
    for _ in range(n):
        clock() - clock()
    return (clock() - t0) / n


def along_play(game, options: dict, plays: list, rounds: int = 3) -> float:
    """Views per second of view time along the replayed playouts (the deciding seat's, once after each step),
    each call timed in this process's CPU time less the clock's own cost; the best of ``rounds`` replays."""
    clock = time.process_time
    cost = _clock_cost(clock)
    best = 0.0
    for _ in range(rounds):
        spent = 0.0
        n = 0
        for seed, acts in plays:
            st = game.new_initial_state(options, seed)
            for p, a in acts:
                ps = st.current_players()
                q = p if p in ps else ps[0]
                t0 = clock()
                st.view(q)
                spent += clock() - t0
                n += 1
                st.apply_action(p, a)
        spent -= n * cost
        best = max(best, n / spent) if spent > 0 else best
    return best


def positions(game, options: dict, games: int = 12, every: int = 29, limit: int = 120) -> list:
    from deltav.core.rng import Rng, derive_seed

    rng = Rng(12345)
    out = []
    for g in range(games):
        st = game.new_initial_state(options, derive_seed(7, "bench", g))
        k = 0
        while not st.is_terminal() and k < 3000:
            ps = st.current_players()
            p = ps[rng.below(len(ps))] if len(ps) > 1 else ps[0]
            legal = st.legal_actions(p)
            st.apply_action(p, legal[rng.below(len(legal))])
            k += 1
            if k % every == 0 and len(out) < limit:
                out.append(st.clone())
    return [s for s in out if not s.is_terminal()] or [game.new_initial_state(options, 1)]


def measure(wanted: set[str] | None) -> dict[str, dict]:
    from deltav.core.rng import Rng
    from deltav.games import load_all

    res: dict[str, dict] = {}
    for gid, game in sorted(load_all().items()):
        if gid == "toy" or (wanted and gid not in wanted):
            continue
        names = {o.name for o in game.options}
        for sc in game.scenarios() or []:
            for n in sc.players if "players" in names else (None,):
                opts = {"scenario": sc.id, **({"players": n} if n is not None else {})}
                resolved = game.resolve_options(opts)
                play = along_play(game, resolved, trajectories(game, resolved))
                seats = [(s, s.current_players()[0]) for s in positions(game, resolved)]
                views = _best(lambda sp: sp[0].view(sp[1]), seats)
                det = fresh = None
                if game.has_hidden_information:
                    drng = Rng(99)
                    # a bot's use: several worlds drawn from the view of the decision at hand (a game may
                    # reuse what it read from that view for the next draws)
                    samples = [(v, p) for s, p in seats for v in (s.view(p),) for _ in range(DRAWS)]
                    det = _best(lambda vp, g=game, r=drng: g.determinize(vp[0], vp[1], r), samples)
                    # the first draw from a new view (the views built untimed, each drawn from once)
                    fresh = _first_draws(game, seats, drng)
                key = f"{gid} {sc.id}" + (f" {n}p" if n is not None else "")
                res[key] = {"views_along_play_per_second": play, "views_per_second": views, "determinize_per_second": det,
                            "first_determinize_per_second": fresh, "positions": len(seats)}
                print(f"{key:36} view along play {play:>9,.0f}/s  again {views:>9,.0f}/s  determinize "
                      + ("n/a" if det is None else f"{det:>9,.0f}/s (first from a view {fresh:>9,.0f}/s)"),
                      flush=True)
    return res


def compare(before: dict, after: dict) -> None:
    print(f"{'game scenario':36} {'view along play':>16} {'view again':>11} {'determinize':>12} "
          f"{'first from a view':>18}   (after / before)")
    for key, a in after.items():
        b = before.get(key)
        if b is None:
            continue

        def ratio(name, a=a, b=b):
            x, y = a.get(name), b.get(name)
            return f"{x / y:.2f}x" if x and y else "n/a"

        print(f"{key:36} {ratio('views_along_play_per_second'):>16} {ratio('views_per_second'):>11} "
              f"{ratio('determinize_per_second'):>12} {ratio('first_determinize_per_second'):>18}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", help="comma-separated game ids (default: all)")
    ap.add_argument("--src", help="import deltav from this source tree instead")
    ap.add_argument("--json", help="write the rates to this file")
    ap.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"), help="print ratios of two --json files")
    args = ap.parse_args(argv)
    if args.compare:
        compare(*(json.loads(Path(f).read_text()) for f in args.compare))
        return 0
    sys.path.insert(0, args.src or str(Path(__file__).resolve().parents[1] / "src"))
    res = measure(set(args.games.split(",")) if args.games else None)
    if args.json:
        Path(args.json).write_text(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
